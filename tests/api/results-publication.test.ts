import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCORE_MESSAGES as M, type PublicationPreview } from '../../contract/scores';
import { SCORE_ENDPOINTS } from '../../contract/scores.endpoints';
import { issueToken } from '../../server/auth/tokens';
import { auditLog, publishedResults, scoreSheets } from '../../server/db/schema';
import {
  addUser,
  candidateIndexOf,
  currentDietOf,
  seedCandidates,
  userIdOf,
  writeRegStatus,
} from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Issue 22, publication: what a school reads is the snapshot taken at publishing, unchanged by result
 * rules, holds, recomputing or marks until the board withdraws it (with a reason, audited) and publishes
 * again (the preview says what changes first); publishing is refused, in a sentence naming what is
 * missing, until every paper has a locked sheet for every registered candidate (and in-course scores
 * when they weigh); two sheets never cover one candidate's paper, not even when created at once.
 */

let t: TestPortal;
const db = () => t.portal.database.db;
const tokens = {} as Record<'admin' | 'one' | 'two' | 'school1' | 'school2', string>;
const ids = {} as Record<'one' | 'two', number>;
let dietCode: string;
let ib: number[] = [];
let ca: number[] = [];
const paper = {} as Record<'I' | 'II', number>;
const sheets = {} as Record<'I_IB' | 'I_CA' | 'II_ALL' | 'IN_COURSE', number>;

const as = (who: keyof typeof tokens) => ({ token: tokens[who] });
const post = (who: keyof typeof tokens, path: string, json: unknown) =>
  t.request('POST', path, { ...as(who), json });
const get = (who: keyof typeof tokens, path: string) => t.request('GET', path, as(who));
const pair = () => ({ diet: dietCode, course_header: 'B1' });
const preview = async (): Promise<PublicationPreview> => {
  const answer = await get('admin', `${SCORE_ENDPOINTS.preview.path}?diet=${dietCode}&course_header=B1`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
};
const schoolRows = async (who: 'school1' | 'school2') => {
  const answer = await get(who, `${SCORE_ENDPOINTS.results.school_admin.path}?diet=${dietCode}`);
  expect(answer.status).toBe(200);
  return answer.body.data.items as Record<string, unknown>[];
};

const createPaper = async (name: string) => {
  const answer = await post('admin', SCORE_ENDPOINTS.createPaper.path, {
    course_header: 'B1',
    name,
    q1_max: '50',
    q2_max: '50',
    q3_max: '0',
    q4_max: '0',
    q5_max: '0',
    tolerance_question: '5',
    tolerance_total: '5',
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.id as number;
};
const createSheet = (paperId: number | null, school?: string) =>
  post('admin', SCORE_ENDPOINTS.createSheet.path, {
    kind: paperId === null ? 'in_course' : 'exam',
    diet: dietCode,
    course_header: 'B1',
    ...(paperId !== null && { paper_id: paperId, marker_two: ids.two }),
    ...(school && { school }),
    marker_one: ids.one,
  });

/** Both markers give each candidate of the sheet the same marks (so they agree), submit, and it locks. */
async function markAndLock(sheet: number, people: number[], mark: (id: number) => string) {
  for (const [who, grid] of [
    ['one', 'one'],
    ['two', 'two'],
  ] as const) {
    for (const id of people) {
      const answer = await post(who, `/api/admin/score/sheets/${sheet}/grids/${grid}/rows/${id}`, {
        q1: mark(id),
        q2: mark(id),
        q3: '',
        q4: '',
        q5: '',
        version: 0,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    expect((await post(who, `/api/admin/score/sheets/${sheet}/grids/${grid}/submit`, {})).status).toBe(200);
  }
  const lock = await post('admin', `/api/admin/score/sheets/${sheet}/lock`, {});
  expect(lock.status, JSON.stringify(lock.body)).toBe(200);
}

beforeAll(async () => {
  t = await startTestPortal();
  tokens.admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
  tokens.school1 = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
  tokens.school2 = (await issueToken(db(), await userIdOf(t, 'school2@example.org'), 60)).token;
  for (const who of ['one', 'two'] as const) {
    ids[who] = await addUser(t, { email: `marker-${who}@example.org`, name: `Marker ${who}`, role: 'admin' });
    tokens[who] = (await issueToken(db(), ids[who], 60)).token;
  }
  dietCode = (await currentDietOf(t)).code;
  const seed = (school: string, n: number) =>
    seedCandidates(
      t,
      Array.from({ length: n }, (_, i) => ({
        first_name: 'Published',
        last_name: `${school.slice(-2)}${i}`,
        school,
        course_header: 'B1',
        verified: true,
      })),
    );
  ib = await seed('SHT-IB', 3);
  ca = await seed('CHT-CA', 2);
  for (const id of [...ib, ...ca]) await writeRegStatus(t, id, 'registered');
  paper.I = await createPaper('Paper I');
  paper.II = await createPaper('Paper II');
});

afterAll(async () => {
  await t?.close();
});

describe('publishing is complete or it does not happen', () => {
  it('is refused in a sentence naming the papers, schools and in-course scores missing', async () => {
    const first = await createSheet(paper.I, 'SHT-IB');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    sheets.I_IB = first.body.data.id;
    const expected = M.publishIncomplete('B1', [
      M.paperNoSheet('Paper I', 2, 'CHT-CA'),
      M.paperNotLocked('Paper I', 3, 'SHT-IB'),
      M.paperNoSheet('Paper II', 2, 'CHT-CA'),
      M.paperNoSheet('Paper II', 3, 'SHT-IB'),
      M.inCourseMissing(5),
    ]);
    expect(expected).toBe(
      'B1 cannot be published yet: Paper I has no sheet for 2 candidates at CHT-CA; Paper I is not locked for 3 candidates at SHT-IB; Paper II has no sheet for 2 candidates at CHT-CA; Paper II has no sheet for 3 candidates at SHT-IB; in-course scores are missing for 5 candidates.',
    );
    const refused = await post('admin', SCORE_ENDPOINTS.publish.path, pair());
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(expected);
    expect((await preview()).missing).toBe(expected);
    // Nothing was published: no publication, no snapshot, the school reads nothing.
    expect(await db().select().from(publishedResults)).toHaveLength(0);
    expect(await schoolRows('school1')).toHaveLength(0);
  });

  it('says what publishing will do once every paper is locked for everyone, with in-course scores', async () => {
    const ca1 = await createSheet(paper.I, 'CHT-CA');
    const all2 = await createSheet(paper.II);
    const inCourse = await createSheet(null);
    for (const answer of [ca1, all2, inCourse]) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    [sheets.I_CA, sheets.II_ALL, sheets.IN_COURSE] = [
      ca1.body.data.id,
      all2.body.data.id,
      inCourse.body.data.id,
    ];
    await markAndLock(sheets.I_IB, ib, () => '30');
    await markAndLock(sheets.I_CA, ca, () => '40');
    await markAndLock(sheets.II_ALL, [...ib, ...ca], () => '35');
    const stillMissing = await preview();
    expect(stillMissing.missing).toBe(M.publishIncomplete('B1', [M.inCourseMissing(5)]));
    for (const id of [...ib, ...ca]) {
      const answer = await post(
        'one',
        `/api/admin/score/sheets/${sheets.IN_COURSE}/grids/in-course/rows/${id}`,
        {
          first_semester_score: '60',
          second_semester_score: '80',
          version: 0,
        },
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    expect((await post('admin', `/api/admin/score/sheets/${sheets.IN_COURSE}/lock`, {})).status).toBe(200);

    const ready = await preview();
    expect(ready).toMatchObject({
      candidates: 5,
      schools: 2,
      missing: null,
      changes: null,
      published_at: null,
    });
    const published = await post('admin', SCORE_ENDPOINTS.publish.path, pair());
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body.data).toMatchObject({ published_results: 5, withdrawn_at: null });
    expect(await schoolRows('school1')).toHaveLength(3);
    expect(await schoolRows('school2')).toHaveLength(2);
    // A live publication is not published over: it changes only by withdrawal.
    const again = await post('admin', SCORE_ENDPOINTS.publish.path, pair());
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(M.alreadyPublished);
  });
});

describe('published results change only by withdrawal', () => {
  let before: Record<string, unknown>[];
  let beforeCsv: string;
  const csv = async () => {
    const response = await fetch(
      `${t.url}${SCORE_ENDPOINTS.results.school_admin.path}?diet=${dietCode}&format=csv`,
      {
        headers: { authorization: `Bearer ${tokens.school1}` },
      },
    );
    expect(response.status).toBe(200);
    return response.text();
  };

  it('keeps what a school reads (list and CSV) through rule changes, holds, recomputing and refused mark changes', async () => {
    before = await schoolRows('school1');
    beforeCsv = await csv();
    // ib: Paper I 60/100 and Paper II 70/100 → exam 65; in-course 70; 0.7 × 65 + 0.3 × 70 = 66.5: B.
    expect(before[0]).toMatchObject({
      exam_mark: '65',
      in_course_mark: '70',
      final_mark: '66.5',
      grade: 'B',
    });

    const rules = await post('admin', '/api/admin/score/course-headers/B1/rules', {
      in_course_weight: '50',
      pass_mark: '70',
      grade_bands: 'A 80, B 70, C 60, F 0',
    });
    expect(rules.status, JSON.stringify(rules.body)).toBe(200);
    const held = await post('admin', SCORE_ENDPOINTS.hold.path, {
      diet: dietCode,
      candidate_index: await candidateIndexOf(t, ib[0]),
      reason: 'Fee unpaid',
    });
    expect(held.status).toBe(200);
    expect((await post('admin', SCORE_ENDPOINTS.compute.path, pair())).status).toBe(200);
    // Marks of a published sheet cannot change, nor can it be unlocked.
    const mark = await post('one', `/api/admin/score/sheets/${sheets.I_IB}/grids/one/rows/${ib[1]}`, {
      q1: '1',
      q2: '1',
      q3: '',
      q4: '',
      q5: '',
      version: 1,
      reason: 'late',
    });
    expect(mark.status).toBe(409);
    const unlock = await post('admin', `/api/admin/score/sheets/${sheets.I_IB}/unlock`, { reason: 'fix' });
    expect(unlock.status).toBe(409);
    expect(unlock.body.message).toBe(M.publishedSheet);

    expect(await schoolRows('school1')).toEqual(before);
    expect(await csv()).toBe(beforeCsv);
    // The board reads both: what is computed now, and what the schools read where it differs.
    const board = await get('admin', `${SCORE_ENDPOINTS.results.admin.path}?diet=${dietCode}&school=SHT-IB`);
    const rows = board.body.data.items as { candidate_id: number; outcome: string; published_as: unknown }[];
    // A held row has no marks; it still says what the schools read (a left join's first column is null).
    expect(rows.find((r) => r.candidate_id === ib[0])).toMatchObject({
      outcome: 'held',
      published: true,
      published_as: { final_mark: '66.5', grade: 'B', outcome: 'pass' },
    });
    // 0.5 × 65 + 0.5 × 70 = 67.5: a C and a fail under the new rules.
    expect(rows.find((r) => r.candidate_id === ib[1])).toMatchObject({
      final_mark: '67.5',
      grade: 'C',
      outcome: 'fail',
      published_as: { final_mark: '66.5', grade: 'B', outcome: 'pass' },
    });
  });

  it('is withdrawn only with a reason, audited, and the school then reads nothing', async () => {
    for (const reason of [undefined, '', '   ', 42]) {
      const refused = await post('admin', SCORE_ENDPOINTS.withdraw.path, { ...pair(), reason });
      expect(refused.status, String(reason)).toBe(422);
      expect(refused.body.message.reason).toEqual([M.withdrawReasonRequired]);
    }
    expect(await schoolRows('school1')).toEqual(before);
    const ask = await preview();
    expect(ask).toMatchObject({ published_results: 5, published_schools: 2 });
    const withdrawn = await post('admin', SCORE_ENDPOINTS.withdraw.path, {
      ...pair(),
      reason: 'Rules corrected',
    });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    expect(withdrawn.body.data).toMatchObject({ published_at: null, withdraw_reason: 'Rules corrected' });
    expect(await schoolRows('school1')).toHaveLength(0);
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, 'results.withdrawn'));
    expect(entry.after).toMatchObject({ reason: 'Rules corrected', course_header: 'B1' });
    expect(entry.actorId).toBe(await userIdOf(t, 'admin@example.org'));
    const twice = await post('admin', SCORE_ENDPOINTS.withdraw.path, { ...pair(), reason: 'Again' });
    expect(twice.status).toBe(409);
  });

  it('shows what publishing again changes before it does, then the schools read the new publication', async () => {
    // A candidate no longer registered leaves the next publication.
    await writeRegStatus(t, ca[1], 'unregistered');
    const ask = await preview();
    expect(ask.missing).toBeNull();
    expect(ask.candidates).toBe(4);
    expect(ask.changes!.counts).toEqual({ added: 0, removed: 1, changed: 4 });
    expect(ask.changes!.removed[0]).toMatchObject({
      candidate_id: ca[1],
      school_code: 'CHT-CA',
      before: { outcome: 'pass' },
      after: null,
    });
    expect(ask.changes!.changed.find((c) => c.candidate_id === ib[0])).toMatchObject({
      before: { final_mark: '66.5', grade: 'B', outcome: 'pass' },
      after: { final_mark: '', grade: '', outcome: 'held' },
    });
    expect(ask.changes!.changed.find((c) => c.candidate_id === ib[1])).toMatchObject({
      before: { final_mark: '66.5', grade: 'B', outcome: 'pass' },
      after: { final_mark: '67.5', grade: 'C', outcome: 'fail' },
    });
    const published = await post('admin', SCORE_ENDPOINTS.publish.path, pair());
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const now = await schoolRows('school1');
    expect(now.find((r) => r.candidate_id === ib[1])).toMatchObject({ final_mark: '67.5', outcome: 'fail' });
    expect(now.find((r) => r.candidate_id === ib[0])).toMatchObject({ outcome: 'held', note: 'Fee unpaid' });
    expect(await schoolRows('school2')).toHaveLength(1);
    // The board's held row, published held (no marks at all), says it is published as it is computed.
    const board = await get('admin', `${SCORE_ENDPOINTS.results.admin.path}?diet=${dietCode}&school=SHT-IB`);
    expect(
      board.body.data.items.find((r: { candidate_id: number }) => r.candidate_id === ib[0]),
    ).toMatchObject({ outcome: 'held', published: true, published_as: null });
    expect((await preview()).changes!.counts).toEqual({ added: 0, removed: 0, changed: 0 });
  });
});

describe("a candidate's paper is decided by exactly one sheet", () => {
  it('refuses a sheet overlapping another, naming the existing one', async () => {
    const overSchool = await createSheet(paper.II, 'SHT-IB');
    expect(overSchool.status).toBe(422);
    expect(overSchool.body.message.school).toEqual([
      M.sheetOverlaps(`The B1 Paper II sheet of all schools (${dietCode}, sheet ${sheets.II_ALL})`),
    ]);
    const overAll = await createSheet(paper.I);
    expect(overAll.status).toBe(422);
    expect(overAll.body.message.school).toEqual([
      M.sheetOverlaps(`The B1 Paper I sheet of SHT-IB (${dietCode}, sheet ${sheets.I_IB})`),
    ]);
    const inCourse = await createSheet(null, 'CHT-CA');
    expect(inCourse.status).toBe(422);
    expect(inCourse.body.message.school[0]).toContain(`The B1 in-course sheet of all schools`);
  });

  it('lets one of 10 overlapping sheets created at once win', async () => {
    const paperIII = await createPaper('Paper III');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => createSheet(paperIII, i % 2 ? 'SHT-IB' : undefined)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(9);
    for (const refused of answers.filter((a) => a.status === 422)) {
      expect(refused.body.message.school[0]).toMatch(/^The B1 Paper III sheet of (all schools|SHT-IB) /);
    }
    const stored = await db()
      .select()
      .from(scoreSheets)
      .where(and(eq(scoreSheets.paperId, paperIII)));
    expect(stored).toHaveLength(1);
    // A school's sheet beside another school's is no overlap.
    const winner = stored[0];
    if (winner.trainingSchoolId !== null) {
      expect((await createSheet(paperIII, 'CHT-CA')).status).toBe(200);
    }
  });
});
