import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentBlock } from '../../contract/documents';
import type { PrintDocumentEnding } from '../../contract/navigation';
import type { BuiltBlock, BuiltDocument, BuiltRow, DocumentScope } from '../../server/documents/builder';
import { BUILDERS } from '../../server/documents/builders';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Issue 25, the mark sheets and the statistics, built from the living demo (its last diet marked by two
 * markers, a few scripts settled by a third, results published; this diet's sheets open and blind).
 * Every figure a paper shows is checked against this file's own SQL over the raw rows, never against
 * the builders' own helpers: counts, pass rates, means, a facility and a discrimination index.
 */

let t: TestPortal;
const db = () => t.portal.database.db;

beforeAll(async () => {
  t = await startTestPortal({}, { livingDemo: true });
});
afterAll(() => t?.close());

// ---------------------------------------------------------------------------------------------------
// Reading the database (the test's own SQL) and the built documents.

const query = async <T>(statement: ReturnType<typeof sql>): Promise<T[]> =>
  ((await db().execute(statement)) as unknown as { rows: T[] }).rows;
const one = async <T>(statement: ReturnType<typeof sql>): Promise<T> => (await query<T>(statement))[0];

interface Chosen {
  diet: string;
  school?: string;
  courseHeader?: string;
  paper?: string;
  variant?: string;
}

/** The scope the print pipeline would resolve for these codes (ids read by SQL). */
async function scopeOf(chosen: Chosen): Promise<DocumentScope> {
  const diet = await one<{ id: number; code: string; name: string }>(
    sql`select id, code, name from diets where code = ${chosen.diet}`,
  );
  const school = chosen.school
    ? await one<{ id: number; code: string; name: string }>(
        sql`select id, code, name from training_schools where code = ${chosen.school}`,
      )
    : null;
  const courseHeader = chosen.courseHeader
    ? await one<{ id: number; code: string; name: string }>(
        sql`select id, code, title as name from course_headers where code = ${chosen.courseHeader}`,
      )
    : null;
  const paper =
    chosen.paper && courseHeader
      ? await one<{ id: number; name: string; courseHeaderId: number }>(
          sql`select id, name, course_header_id as "courseHeaderId" from papers
              where course_header_id = ${courseHeader.id} and name = ${chosen.paper}`,
        )
      : null;
  return { diet, school, courseHeader, paper, candidate: null, variant: chosen.variant ?? null };
}

interface Read {
  document: BuiltDocument;
  blocks: (
    | Exclude<BuiltBlock, { kind: 'table' }>
    | (Extract<DocumentBlock, { kind: 'table' }> & { built: BuiltRow[] })
  )[];
  text: string;
  count: number;
}

/** Builds a document and reads every table's rows (all at once or in batches). */
async function build(ending: PrintDocumentEnding, chosen: Chosen): Promise<Read> {
  const builder = BUILDERS[ending];
  expect(builder, ending).toBeDefined();
  const scope = await scopeOf(chosen);
  const document = await builder!.build(db(), scope);
  const count = await builder!.count(db(), scope);
  const blocks: Read['blocks'] = [];
  for (const block of document.blocks) {
    if (block.kind !== 'table') {
      blocks.push(block);
      continue;
    }
    const built: BuiltRow[] = [];
    if ('batches' in block.rows) for await (const batch of block.rows.batches) built.push(...batch);
    else built.push(...block.rows);
    blocks.push({ ...block, rows: built.map((row) => row.cells), built });
  }
  const words: string[] = document.heading.map((h) => `${h.label}: ${h.value}`);
  for (const block of blocks) {
    if (block.kind === 'text' || block.kind === 'notice') words.push(block.text);
    if (block.kind === 'table') words.push(block.title ?? '', ...block.columns.map((c) => c.label));
    if (block.kind === 'chart') words.push(block.title, ...block.bars.map((b) => b.label));
    if (block.kind === 'signatures') words.push(...block.labels);
  }
  return { document, blocks, text: words.join('\n'), count };
}

const tablesOf = (read: Read) => read.blocks.filter((b) => b.kind === 'table');
const noticesOf = (read: Read) => read.blocks.filter((b) => b.kind === 'notice').map((b) => b.text);
const chartsOf = (read: Read) => read.blocks.filter((b) => b.kind === 'chart');
const columnOf = (table: ReturnType<typeof tablesOf>[number], label: string) =>
  table.columns.findIndex((c) => c.label === label);

/** '62.5%' as the papers write a rate, computed here from the counts. */
const rate = (part: number, whole: number) => (whole === 0 ? '–' : `${((part * 100) / whole).toFixed(1)}%`);
/** Tenths as a mark ('12.5', '12'). */
const mark = (tenths: number) => (tenths % 10 === 0 ? String(tenths / 10) : (tenths / 10).toFixed(1));

let past: { id: number; code: string };
let current: { id: number; code: string };

beforeAll(async () => {
  past = await one<{ id: number; code: string }>(
    sql`select id, code from diets where closed_at is not null order by first_paper_on desc limit 1`,
  );
  current = await one<{ id: number; code: string }>(sql`select id, code from diets where current`);
});

// ---------------------------------------------------------------------------------------------------

describe('the examiners’ mark sheets the portal cannot fill', () => {
  /** SHT-IB's course header with the most candidates registered for the last diet. */
  const busiest = () =>
    one<{ code: string; n: number }>(sql`select h.code, count(*)::int as n
      from registrations r join candidates c on c.id = r.candidate_id join course_headers h on h.id = c.course_header_id
      join training_schools s on s.id = c.training_school_id
      where r.diet_id = ${past.id} and r.reg_status = 'registered' and s.code = 'SHT-IB'
      group by h.code order by n desc, h.code limit 1`);

  const registered = (code: string) =>
    query<{ candidate_index: string; first_name: string; middle_name: string | null; last_name: string }>(
      sql`select c.candidate_index, c.first_name, c.middle_name, c.last_name
        from registrations r join candidates c on c.id = r.candidate_id join course_headers h on h.id = c.course_header_id
        join training_schools s on s.id = c.training_school_id
        where r.diet_id = ${past.id} and r.reg_status = 'registered' and s.code = 'SHT-IB' and h.code = ${code}
        order by c.candidate_index`,
    );

  it.each([
    ['practical-marksheet', 'holds no practical marks'],
    ['oral-marksheet', 'holds no oral marks'],
    ['research-project', 'holds no project marks'],
    ['project-study', 'holds no project marks'],
  ] as const)(
    '%s: the school’s registered candidates, SURNAME first, boxes left empty, and the notice',
    async (ending, notice) => {
      const { code, n } = await busiest();
      expect(n).toBeGreaterThan(2);
      const read = await build(ending, { diet: past.code, school: 'SHT-IB', courseHeader: code });
      const expected = await registered(code);
      const [table] = tablesOf(read);
      expect(table.built.map((row) => row.cells[1])).toEqual(expected.map((c) => c.candidate_index));
      expect(table.built.map((row) => row.cells[0])).toEqual(expected.map((_, i) => String(i + 1)));
      const first = expected[0];
      expect(table.built[0].cells[2]).toBe(
        `${first.last_name.toUpperCase()}, ${[first.first_name, first.middle_name].filter(Boolean).join(' ')}`,
      );
      expect(table.built[0].facts).toEqual({
        Name: table.built[0].cells[2],
        'Index number': first.candidate_index,
      });
      // Every box for the examiners is a blank column, and empty: no mark is invented.
      const blanks = table.columns.flatMap((c, i) => (c.blank ? [i] : []));
      expect(blanks.length).toBeGreaterThanOrEqual(4);
      for (const row of table.built) for (const i of blanks) expect(row.cells[i]).toBe('');
      expect(noticesOf(read).join(' ')).toContain(notice);
      expect(read.blocks.some((b) => b.kind === 'signatures')).toBe(true);
      expect(read.text).toContain(`Course header: ${code}`);
      expect(read.count).toBe(expected.length);
      expect(read.document.facts.Candidates).toBe(String(expected.length));
      if (ending === 'research-project' || ending === 'project-study')
        expect(read.text).toContain('Criteria:');
    },
  );
});

// ---------------------------------------------------------------------------------------------------

describe('the zonal leaders’ mark sheet', () => {
  /** The last diet's course header with the most scripts settled by the third marker on Paper I. */
  const withThird = () =>
    one<{ code: string; sheet: number }>(sql`select h.code, s.id as sheet
      from score_sheets s join course_headers h on h.id = s.course_header_id join papers p on p.id = s.paper_id
      where s.diet_id = ${past.id} and p.name = 'Paper I'
      order by (select count(*) from script_marks m where m.sheet_id = s.id and m.marker = 3) desc, h.code limit 1`);

  const rosterOf = (code: string, school?: string) =>
    query<{
      id: number;
      candidate_index: string;
      school: string;
    }>(sql`select c.id, c.candidate_index, s.code as school
      from registrations r join candidates c on c.id = r.candidate_id join course_headers h on h.id = c.course_header_id
      join training_schools s on s.id = c.training_school_id
      where r.diet_id = ${past.id} and r.reg_status = 'registered' and h.code = ${code}
        ${school ? sql`and s.code = ${school}` : sql``}
      order by c.candidate_index`);

  const MARKS = ['Marker one', 'Marker two', 'Difference', 'Beyond tolerance', 'Third marker', 'Agreed mark'];

  it('blank: every registered candidate of the course header, the six marks empty boxes', async () => {
    const { code } = await withThird();
    const read = await build('zonal-leaders-marksheet', {
      diet: past.code,
      courseHeader: code,
      paper: 'Paper I',
      variant: 'blank',
    });
    const roster = await rosterOf(code);
    const [table] = tablesOf(read);
    expect(table.built.map((row) => row.cells[1])).toEqual(roster.map((c) => c.candidate_index));
    for (const label of MARKS) {
      const i = columnOf(table, label);
      expect(table.columns[i].blank).toBe(true);
      for (const row of table.built) expect(row.cells[i]).toBe('');
    }
    expect(Object.keys(table.built[0].facts).sort()).toEqual(['Index number', 'Name']);
    expect(read.text).toContain('Paper: Paper I');
    expect(read.text).toContain('Zonal leader');
    expect(read.count).toBe(roster.length);
  });

  it('filled: each marker’s total, the difference, the third marker’s and the agreed mark, from the raw marks', async () => {
    const { code, sheet } = await withThird();
    const read = await build('zonal-leaders-marksheet', {
      diet: past.code,
      courseHeader: code,
      paper: 'Paper I',
      variant: 'filled',
    });
    const marks = await query<{
      candidate_id: number;
      marker: number;
      absent: boolean;
      total: number | null;
    }>(
      sql`select candidate_id, marker, absent, coalesce(q1,0)+coalesce(q2,0)+coalesce(q3,0)+coalesce(q4,0)+coalesce(q5,0) as total
        from script_marks where sheet_id = ${sheet}`,
    );
    const byCandidate = new Map<number, Record<number, { absent: boolean; total: number }>>();
    for (const m of marks)
      byCandidate.set(m.candidate_id, { ...byCandidate.get(m.candidate_id), [m.marker]: m as never });
    const roster = await rosterOf(code);
    const [table] = tablesOf(read);
    const col = Object.fromEntries(MARKS.map((label) => [label, columnOf(table, label)]));
    let thirds = 0;
    roster.forEach((candidate, i) => {
      const row = table.built[i].cells;
      const got = byCandidate.get(candidate.id)!;
      if (got[1].absent) {
        expect([row[col['Marker one']], row[col['Agreed mark']]]).toEqual(['Absent', 'Absent']);
        return;
      }
      const [t1, t2] = [got[1].total, got[2].total];
      expect(row[col['Marker one']]).toBe(mark(t1));
      expect(row[col['Marker two']]).toBe(mark(t2));
      expect(row[col.Difference]).toBe(mark(Math.abs(t1 - t2)));
      if (got[3]) {
        thirds++;
        const t3 = got[3].total;
        expect(row[col['Beyond tolerance']]).toMatch(/^Yes/);
        expect(row[col['Third marker']]).toBe(mark(t3));
        // The nearer of the first two to the third (equally near: the higher), averaged with it, up.
        const nearer =
          Math.abs(t1 - t3) < Math.abs(t2 - t3)
            ? t1
            : Math.abs(t2 - t3) < Math.abs(t1 - t3)
              ? t2
              : Math.max(t1, t2);
        expect(row[col['Agreed mark']]).toBe(mark(Math.ceil((nearer + t3) / 2)));
      } else {
        expect(row[col['Beyond tolerance']]).toBe('No');
        expect(row[col['Third marker']]).toBe('');
        expect(row[col['Agreed mark']]).toBe(mark(Math.ceil((t1 + t2) / 2)));
      }
      expect(table.built[i].facts).toMatchObject({
        'Index number': candidate.candidate_index,
        'Marker one': mark(t1),
        'Agreed mark': row[col['Agreed mark']],
      });
    });
    expect(thirds).toBeGreaterThan(0);
    expect(noticesOf(read)).toEqual([]);
  });

  it('one school: only its candidates, without a school column', async () => {
    const { code } = await withThird();
    const read = await build('zonal-leaders-marksheet', {
      diet: past.code,
      school: 'SHT-IB',
      courseHeader: code,
      paper: 'Paper I',
      variant: 'filled',
    });
    const [table] = tablesOf(read);
    expect(table.built.map((row) => row.cells[1])).toEqual(
      (await rosterOf(code, 'SHT-IB')).map((c) => c.candidate_index),
    );
    expect(columnOf(table, 'School')).toBe(-1);
  });

  it('keeps blind marking: a sheet only marker one has marked shows no marks, and says why', async () => {
    const marked = await query<{ marker: number }>(sql`select m.marker
      from script_marks m join score_sheets s on s.id = m.sheet_id join course_headers h on h.id = s.course_header_id
      where s.diet_id = ${current.id} and h.code = 'A1'`);
    expect(marked.length).toBeGreaterThan(0);
    const read = await build('zonal-leaders-marksheet', {
      diet: current.code,
      courseHeader: 'A1',
      paper: 'Paper I',
      variant: 'filled',
    });
    const [table] = tablesOf(read);
    expect(table.built.length).toBeGreaterThan(0);
    for (const label of MARKS)
      for (const row of table.built) expect(row.cells[columnOf(table, label)]).toBe('');
    expect(noticesOf(read).join(' ')).toContain('still blind');
    expect(read.document.facts).toMatchObject({ Layout: 'Filled' });
  });
});

// ---------------------------------------------------------------------------------------------------

/** The live published results of a diet, by a grouping column, counted here. */
const publishedBy = (dietId: number, group: 'course_header' | 'school', school?: string) =>
  query<{ code: string; candidates: number; passed: number; failed: number; mean: number | null }>(sql`
    select g.code, count(*)::int as candidates,
      sum(case when r.outcome = 'pass' then 1 else 0 end)::int as passed,
      sum(case when r.outcome = 'fail' then 1 else 0 end)::int as failed,
      avg(r.final_mark)::float8 as mean
    from published_results r
    join result_publications p on p.diet_id = r.diet_id and p.course_header_id = r.course_header_id
    join ${group === 'school' ? sql`training_schools g on g.id = r.training_school_id` : sql`course_headers g on g.id = r.course_header_id`}
    join training_schools s on s.id = r.training_school_id
    where r.diet_id = ${dietId} and p.published_at is not null and p.withdrawn_at is null
      ${school ? sql`and s.code = ${school}` : sql``}
    group by g.code order by g.code`);

describe('passes and failures', () => {
  it('by course header and by school, from the published results; the pass rate over pass and fail', async () => {
    const read = await build('fail-pass-stats', { diet: past.code });
    const [courses, schools] = tablesOf(read);
    const expected = await publishedBy(past.id, 'course_header');
    expect(expected.length).toBeGreaterThan(3);
    expect(courses.built.map((row) => row.key)).toEqual(expected.map((e) => `course-header:${e.code}`));
    for (const [i, e] of expected.entries()) {
      expect(courses.built[i].facts).toEqual({
        Candidates: String(e.candidates),
        Passed: String(e.passed),
        Failed: String(e.failed),
        Other: String(e.candidates - e.passed - e.failed),
        'Pass rate': rate(e.passed, e.passed + e.failed),
      });
    }
    const bySchool = await publishedBy(past.id, 'school');
    expect(schools.built.map((row) => [row.key, row.facts['Pass rate']])).toEqual(
      bySchool.map((e) => [`school:${e.code}`, rate(e.passed, e.passed + e.failed)]),
    );
    const passed = expected.reduce((a, e) => a + e.passed, 0);
    const graded = expected.reduce((a, e) => a + e.passed + e.failed, 0);
    expect(courses.totals).toContain(rate(passed, graded));
    expect(read.document.facts['Pass rate']).toBe(rate(passed, graded));
    expect(read.text).toContain('Only published results are counted');
    expect(chartsOf(read)[0].bars.map((b) => b.label)).toEqual(expected.map((e) => e.code));
  });

  it('one school: its own figures and no table of schools', async () => {
    const read = await build('fail-pass-stats', { diet: past.code, school: 'SHT-IB' });
    const expected = await publishedBy(past.id, 'course_header', 'SHT-IB');
    const tables = tablesOf(read);
    expect(tables).toHaveLength(1);
    expect(tables[0].built.map((row) => [row.key, row.facts.Candidates, row.facts.Passed])).toEqual(
      expected.map((e) => [`course-header:${e.code}`, String(e.candidates), String(e.passed)]),
    );
  });

  it('a diet with nothing published says so, and counts nothing', async () => {
    const read = await build('fail-pass-stats', { diet: current.code });
    expect(tablesOf(read)).toEqual([]);
    expect(noticesOf(read).join(' ')).toContain('No results of this diet are published');
  });

  it('a withdrawn publication is not counted, and the paper names it', async () => {
    const [first] = await publishedBy(past.id, 'course_header');
    await db().execute(sql`update result_publications set withdrawn_at = now(), withdraw_reason = 'test'
      where diet_id = ${past.id} and course_header_id = (select id from course_headers where code = ${first.code})`);
    try {
      const read = await build('fail-pass-stats', { diet: past.code });
      expect(tablesOf(read)[0].built.map((row) => row.key)).not.toContain(`course-header:${first.code}`);
      expect(noticesOf(read).join(' ')).toMatch(
        new RegExp(`results of [^.]*\\b${first.code}\\b[^.]* not published`),
      );
    } finally {
      await db().execute(sql`update result_publications set withdrawn_at = null, withdraw_reason = null
        where diet_id = ${past.id} and course_header_id = (select id from course_headers where code = ${first.code})`);
    }
  });
});

describe('every school’s exam performance', () => {
  it('ranks every school by pass rate, with its candidates and passes, and charts the best', async () => {
    const read = await build('all-schools-exam-perf', { diet: past.code });
    const expected = await publishedBy(past.id, 'school');
    const [table] = tablesOf(read);
    expect(table.built).toHaveLength(expected.length);
    const rates = table.built.map((row) => Number.parseFloat(row.facts['Pass rate']));
    expect(rates).toEqual([...rates].sort((a, b) => b - a));
    expect(table.built[0].facts.Rank).toBe('1');
    for (const e of expected) {
      const row = table.built.find((r) => r.key === `school:${e.code}`)!;
      expect(row.facts).toMatchObject({
        Candidates: String(e.candidates),
        Passed: String(e.passed),
        'Pass rate': rate(e.passed, e.passed + e.failed),
      });
    }
    const [chart] = chartsOf(read);
    expect(chart.bars.map((b) => b.label)).toEqual(
      table.built.slice(0, 10).map((row) => String(row.cells[1]).split(' ')[0]),
    );
    expect(read.text).toContain('Only published results are counted');
  });
});

describe('a school’s performance against the board', () => {
  it('by course header: the school’s and the board’s candidates, passes, pass rates and mean final marks', async () => {
    const read = await build('school-performance', { diet: past.code, school: 'SHT-IB' });
    const own = await publishedBy(past.id, 'course_header', 'SHT-IB');
    const board = new Map((await publishedBy(past.id, 'course_header')).map((e) => [e.code, e]));
    const [courses, paperTable] = tablesOf(read);
    expect(courses.built.map((row) => row.key)).toEqual(own.map((e) => `course-header:${e.code}`));
    for (const [i, e] of own.entries()) {
      const all = board.get(e.code)!;
      expect(courses.built[i].facts).toEqual({
        Candidates: String(e.candidates),
        Passed: String(e.passed),
        'Pass rate': rate(e.passed, e.passed + e.failed),
        'Mean final mark': e.mean === null ? '–' : (e.mean / 10).toFixed(1),
        'Board candidates': String(all.candidates),
        'Board passed': String(all.passed),
        'Board pass rate': rate(all.passed, all.passed + all.failed),
        'Board mean final mark': all.mean === null ? '–' : (all.mean / 10).toFixed(1),
      });
    }
    // By paper: the scripts are the school's published candidates not absent from that paper.
    const { code } = own[0];
    const scripts = await one<{ n: number }>(sql`select count(*)::int as n
      from published_results r join candidates c on c.id = r.candidate_id join training_schools s on s.id = r.training_school_id
      join course_headers h on h.id = r.course_header_id
      join score_sheets sh on sh.diet_id = r.diet_id and sh.course_header_id = r.course_header_id
      join papers p on p.id = sh.paper_id and p.name = 'Paper I'
      join script_marks m on m.sheet_id = sh.id and m.candidate_id = r.candidate_id and m.marker = 1 and not m.absent
      where r.diet_id = ${past.id} and s.code = 'SHT-IB' and h.code = ${code}`);
    const paperRow = paperTable.built.find((row) => row.key === `paper:${code}:Paper I`)!;
    expect(paperRow.facts.Scripts).toBe(String(scripts.n));
    expect(read.text).toContain('Only published results are counted');
    expect(chartsOf(read).length).toBe(2);
  });

  it('a school with nothing published says so', async () => {
    const read = await build('school-performance', { diet: current.code, school: 'SHT-IB' });
    expect(tablesOf(read)).toEqual([]);
    expect(noticesOf(read).join(' ')).toContain('No results of this school at this diet are published');
  });
});

// ---------------------------------------------------------------------------------------------------

describe('result analysis', () => {
  /** The double-marked scripts of a course header's Paper I at the last diet, read raw. */
  const scriptsOf = (code: string) =>
    query<{
      candidate_id: number;
      q: number[];
      q_max: number[];
      one: string;
      two: string;
      m1: number;
      m2: number;
    }>(sql`
      select a.candidate_id, array[a.q1 + b.q1, a.q2 + b.q2, a.q3 + b.q3, a.q4 + b.q4, a.q5 + b.q5] as q, p.q_max,
        s.marker_one_id as m1, s.marker_two_id as m2
      from score_sheets s join papers p on p.id = s.paper_id join course_headers h on h.id = s.course_header_id
      join script_marks a on a.sheet_id = s.id and a.marker = 1 and not a.absent
      join script_marks b on b.sheet_id = s.id and b.marker = 2 and not b.absent and b.candidate_id = a.candidate_id
      where s.diet_id = ${past.id} and h.code = ${code} and p.name = 'Paper I'`);

  it('per question: the mean, the facility and the discrimination, each computed here from the raw marks', async () => {
    const { code } = await one<{ code: string }>(sql`select h.code from course_headers h
      join score_sheets s on s.course_header_id = h.id and s.diet_id = ${past.id}
      join script_marks m on m.sheet_id = s.id and m.marker = 1
      group by h.code order by count(*) desc, h.code limit 1`);
    const read = await build('result-analysis', { diet: past.code, courseHeader: code });
    const raw = await scriptsOf(code);
    expect(raw.length).toBeGreaterThanOrEqual(10);
    const table = tablesOf(read).find((tb) => tb.title?.startsWith('Paper I'))!;
    // Sums of the two markers' marks: half of each is the script's mark on the question.
    const markOf = (s: (typeof raw)[number], q: number) => s.q[q] / 2;
    const totalOf = (s: (typeof raw)[number]) => s.q.reduce((a, b) => a + b, 0) / 2;
    const ranked = [...raw].sort((a, b) => totalOf(b) - totalOf(a) || a.candidate_id - b.candidate_id);
    const group = Math.round(raw.length * 0.27);
    for (let q = 0; q < 5; q++) {
      const max = raw[0].q_max[q];
      const mean = raw.reduce((a, s) => a + markOf(s, q), 0) / raw.length;
      const avg = (list: typeof raw) => list.reduce((a, s) => a + markOf(s, q), 0) / list.length;
      const discrimination = (avg(ranked.slice(0, group)) - avg(ranked.slice(-group))) / max;
      const row = table.built.find((r) => r.key === `Paper I:Q${q + 1}`)!;
      expect(row.facts).toEqual({
        Scripts: String(raw.length),
        Mean: (mean / 10).toFixed(1),
        Facility: (mean / max).toFixed(2),
        Discrimination: discrimination.toFixed(2),
      });
    }
    expect(read.text).toContain('Kelley’s upper-lower index');
    expect(read.text).toContain('top 27%');
    expect(chartsOf(read).find((c) => c.title.startsWith('Paper I'))!.bars).toHaveLength(5);
  });

  it('per marker pair: scripts double-marked, how often they differed and beyond tolerance, the mean and largest difference', async () => {
    const { code } = await one<{ code: string }>(sql`select h.code from course_headers h
      join score_sheets s on s.course_header_id = h.id and s.diet_id = ${past.id}
      join script_marks m on m.sheet_id = s.id and m.marker = 3
      group by h.code order by count(*) desc, h.code limit 1`);
    const read = await build('result-analysis', { diet: past.code, courseHeader: code });
    const pairs = tablesOf(read).find((tb) => tb.title?.startsWith('Marker pairs'))!;
    const counts = await one<{
      scripts: number;
      thirds: number;
      differed: number;
      sum: number;
      largest: number;
      marked: number;
    }>(sql`
      select count(*)::int as scripts,
        sum(case when exists (select 1 from script_marks c where c.sheet_id = s.id and c.candidate_id = a.candidate_id and c.marker = 3) then 1 else 0 end)::int as thirds,
        sum(case when a.absent <> b.absent or (not a.absent and (a.q1, a.q2, a.q3, a.q4, coalesce(a.q5, 0)) is distinct from (b.q1, b.q2, b.q3, b.q4, coalesce(b.q5, 0))) then 1 else 0 end)::int as differed,
        coalesce(sum(case when a.absent then 0 else abs(a.total_score - b.total_score) end), 0)::int as sum,
        coalesce(max(case when a.absent then null else abs(a.total_score - b.total_score) end), 0)::int as largest,
        sum(case when a.absent then 0 else 1 end)::int as marked
      from score_sheets s join course_headers h on h.id = s.course_header_id
      join script_marks a on a.sheet_id = s.id and a.marker = 1
      join script_marks b on b.sheet_id = s.id and b.marker = 2 and b.candidate_id = a.candidate_id
      where s.diet_id = ${past.id} and h.code = ${code} and s.kind = 'exam'`);
    expect(counts.thirds).toBeGreaterThan(0);
    expect(pairs.built).toHaveLength(1);
    expect(pairs.built[0].facts).toMatchObject({
      'Marker one': 'Chinedu Eze',
      'Marker two': 'Funmilayo Adebayo',
      Sheets: '2',
      'Scripts double-marked': String(counts.scripts),
      'Differed at all': `${counts.differed} (${rate(counts.differed, counts.scripts)})`,
      'Beyond tolerance': `${counts.thirds} (${rate(counts.thirds, counts.scripts)})`,
      'Mean difference': (counts.sum / counts.marked / 10).toFixed(1),
      'Largest difference': mark(counts.largest),
    });
  });

  it('one paper chosen: that paper alone, its questions counted', async () => {
    const read = await build('result-analysis', { diet: past.code, courseHeader: 'A1', paper: 'Paper II' });
    const titles = tablesOf(read).map((table) => table.title);
    expect(titles).toEqual(['Paper II: by question', 'Marker pairs: marker one and marker two of a sheet']);
    // Paper II has four questions (q5 is worth nothing).
    expect(tablesOf(read)[0].built.map((row) => row.cells[0])).toEqual(['Q1', 'Q2', 'Q3', 'Q4']);
    expect(read.count).toBe(4);
    expect(tablesOf(read)[1].built[0].facts.Sheets).toBe('1');
  });

  it('the current diet: its blind sheets are not read, and its results are not published', async () => {
    const read = await build('result-analysis', { diet: current.code, courseHeader: 'A1' });
    const notices = noticesOf(read).join(' ');
    expect(notices).toContain('not published');
    expect(notices).toContain('still blind');
    expect(tablesOf(read)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('the research project sheet of course header AA2', () => {
  it('says the board has no course header AA2 while it has none', async () => {
    const read = await build('research-project-aa2', { diet: past.code, school: 'SHT-IB' });
    expect(noticesOf(read).join(' ')).toContain('no course header AA2');
    expect(tablesOf(read)).toEqual([]);
    expect(read.count).toBe(0);
  });

  it('lists AA2’s registered candidates once the board has the course header', async () => {
    // The last test of the file: it moves one of SHT-IB's registered candidates into a new AA2.
    await db().execute(
      sql`insert into course_headers (code, title) values ('AA2', 'Research course (test)')`,
    );
    const moved = await one<{ id: number; candidate_index: string }>(sql`select c.id, c.candidate_index
      from registrations r join candidates c on c.id = r.candidate_id join training_schools s on s.id = c.training_school_id
      where r.diet_id = ${past.id} and r.reg_status = 'registered' and s.code = 'SHT-IB' order by c.candidate_index limit 1`);
    await db()
      .execute(sql`update candidates set course_header_id = (select id from course_headers where code = 'AA2')
      where id = ${moved.id}`);
    const read = await build('research-project-aa2', { diet: past.code, school: 'SHT-IB' });
    const [table] = tablesOf(read);
    expect(table.built.map((row) => row.cells[1])).toEqual([moved.candidate_index]);
    expect(read.text).toContain('Course header: AA2 Research course (test)');
    expect(noticesOf(read).join(' ')).toContain('holds no project marks');
  });
});
