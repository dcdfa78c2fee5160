import { META_ENDPOINTS } from '../../contract/meta.endpoints';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTS } from '../../contract/lists';
import { GRIDS, QUESTIONS, SCORE_MESSAGES as M, formatMark, parseMark } from '../../contract/scores';
import { SCORE_ENDPOINTS } from '../../contract/scores.endpoints';
import { issueToken } from '../../server/auth/tokens';
import { ACCESS_MATRIX, type AccessRule } from '../../server/access';
import { scoreSheets } from '../../server/db/schema';
import {
  addUser,
  candidateIndexOf,
  currentDietOf,
  seedCandidates,
  userIdOf,
  writeRegStatus,
} from './fixtures';
import { startTestPortal, type ApiResponse, type TestPortal } from './portal';

/**
 * Blind double marking, tried as an attacker would (server/scores/blind.ts is the one guard). Marker
 * two's grid holds marks found nowhere else; every route the portal serves (the access matrix, so a
 * new route cannot escape) is called by each marker, the third marker, an uninvolved board
 * administrator and a school administrator: while both markers have not submitted, no answer carries
 * the other marker's marks, nor anything made by comparing the two grids (a flag, a waiting count, an
 * agreed mark, a computed result). Once both have submitted, the board reads both. Then the rule of
 * who may be the third marker, and when (contract `thirdMarkerRefusal`).
 */

/** A walk is some hundreds of requests per caller: seconds alone, longer on a busy machine. */
const WALK_MS = 300_000;

type Caller = 'one' | 'two' | 'three' | 'board' | 'school';
const CALLERS: readonly Caller[] = ['one', 'two', 'three', 'board', 'school'];

let t: TestPortal;
const db = () => t.portal.database.db;
const tokens = {} as Record<Caller, string>;
const ids = {} as Record<Caller, number>;
let dietCode: string;
let cand: number[] = [];
let indexes: string[] = [];
let sheet: number;
let paperId: number;
let inCourse: number;

// Marker one's and marker two's marks for four candidates (null: absent). Chosen so that no mark of
// one grid is a mark of the other: c0 and c2 agree, c1 is a question apart, c3 absent for one only.
const ONE: (string[] | null)[] = [
  ['10.1', '10.2', '10.4', '10.6', '10.8'],
  ['11.1', '11.2', '11.4', '11.6', '11.8'],
  ['12.1', '12.2', '12.4', '12.6', '12.8'],
  null,
];
const TWO: (string[] | null)[] = [
  ['10.3', '10.7', '10.9', '11.3', '11.7'],
  ['17.3', '16.9', '18.3', '15.7', '14.9'],
  ['12.3', '12.7', '12.9', '13.3', '13.7'],
  ['9.3', '9.7', '8.9', '9.1', '9.9'],
];

const tenths = (marks: string[]) => marks.map((m) => parseMark(m)!);
const totalText = (marks: string[]) => formatMark(tenths(marks).reduce((a, b) => a + b, 0));
/** What a grid's marks look like wherever they might leave the server: as text, totals, tenths arrays. */
function tracesOf(grid: (string[] | null)[]): string[] {
  return grid.flatMap((marks) =>
    marks ? [...marks.map((m) => `"${m}"`), `"${totalText(marks)}"`, tenths(marks).join(',')] : [],
  );
}
/** The agreed marks of c0 and c2 (the mean of the two totals, a half tenth up): agreement itself. */
function agreedTraces(): string[] {
  return [0, 2].map((i) => {
    const sum = [ONE[i]!, TWO[i]!].map((m) => tenths(m).reduce((a, b) => a + b, 0));
    return `"${formatMark(Math.ceil((sum[0] + sum[1]) / 2))}"`;
  });
}

const markBody = (marks: string[] | null, version: number, extra: Record<string, unknown> = {}) => ({
  ...(marks ? Object.fromEntries(QUESTIONS.map((q, i) => [q, marks[i]])) : { absent: true }),
  version,
  ...extra,
});
const rowPath = (grid: string, candidate: number) =>
  `/api/admin/score/sheets/${sheet}/grids/${grid}/rows/${candidate}`;

beforeAll(async () => {
  t = await startTestPortal();
  ids.board = await userIdOf(t, 'admin@example.org');
  ids.school = await userIdOf(t, 'school1@example.org');
  for (const who of ['one', 'two', 'three'] as const) {
    ids[who] = await addUser(t, { email: `blind-${who}@example.org`, name: `Blind ${who}`, role: 'admin' });
  }
  for (const who of CALLERS) tokens[who] = (await issueToken(db(), ids[who], 120)).token;
  dietCode = (await currentDietOf(t)).code;
  cand = await seedCandidates(
    t,
    ONE.map((_, i) => ({
      first_name: 'Blind',
      last_name: `Script${i}`,
      school: 'SHT-IB',
      course_header: 'B1',
      verified: true,
    })),
  );
  for (const id of cand) await writeRegStatus(t, id, 'registered');
  indexes = await Promise.all(cand.map((id) => candidateIndexOf(t, id)));

  const paper = await post('board', SCORE_ENDPOINTS.createPaper.path, {
    course_header: 'B1',
    name: 'Paper I',
    ...Object.fromEntries(QUESTIONS.map((q) => [`${q}_max`, '20'])),
    tolerance_question: '2',
    tolerance_total: '5',
  });
  expect(paper.status, JSON.stringify(paper.body)).toBe(200);
  paperId = paper.body.data.id;
  const made = await post('board', SCORE_ENDPOINTS.createSheet.path, {
    kind: 'exam',
    diet: dietCode,
    course_header: 'B1',
    paper_id: paperId,
    marker_one: ids.one,
    marker_two: ids.two,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  sheet = made.body.data.id;
  const inCourseSheet = await post('board', SCORE_ENDPOINTS.createSheet.path, {
    kind: 'in_course',
    diet: dietCode,
    course_header: 'B1',
    marker_one: ids.board,
  });
  inCourse = inCourseSheet.body.data.id;

  // Both markers enter every script; neither submits yet.
  for (const [i, id] of cand.entries()) {
    expect((await post('one', rowPath('one', id), markBody(ONE[i], 0))).status).toBe(200);
    expect((await post('two', rowPath('two', id), markBody(TWO[i], 0))).status).toBe(200);
  }
});

afterAll(async () => {
  await t?.close();
});

function post(who: Caller, path: string, json: unknown) {
  return t.request('POST', path, { token: tokens[who], json });
}

// ---------------------------------------------------------------------------------------------------
// Every route, as each caller.

const isScoreRoute = (rule: AccessRule) => /\/score\/|\/results(\/|$)/.test(rule.path);
const LIST_PATHS = new Set(LISTS.map((list) => list.path));

interface Call {
  method: 'GET' | 'POST';
  path: string;
  json?: unknown;
  form?: FormData;
}

function csvForm(grid: string, dryRun: boolean) {
  const header =
    grid === 'in-course' ? 'candidate_index,first_semester_score' : 'candidate_index,q1,q2,q3,q4,q5';
  const rows = dryRun ? indexes.map((index) => `${index},1,1,1,1,1`) : ['NOT/A/CANDIDATE,1,1,1,1,1'];
  const form = new FormData();
  form.append('csv', new File([[header, ...rows].join('\n')], 'marks.csv', { type: 'text/csv' }));
  form.append('dry_run', dryRun ? '1' : '0');
  form.append('reason', 'Trying');
  return form;
}

/** An address for a rule: its `:params` filled with this test's sheet, paper and candidate. */
function addresses(rule: AccessRule): string[] {
  const filled = rule.path
    .replace(':code', 'B1')
    .replace(':candidate', String(cand[1]))
    .replace(':reference', 'REF-1')
    .replace(/:id/, rule.path.includes('/papers/') ? String(paperId) : String(sheet));
  const each = filled.includes(':grid') ? GRIDS.map((grid) => filled.replace(':grid', grid)) : [filled];
  return each.flatMap((path) => {
    if (LIST_PATHS.has(rule.path)) return [path, `${path}?format=csv`];
    if (rule.path === SCORE_ENDPOINTS.sheets.path || rule.path === SCORE_ENDPOINTS.publications.path)
      return [path, `${path}?diet=${dietCode}`];
    return [path];
  });
}

const pair = () => ({ diet: dietCode, course_header: 'B1' });

/**
 * The calls an attacker makes on each changing score and results route: bodies that reach the handler
 * (a stale version that would answer with the stored row, a CSV of the other's grid, a computation of
 * results). Every such route must be here: a new one fails the test until its attack is written.
 * A marker's own submission is the scenario's (not an attack), so it is left to them.
 */
const ATTACKS: Record<string, (who: Caller) => Call[]> = {
  [`POST ${SCORE_ENDPOINTS.rules.path}`]: () => [
    { method: 'POST', path: '/api/admin/score/course-headers/B1/rules', json: {} },
  ],
  [`POST ${SCORE_ENDPOINTS.createPaper.path}`]: () => [
    { method: 'POST', path: SCORE_ENDPOINTS.createPaper.path, json: {} },
  ],
  ['POST /api/admin/score/papers/:id']: () => [
    { method: 'POST', path: `/api/admin/score/papers/${paperId}`, json: {} },
  ],
  ['POST /api/admin/score/papers/:id/delete']: () => [
    { method: 'POST', path: `/api/admin/score/papers/${paperId}/delete`, json: {} },
  ],
  [`POST ${SCORE_ENDPOINTS.createSheet.path}`]: () => [
    { method: 'POST', path: SCORE_ENDPOINTS.createSheet.path, json: {} },
  ],
  [`POST ${SCORE_ENDPOINTS.markerThree.path}`]: () => [
    {
      method: 'POST',
      path: `/api/admin/score/sheets/${sheet}/marker-three`,
      json: { marker_three: ids.one },
    },
  ],
  [`POST ${SCORE_ENDPOINTS.lock.path}`]: () => [
    { method: 'POST', path: `/api/admin/score/sheets/${sheet}/lock`, json: {} },
  ],
  [`POST ${SCORE_ENDPOINTS.unlock.path}`]: () => [
    { method: 'POST', path: `/api/admin/score/sheets/${sheet}/unlock`, json: { reason: 'Trying' } },
  ],
  // One route takes the rows of grids one, two and three (`:grid{one|two|three}`): each is attacked.
  [`POST ${SCORE_ENDPOINTS.markRow.path}`]: () =>
    (['one', 'two', 'three'] as const).flatMap((grid) =>
      cand.map((id, i) => ({
        method: 'POST' as const,
        path: rowPath(grid, id),
        json: markBody(ONE[i] ?? ['1', '1', '1', '1', '1'], 999, { reason: 'Trying' }),
      })),
    ),
  [`POST ${SCORE_ENDPOINTS.inCourseRow.path}`]: () => [
    {
      method: 'POST',
      path: rowPath('in-course', cand[0]),
      json: { first_semester_score: '1', version: 999 },
    },
  ],
  [`POST ${SCORE_ENDPOINTS.submit.path}`]: (who: Caller) =>
    (['one', 'two'] as const)
      .filter((grid) => who !== grid)
      .map((grid) => ({
        method: 'POST' as const,
        path: `/api/admin/score/sheets/${sheet}/grids/${grid}/submit`,
      })),
  [`POST ${SCORE_ENDPOINTS.importMarks.path}`]: () =>
    GRIDS.flatMap((grid) =>
      [true, false].map((dryRun) => ({
        method: 'POST' as const,
        path: `/api/admin/score/sheets/${sheet}/grids/${grid}/import`,
        form: csvForm(grid, dryRun),
      })),
    ),
  [`POST ${SCORE_ENDPOINTS.compute.path}`]: () => [
    { method: 'POST', path: SCORE_ENDPOINTS.compute.path, json: pair() },
  ],
  [`POST ${SCORE_ENDPOINTS.publish.path}`]: () => [
    { method: 'POST', path: SCORE_ENDPOINTS.publish.path, json: pair() },
  ],
  [`POST ${SCORE_ENDPOINTS.withdraw.path}`]: () => [
    { method: 'POST', path: SCORE_ENDPOINTS.withdraw.path, json: pair() },
  ],
  [`POST ${SCORE_ENDPOINTS.hold.path}`]: () => [
    {
      method: 'POST',
      path: SCORE_ENDPOINTS.hold.path,
      json: { diet: dietCode, candidate_index: 'NOPE', reason: 'x' },
    },
  ],
  ['POST /api/admin/results/holds/:id/release']: () => [
    { method: 'POST', path: '/api/admin/results/holds/999999/release', json: {} },
  ],
};

/** Every call of a walk: each changing score route's attacks first (compute among them), then every GET. */
function walk(who: Caller): Call[] {
  const changes = ACCESS_MATRIX.filter((rule) => rule.method !== 'GET' && isScoreRoute(rule)).flatMap(
    (rule) => ATTACKS[`${rule.method} ${rule.path}`](who),
  );
  // Every read but the API's description: a document built with the server, the same for everyone,
  // whose schemas name the fields a reconciliation row has (and so look like one to agreementIn).
  const reads = ACCESS_MATRIX.filter(
    (rule) => rule.method === 'GET' && rule.path !== META_ENDPOINTS.openApi.path,
  ).flatMap((rule) => addresses(rule).map((path): Call => ({ method: 'GET', path })));
  return [...changes, ...reads];
}

interface Answer {
  call: Call;
  response: ApiResponse;
  text: string;
}

async function answers(who: Caller): Promise<Answer[]> {
  const out: Answer[] = [];
  for (const call of walk(who)) {
    const response = await t.request(call.method, call.path, {
      token: tokens[who],
      ...(call.form ? { form: call.form } : call.method === 'POST' ? { json: call.json ?? {} } : {}),
    });
    const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
    out.push({ call, response, text });
  }
  return out;
}

/** Anything in an answer made by comparing the two grids: a waiting count, a flag, a reconciled row, a result. */
function agreementIn(value: unknown): string | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = agreementIn(item);
      if (found) return found;
    }
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const row = value as Record<string, unknown>;
  if (typeof row.flagged === 'number' && row.flagged !== 0) return `flagged ${row.flagged}`;
  if ('why' in row && 'candidate_id' in row) return 'a reconciliation row';
  if (cand.includes(row.candidate_id as number) && 'outcome' in row && row.outcome !== 'incomplete')
    return `a result: ${JSON.stringify(row)}`;
  if (cand.includes(row.candidate_id as number) && (row.exam_mark || row.final_mark))
    return `a mark in a result: ${JSON.stringify(row)}`;
  for (const inner of Object.values(row)) {
    const found = agreementIn(inner);
    if (found) return found;
  }
  return null;
}

/** A CSV's cells, or a JSON answer's text, checked for one trace (a CSV carries marks bare). */
function carries(answer: Answer, trace: string): boolean {
  if (answer.text.includes(trace)) return true;
  if (typeof answer.response.body !== 'string' || !trace.startsWith('"')) return false;
  const bare = trace.slice(1, -1).replace('.', '\\.');
  return new RegExp(`(^|[,\\s"])${bare}($|[,\\s"])`, 'm').test(answer.response.body);
}

function expectBlind(who: Caller, all: Answer[]) {
  const hidden = [
    ...(who === 'one' ? [] : tracesOf(ONE)),
    ...(who === 'two' ? [] : tracesOf(TWO)),
    ...agreedTraces(),
  ];
  for (const answer of all) {
    const where = `${who}: ${answer.call.method} ${answer.call.path} → ${answer.response.status}`;
    expect(answer.response.status, `${where} ${answer.text}`).toBeLessThan(500);
    for (const trace of hidden) expect(carries(answer, trace), `${where} carries ${trace}`).toBe(false);
    const json = typeof answer.response.body === 'string' ? null : answer.response.body;
    expect(agreementIn(json), `${where}: ${answer.text.slice(0, 400)}`).toBeNull();
  }
}

const gridAnswer = (all: Answer[], grid: string) =>
  all.find(
    (a) => a.call.method === 'GET' && a.call.path === `/api/admin/score/sheets/${sheet}/grids/${grid}`,
  )!;

describe('the walk', () => {
  it('has an attack for every changing score and results route, and reads every GET route', () => {
    const changing = ACCESS_MATRIX.filter((rule) => rule.method !== 'GET' && isScoreRoute(rule));
    expect(changing.length).toBeGreaterThan(15);
    for (const rule of changing) expect(ATTACKS[`${rule.method} ${rule.path}`], rule.path).toBeDefined();
    expect(Object.keys(ATTACKS).length).toBe(changing.length);
    const reads = walk('board').filter((call) => call.method === 'GET');
    expect(reads.length).toBeGreaterThanOrEqual(ACCESS_MATRIX.filter((r) => r.method === 'GET').length);
    // The traces really differ: no mark of one grid is a mark of the other, nor an agreed mark.
    const one = new Set(tracesOf(ONE));
    for (const trace of [...tracesOf(TWO), ...agreedTraces()]) expect(one.has(trace), trace).toBe(false);
  });
});

describe('before both markers have submitted', () => {
  it('a named third marker changes nothing: no third grid, no flags (named early here, as old data might be)', async () => {
    await db().update(scoreSheets).set({ markerThreeId: ids.three }).where(eq(scoreSheets.id, sheet));
    const grid = await t.request('GET', `/api/admin/score/sheets/${sheet}/grids/three`, {
      token: tokens.three,
    });
    expect(grid.status).toBe(403);
    expect(grid.body.message).toBe(M.thirdGridBlind);
  });

  it(
    'while both are open, nobody learns the other marker’s marks or whether the two agree, by any route',
    async () => {
      for (const who of CALLERS) {
        const all = await answers(who);
        expectBlind(who, all);
        if (who === 'one' || who === 'two') {
          // The search can find what is there: each marker reads their own grid, and only it.
          const own = gridAnswer(all, who);
          expect(own.response.status).toBe(200);
          for (const trace of tracesOf(who === 'one' ? ONE : TWO).filter((tr) => tr.startsWith('"')))
            expect(own.text).toContain(trace);
        }
        if (who === 'three' || who === 'board') {
          for (const grid of ['one', 'two', 'three']) expect(gridAnswer(all, grid).response.status).toBe(403);
        }
      }
    },
    WALK_MS,
  );

  it(
    'once marker two has submitted, marker one still learns nothing of grid two (nor the others of either)',
    async () => {
      const submitted = await post('two', `/api/admin/score/sheets/${sheet}/grids/two/submit`, {});
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      expect(submitted.body.data).toMatchObject({ state: 'marker_two_submitted', flagged: 0 });
      // Marker one keeps marking (a change, then back), and their answers still say nothing of grid two.
      const version = (
        await t.request('GET', `/api/admin/score/sheets/${sheet}/grids/one`, { token: tokens.one })
      ).body.data.rows[0].version;
      const change = await post(
        'one',
        rowPath('one', cand[0]),
        markBody(['9.5', ...ONE[0]!.slice(1)], version),
      );
      expect(change.status).toBe(200);
      expect(JSON.stringify(change.body)).not.toContain('"10.3"');
      expect((await post('one', rowPath('one', cand[0]), markBody(ONE[0], version + 1))).status).toBe(200);
      for (const who of CALLERS) expectBlind(who, await answers(who));
    },
    WALK_MS,
  );

  it('a third marker is not named yet, whoever is proposed', async () => {
    await db().update(scoreSheets).set({ markerThreeId: null }).where(eq(scoreSheets.id, sheet));
    for (const person of [ids.three, ids.one, ids.school]) {
      const early = await post('board', `/api/admin/score/sheets/${sheet}/marker-three`, {
        marker_three: person,
      });
      expect(early.status).toBe(409);
      expect(early.body.message).toBe(M.markerThreeNotYet);
    }
  });
});

describe('after both markers have submitted', () => {
  it(
    'the board reads both grids, the agreement and the results; a school admin reads none of it',
    async () => {
      const submitted = await post('one', `/api/admin/score/sheets/${sheet}/grids/one/submit`, {});
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      expect(submitted.body.data).toMatchObject({ state: 'reconciling', flagged: 2 });
      expect((await post('board', SCORE_ENDPOINTS.compute.path, pair())).status).toBe(200);
      const shown = [...tracesOf(ONE), ...tracesOf(TWO)].filter((trace) => trace.startsWith('"'));
      for (const who of ['one', 'two', 'three', 'board'] as const) {
        const all = await answers(who);
        for (const grid of ['one', 'two'])
          expect(gridAnswer(all, grid).response.status, `${who} reads grid ${grid}`).toBe(200);
        const seen = all.map((a) => a.text).join('\n');
        for (const trace of shown) expect(seen, `${who} sees ${trace}`).toContain(trace);
        const view = all.find((a) => a.call.path.endsWith('/reconciliation'))!;
        expect(view.response.body.data.map((r: { candidate_id: number }) => r.candidate_id).sort()).toEqual(
          [cand[1], cand[3]].sort(),
        );
        // Agreed scripts are computed: c0's mean of the two totals is its exam mark.
        const results = all.find((a) => a.call.path === SCORE_ENDPOINTS.results.admin.path)!;
        const c0 = results.response.body.data.items.find(
          (r: { candidate_id: number }) => r.candidate_id === cand[0],
        );
        expect(`"${c0.exam_mark}"`).toBe(agreedTraces()[0]);
      }
      // A school admin: every score route is the board's, and nothing is published.
      const school = await answers('school');
      for (const trace of [...tracesOf(ONE), ...tracesOf(TWO), ...agreedTraces()])
        for (const answer of school)
          expect(carries(answer, trace), `${answer.call.path} ${trace}`).toBe(false);
    },
    WALK_MS,
  );
});

describe('who may be the third marker', () => {
  const name = (person: number, id = sheet) =>
    post('board', `/api/admin/score/sheets/${id}/marker-three`, { marker_three: person });

  it('neither marker, and a board administrator: refused in words beside the field', async () => {
    for (const marker of [ids.one, ids.two]) {
      const same = await name(marker);
      expect(same.status).toBe(422);
      expect(same.body.message.marker_three).toEqual([M.markerThreeSame]);
    }
    const school = await name(ids.school);
    expect(school.status).toBe(422);
    expect(school.body.message.marker_three).toEqual([M.markerUnknown]);
    const named = await name(ids.three);
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    expect(named.body.data.marker_three).toEqual({ id: ids.three, name: 'Blind three' });
    const grid = await t.request('GET', `/api/admin/score/sheets/${sheet}/grids/three`, {
      token: tokens.three,
    });
    expect(grid.body.data.rows.map((r: { candidate_id: number }) => r.candidate_id).sort()).toEqual(
      [cand[1], cand[3]].sort(),
    );
  });

  it('only while scripts wait for a third mark, and never on an in-course sheet', async () => {
    // The third marker decides both flagged scripts: nothing waits, so nobody else is named now.
    for (const [i, id] of [cand[1], cand[3]].entries()) {
      const saved = await t.request('POST', rowPath('three', id), {
        token: tokens.three,
        json: markBody(i === 0 ? ['14', '14', '14', '14', '14'] : null, 0),
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    }
    expect(
      (await t.request('GET', `/api/admin/score/sheets/${sheet}`, { token: tokens.board })).body.data.flagged,
    ).toBe(0);
    const late = await name(ids.board);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(M.markerThreeNotYet);
    const clerk = await name(ids.three, inCourse);
    expect(clerk.status).toBe(409);
    expect(clerk.body.message).toBe(M.markerThreeExamOnly);
    expect((await post('board', `/api/admin/score/sheets/${sheet}/lock`, {})).status).toBe(200);
    const locked = await name(ids.board);
    expect(locked.status).toBe(409);
    expect(locked.body.message).toBe(M.sheetLocked);
  });
});
