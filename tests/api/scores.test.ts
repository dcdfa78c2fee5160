import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCORE_MESSAGES as M } from '../../contract/scores';
import { SCORE_ENDPOINTS } from '../../contract/scores.endpoints';
import { issueToken } from '../../server/auth/tokens';
import { auditLog, examOffences, scoreSheets } from '../../server/db/schema';
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
 * Score entry over HTTP: papers, a double-marked sheet (blind until both submit), marks checked against
 * their maxima, optimistic concurrency (one of many concurrent saves wins), reasons after submission,
 * the third marker, lock, results computed, published to each school alone, withdrawn, held, withheld.
 */

let t: TestPortal;
const db = () => t.portal.database.db;
const tokens = {} as Record<'admin' | 'one' | 'two' | 'three' | 'school1' | 'school2', string>;
const ids = {} as Record<'one' | 'two' | 'three', number>;
let dietCode: string;
let ib: number[] = [];
let ca: number[] = [];
let sheet: number;
let inCourse: number;
let paperId: number;

const as = (who: keyof typeof tokens) => ({ token: tokens[who] });
const post = (who: keyof typeof tokens, path: string, json: unknown) =>
  t.request('POST', path, { ...as(who), json });
const get = (who: keyof typeof tokens, path: string) => t.request('GET', path, as(who));

const marks = (q: string[], version = 0, extra: Record<string, unknown> = {}) => ({
  q1: q[0],
  q2: q[1],
  q3: q[2],
  q4: q[3],
  q5: q[4],
  version,
  ...extra,
});
const rowPath = (grid: string, candidate: number, id = sheet) =>
  `/api/admin/score/sheets/${id}/grids/${grid}/rows/${candidate}`;

beforeAll(async () => {
  t = await startTestPortal();
  tokens.admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
  tokens.school1 = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
  tokens.school2 = (await issueToken(db(), await userIdOf(t, 'school2@example.org'), 60)).token;
  for (const who of ['one', 'two', 'three'] as const) {
    ids[who] = await addUser(t, { email: `marker-${who}@example.org`, name: `Marker ${who}`, role: 'admin' });
    tokens[who] = (await issueToken(db(), ids[who], 60)).token;
  }
  dietCode = (await currentDietOf(t)).code;
  ib = await seedCandidates(
    t,
    Array.from({ length: 6 }, (_, i) => ({
      first_name: 'Scored',
      last_name: `Ibadan${i}`,
      school: 'SHT-IB',
      course_header: 'B1',
      verified: true,
    })),
  );
  ca = await seedCandidates(
    t,
    Array.from({ length: 2 }, (_, i) => ({
      first_name: 'Scored',
      last_name: `Calabar${i}`,
      school: 'CHT-CA',
      course_header: 'B1',
      verified: true,
    })),
  );
  for (const id of [...ib, ...ca]) await writeRegStatus(t, id, 'registered');
});

afterAll(async () => {
  await t?.close();
});

describe('papers', () => {
  it("sets a course header's paper with its questions' maxima and tolerances", async () => {
    const bad = await post('admin', SCORE_ENDPOINTS.createPaper.path, {
      course_header: 'B1',
      name: 'Paper I',
      q1_max: '20',
      q2_max: '20',
      q3_max: '101',
      q4_max: '20',
      q5_max: 'x',
      tolerance_question: '2',
      tolerance_total: '5',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.message.q3_max).toEqual([M.questionMaxInvalid]);
    expect(bad.body.message.q5_max).toEqual([M.questionMaxInvalid]);

    const response = await post('admin', SCORE_ENDPOINTS.createPaper.path, {
      course_header: 'B1',
      name: 'Paper I',
      q1_max: '20',
      q2_max: '20',
      q3_max: '20',
      q4_max: '20',
      q5_max: '20',
      tolerance_question: '2',
      tolerance_total: '5',
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({ name: 'Paper I', q_max: ['20', '20', '20', '20', '20'] });
    paperId = response.body.data.id;

    const again = await post('admin', SCORE_ENDPOINTS.createPaper.path, {
      ...{
        course_header: 'B1',
        name: 'paper i',
        q1_max: '10',
        q2_max: '0',
        q3_max: '0',
        q4_max: '0',
        q5_max: '0',
      },
      tolerance_question: '1',
      tolerance_total: '1',
    });
    expect(again.status).toBe(422);
    expect(again.body.message.name).toEqual([M.paperNameTaken]);
  });
});

describe('a double-marked sheet', () => {
  it('is created for a diet, course header and paper with two different markers', async () => {
    const same = await post('admin', SCORE_ENDPOINTS.createSheet.path, {
      kind: 'exam',
      diet: dietCode,
      course_header: 'B1',
      paper_id: paperId,
      marker_one: ids.one,
      marker_two: ids.one,
    });
    expect(same.status).toBe(422);
    expect(same.body.message.marker_two).toEqual([M.markersSame]);

    const response = await post('admin', SCORE_ENDPOINTS.createSheet.path, {
      kind: 'exam',
      diet: dietCode,
      course_header: 'B1',
      paper_id: paperId,
      marker_one: ids.one,
      marker_two: ids.two,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({ state: 'open', candidates: 8, flagged: 0 });
    sheet = response.body.data.id;

    const inCourseSheet = await post('admin', SCORE_ENDPOINTS.createSheet.path, {
      kind: 'in_course',
      diet: dietCode,
      course_header: 'B1',
      marker_one: ids.one,
    });
    expect(inCourseSheet.status, JSON.stringify(inCourseSheet.body)).toBe(200);
    inCourse = inCourseSheet.body.data.id;
  });

  it("keeps each marker's grid from the other until both have submitted", async () => {
    expect((await get('two', `/api/admin/score/sheets/${sheet}/grids/one`)).status).toBe(403);
    expect((await get('one', `/api/admin/score/sheets/${sheet}/grids/two`)).status).toBe(403);
    expect((await get('admin', `/api/admin/score/sheets/${sheet}/grids/one`)).status).toBe(403);
    // A school admin reads no marks at all: every score route is the board's.
    for (const path of [
      `/api/admin/score/sheets/${sheet}/grids/one`,
      `/api/admin/score/sheets/${sheet}/reconciliation`,
      SCORE_ENDPOINTS.results.admin.path,
    ]) {
      expect((await get('school1', path)).status, path).toBe(403);
    }
    const own = await get('one', `/api/admin/score/sheets/${sheet}/grids/one`);
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ editable: true, reason_required: false, total: 8 });
    expect(own.body.data.rows).toHaveLength(8);
    // Nobody but a grid's marker writes in it.
    expect((await post('two', rowPath('one', ib[0]), marks(['1', '1', '1', '1', '1']))).status).toBe(403);
  });

  it("checks each mark against its question's maximum, and keeps the rest of the row's answer in words", async () => {
    const response = await post('one', rowPath('one', ib[0]), marks(['20.5', '12,5', '1', '1', '1']));
    expect(response.status).toBe(422);
    expect(response.body.message.q2).toEqual([M.markInvalid]);
    const high = await post('one', rowPath('one', ib[0]), marks(['20.5', '1', '1', '1', '1']));
    expect(high.status).toBe(422);
    expect(high.body.message.q1).toEqual(['At most 20 for this question.']);
    const hostile = await post('one', rowPath('one', ib[0]), { q1: 12, version: '0' });
    expect(hostile.status).toBe(422);
  });

  it("saves a row only for a candidate on the sheet's roster, in either kind of grid", async () => {
    // Of the sheet's course header but not registered; registered but of another course header; none.
    const [unregistered, otherHeader] = await seedCandidates(t, [
      { first_name: 'Not', last_name: 'Registered', school: 'SHT-IB', course_header: 'B1', verified: true },
      { first_name: 'Other', last_name: 'Header', school: 'SHT-IB', course_header: 'A1', verified: true },
    ]);
    await writeRegStatus(t, unregistered, 'unregistered');
    await writeRegStatus(t, otherHeader, 'registered');
    try {
      for (const candidate of [unregistered, otherHeader, 999_999_999]) {
        const exam = await post('one', rowPath('one', candidate), marks(['1', '1', '1', '1', '1']));
        expect(exam.status, String(candidate)).toBe(404);
        expect(exam.body.message).toBe(M.candidateNotOnSheet);
        const semester = await post('one', rowPath('in-course', candidate, inCourse), {
          first_semester_score: '50',
          version: 0,
        });
        expect(semester.status, String(candidate)).toBe(404);
        expect(semester.body.message).toBe(M.candidateNotOnSheet);
      }
      const noSheet = await post('one', rowPath('one', ib[0], 999_999_999), marks(['1', '1', '1', '1', '1']));
      expect(noSheet.status).toBe(404);
      expect(noSheet.body.message).toBe(M.sheetNotFound);
      // Nothing was written for them.
      const grid = await get('one', `/api/admin/score/sheets/${sheet}/grids/one`);
      expect(grid.body.data.total).toBe(8);
    } finally {
      await writeRegStatus(t, otherHeader, 'unregistered');
    }
  });

  it('saves a row with the version it was loaded at; a second save from the same version is a 409 with both', async () => {
    const first = await post('one', rowPath('one', ib[0]), marks(['10', '10', '10', '10', '10.5']));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ total_score: '50.5', version: 1 });
    const stale = await post('one', rowPath('one', ib[0]), marks(['11', '10', '10', '10', '10']));
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(M.staleRow);
    expect(stale.body.data.current).toMatchObject({ q5: '10.5', total_score: '50.5', version: 1 });
  });

  it('lets exactly one of 10 concurrent saves of one row win', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post('one', rowPath('one', ib[0]), marks(['10', '10', '10', '10', String(i)], 1)),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
  });

  it('refuses a submission with candidates unmarked, then takes it', async () => {
    const early = await post('one', `/api/admin/score/sheets/${sheet}/grids/one/submit`, {});
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(M.submitIncomplete(7));
    const current = await get('one', `/api/admin/score/sheets/${sheet}/grids/one`);
    const version = (id: number) =>
      current.body.data.rows.find((r: { candidate_id: number }) => r.candidate_id === id).version;
    // Marker one: 10 on every question for everyone, but ib[5] is absent.
    for (const id of [...ib.slice(0, 5), ...ca]) {
      const answer = await post(
        'one',
        rowPath('one', id),
        marks(['10', '10', '10', '10', '10'], version(id)),
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    expect((await post('one', rowPath('one', ib[5]), { absent: true, version: 0 })).status).toBe(200);
    const submitted = await post('one', `/api/admin/score/sheets/${sheet}/grids/one/submit`, {});
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.data.state).toBe('marker_one_submitted');
  });

  it('asks for a reason to change a submitted mark, and the audit log keeps it', async () => {
    const grid = await get('one', `/api/admin/score/sheets/${sheet}/grids/one`);
    expect(grid.body.data.reason_required).toBe(true);
    const row = grid.body.data.rows.find((r: { candidate_id: number }) => r.candidate_id === ca[1]);
    const without = await post(
      'one',
      rowPath('one', ca[1]),
      marks(['11', '10', '10', '10', '10'], row.version),
    );
    expect(without.status).toBe(422);
    expect(without.body.message.reason).toEqual([M.reasonRequired]);
    const withReason = await post(
      'one',
      rowPath('one', ca[1]),
      marks(['11', '10', '10', '10', '10'], row.version, { reason: 'Added up page 2 again' }),
    );
    expect(withReason.status).toBe(200);
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'mark.changed'), eq(auditLog.entityId, String(sheet))))
      .orderBy(auditLog.id)
      .then((rows) => rows.slice(-1));
    expect(entry.actorId).toBe(ids.one);
    expect(entry.before).toMatchObject({
      candidate_id: ca[1],
      grid: 'one',
      marks: [100, 100, 100, 100, 100],
    });
    expect(entry.after).toMatchObject({ marks: [110, 100, 100, 100, 100], reason: 'Added up page 2 again' });
  });

  it('flags scripts out of tolerance once marker two submits, and shows both marks side by side', async () => {
    // Marker two: within tolerance for most; ib[1] 3 marks apart on q1 (tolerance 2); ib[5] marked though marker one found them absent.
    for (const id of [...ib, ...ca]) {
      const q1 = id === ib[1] ? '13' : '11';
      expect((await post('two', rowPath('two', id), marks([q1, '10', '10', '10', '10']))).status).toBe(200);
    }
    const submitted = await post('two', `/api/admin/score/sheets/${sheet}/grids/two/submit`, {});
    expect(submitted.status).toBe(200);
    expect(submitted.body.data).toMatchObject({ state: 'reconciling', flagged: 2 });

    // Now the board sees both grids.
    expect((await get('admin', `/api/admin/score/sheets/${sheet}/grids/one`)).status).toBe(200);
    const view = await get('admin', `/api/admin/score/sheets/${sheet}/reconciliation`);
    expect(view.status).toBe(200);
    expect(view.body.data).toHaveLength(2);
    const divergent = view.body.data.find((r: { candidate_id: number }) => r.candidate_id === ib[1]);
    expect(divergent).toMatchObject({ why: 'question', final: '' });
    expect(divergent.one.total_score).toBe('50');
    expect(divergent.two.total_score).toBe('53');
    const absence = view.body.data.find((r: { candidate_id: number }) => r.candidate_id === ib[5]);
    expect(absence).toMatchObject({ why: 'absence' });
    expect(absence.one.absent).toBe(true);

    const lock = await post('admin', `/api/admin/score/sheets/${sheet}/lock`, {});
    expect(lock.status).toBe(409);
    expect(lock.body.message).toBe(M.lockNotReady);
  });

  it('keeps the count of waiting scripts right under concurrent changes after submission', async () => {
    const grid = await get('one', `/api/admin/score/sheets/${sheet}/grids/one`);
    const version = (id: number) =>
      grid.body.data.rows.find((r: { candidate_id: number }) => r.candidate_id === id).version;
    const change = (id: number, q1: string, q5: string, at = version(id)) =>
      post('one', rowPath('one', id), marks([q1, '10', '10', '10', q5], at, { reason: 'Second look' }));
    // At once: two changes within tolerance, and one that puts ib[4] 3 marks from marker two on Q1.
    const answers = await Promise.all([
      change(ca[0], '10', '10.5'),
      change(ib[4], '14', '10'),
      change(ib[3], '10', '10.5'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect((await get('admin', `/api/admin/score/sheets/${sheet}`)).body.data.flagged).toBe(3);
    // Put back: ib[4] agrees again.
    expect((await change(ib[4], '10', '10', answers[1].body.data.version)).status).toBe(200);
    expect((await get('admin', `/api/admin/score/sheets/${sheet}`)).body.data.flagged).toBe(2);
  });

  it('sends flagged scripts to a third marker, who marks them alone, and the sheet locks', async () => {
    const same = await post('admin', `/api/admin/score/sheets/${sheet}/marker-three`, {
      marker_three: ids.two,
    });
    expect(same.status).toBe(422);
    expect(
      (await post('admin', `/api/admin/score/sheets/${sheet}/marker-three`, { marker_three: ids.three }))
        .status,
    ).toBe(200);
    const grid = await get('three', `/api/admin/score/sheets/${sheet}/grids/three`);
    expect(grid.status).toBe(200);
    expect(grid.body.data.rows.map((r: { candidate_id: number }) => r.candidate_id).sort()).toEqual(
      [ib[1], ib[5]].sort(),
    );
    const notFlagged = await post('three', rowPath('three', ib[0]), marks(['10', '10', '10', '10', '10']));
    expect(notFlagged.status).toBe(409);
    expect(notFlagged.body.message).toBe(M.notFlagged);
    // Third mark 51 on ib[1]: nearer marker one's 50 → (50 + 51) / 2 = 50.5.
    expect((await post('three', rowPath('three', ib[1]), marks(['11', '10', '10', '10', '10']))).status).toBe(
      200,
    );
    expect((await post('three', rowPath('three', ib[5]), { absent: true, version: 0 })).status).toBe(200);
    const view = await get('admin', `/api/admin/score/sheets/${sheet}/reconciliation`);
    expect(view.body.data.find((r: { candidate_id: number }) => r.candidate_id === ib[1]).final).toBe('50.5');
    expect(view.body.data.find((r: { candidate_id: number }) => r.candidate_id === ib[5]).final).toBe(
      'Absent',
    );

    const lock = await post('admin', `/api/admin/score/sheets/${sheet}/lock`, {});
    expect(lock.status, JSON.stringify(lock.body)).toBe(200);
    expect(lock.body.data.state).toBe('locked');
    const late = await post(
      'one',
      rowPath('one', ib[0]),
      marks(['1', '1', '1', '1', '1'], 9, { reason: 'late' }),
    );
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(M.sheetLocked);
  });
});

describe('results', () => {
  it('are not published while a sheet is open, and a school admin sees nothing before publication', async () => {
    const early = await post('admin', SCORE_ENDPOINTS.publish.path, { diet: dietCode, course_header: 'B1' });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(M.publishIncomplete('B1', [M.inCourseMissing(8)]));
    // In-course scores for everyone (60 and 80: total 70), then the in-course sheet locks.
    for (const id of [...ib, ...ca]) {
      const answer = await post('one', rowPath('in-course', id, inCourse), {
        first_semester_score: '60',
        second_semester_score: '80',
        version: 0,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    expect((await post('admin', `/api/admin/score/sheets/${inCourse}/lock`, {})).status).toBe(200);
    await post('admin', SCORE_ENDPOINTS.compute.path, { diet: dietCode, course_header: 'B1' });
    const before = await get('school1', `${SCORE_ENDPOINTS.results.school_admin.path}?diet=${dietCode}`);
    expect(before.status).toBe(200);
    expect(before.body.data.total).toBe(0);
  });

  it('are published per diet and course header, each school seeing its own candidates alone', async () => {
    const published = await post('admin', SCORE_ENDPOINTS.publish.path, {
      diet: dietCode,
      course_header: 'B1',
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body.data.published_at).not.toBeNull();
    const [stored] = await db().select().from(scoreSheets).where(eq(scoreSheets.id, sheet));
    expect(stored.state).toBe('published');

    const school1 = await get('school1', `${SCORE_ENDPOINTS.results.school_admin.path}?diet=${dietCode}`);
    expect(school1.body.data.total).toBe(6);
    const byIndex = new Map(
      school1.body.data.items.map((r: { candidate_index: string }) => [r.candidate_index, r]),
    );
    // ib[0]: 10.5 on q1 from marker two (11) and marker one (10): totals 50 and 51 → 50.5 of 100.
    // Final: 0.7 x 50.5 + 0.3 x 70 = 35.35 + 21 = 56.35 → 56.4: C, a pass.
    expect(byIndex.get(await candidateIndexOf(t, ib[0]))).toMatchObject({
      exam_mark: '50.5',
      in_course_mark: '70',
      final_mark: '56.4',
      grade: 'C',
      outcome: 'pass',
    });
    expect(byIndex.get(await candidateIndexOf(t, ib[5]))).toMatchObject({
      outcome: 'absent',
      final_mark: '',
    });
    const school2 = await get('school2', `${SCORE_ENDPOINTS.results.school_admin.path}?diet=${dietCode}`);
    expect(school2.body.data.total).toBe(2);
    expect(school2.body.data.items.every((r: { school_code: string }) => r.school_code === 'CHT-CA')).toBe(
      true,
    );
  });

  it('holds a result with its reason, withholds a sanctioned candidate, and releases the hold', async () => {
    const index = await candidateIndexOf(t, ib[2]);
    const held = await post('admin', SCORE_ENDPOINTS.hold.path, {
      diet: dietCode,
      candidate_index: index,
      reason: 'Fee unpaid',
    });
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    const twice = await post('admin', SCORE_ENDPOINTS.hold.path, {
      diet: dietCode,
      candidate_index: index,
      reason: 'Again',
    });
    expect(twice.status).toBe(409);
    const read = async (id: number) => {
      const list = await get('school1', `${SCORE_ENDPOINTS.results.school_admin.path}?diet=${dietCode}`);
      const wanted = await candidateIndexOf(t, id);
      return list.body.data.items.find((r: { candidate_index: string }) => r.candidate_index === wanted);
    };
    // Published results change only by withdrawal (issue 22): the school still reads what was published;
    // the board's row carries the hold, to release it from there, and what the schools read.
    expect(await read(ib[2])).toMatchObject({ outcome: 'pass', note: null, hold_id: null });
    const board = await get(
      'admin',
      `${SCORE_ENDPOINTS.results.admin.path}?search=${encodeURIComponent(index)}`,
    );
    expect(board.body.data.items[0]).toMatchObject({
      outcome: 'held',
      note: 'Fee unpaid',
      hold_id: held.body.data.id,
      published: true,
      published_as: { outcome: 'pass' },
    });
    expect((await post('admin', `/api/admin/results/holds/${held.body.data.id}/release`, {})).status).toBe(
      200,
    );
    const released = await get(
      'admin',
      `${SCORE_ENDPOINTS.results.admin.path}?search=${encodeURIComponent(index)}`,
    );
    expect(released.body.data.items[0]).toMatchObject({ outcome: 'pass', published_as: null });

    // An offence recorded at this diet withholds the result when results are computed again.
    const diet = await currentDietOf(t);
    await db()
      .insert(examOffences)
      .values({
        candidateId: ib[3],
        dietId: diet.id,
        offence: 'Impersonation',
        sanction: 'Barred for one diet',
        sanctionDiets: 1,
        createdBy: await userIdOf(t, 'admin@example.org'),
      });
    const computed = await post('admin', SCORE_ENDPOINTS.compute.path, {
      diet: dietCode,
      course_header: 'B1',
    });
    expect(computed.status, JSON.stringify(computed.body)).toBe(200);
    const withheld = await get(
      'admin',
      `${SCORE_ENDPOINTS.results.admin.path}?search=${await candidateIndexOf(t, ib[3])}`,
    );
    expect(withheld.body.data.items[0]).toMatchObject({ outcome: 'withheld', final_mark: '' });
    expect((await read(ib[3])).outcome).not.toBe('withheld');
  });

  it('are withdrawn: the schools see them no more, and the sheets are locked again', async () => {
    const withdrawn = await post('admin', SCORE_ENDPOINTS.withdraw.path, {
      diet: dietCode,
      course_header: 'B1',
      reason: 'A marking error on Paper I',
    });
    expect(withdrawn.status).toBe(200);
    expect(
      (await get('school1', `${SCORE_ENDPOINTS.results.school_admin.path}?diet=${dietCode}`)).body.data.total,
    ).toBe(0);
    const [stored] = await db().select().from(scoreSheets).where(eq(scoreSheets.id, sheet));
    expect(stored.state).toBe('locked');
    const actions = (await db().select({ action: auditLog.action }).from(auditLog)).map((r) => r.action);
    expect(actions).toEqual(
      expect.arrayContaining(['results.published', 'results.withdrawn', 'result.held']),
    );
  });
});

describe('marks from paper', () => {
  let paperSheet: number;
  const csvForm = (text: string, dryRun: boolean, reason?: string) => {
    const form = new FormData();
    form.append('csv', new File([text], 'marks.csv', { type: 'text/csv' }));
    form.append('dry_run', dryRun ? '1' : '0');
    if (reason) form.append('reason', reason);
    return form;
  };
  const importPath = () => `/api/admin/score/sheets/${paperSheet}/grids/one/import`;

  it('checks a CSV row by row and field by field in a dry run, and saves only the good rows', async () => {
    const paper = await post('admin', SCORE_ENDPOINTS.createPaper.path, {
      course_header: 'B1',
      name: 'Practical',
      q1_max: '50',
      q2_max: '50',
      q3_max: '0',
      q4_max: '0',
      q5_max: '0',
      tolerance_question: '5',
      tolerance_total: '5',
    });
    const sheetAnswer = await post('admin', SCORE_ENDPOINTS.createSheet.path, {
      kind: 'exam',
      diet: dietCode,
      course_header: 'B1',
      paper_id: paper.body.data.id,
      marker_one: ids.one,
      marker_two: ids.two,
    });
    paperSheet = sheetAnswer.body.data.id;
    const [a, b, c] = await Promise.all(ib.slice(0, 3).map((id) => candidateIndexOf(t, id)));
    const csv = [
      'candidate_index,q1,q2,absent',
      `${a},40,35.5,`,
      `${b},51,x,`,
      `WHB/99/B1/999999,10,10,`,
      `${a},1,1,`,
      `${c},,,yes`,
    ].join('\n');
    const dry = await t.request('POST', importPath(), { token: tokens.one, form: csvForm(csv, true) });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.data).toMatchObject({ good: 2, bad: 3, saved: 0 });
    expect(dry.body.data.rows[1].problems).toEqual({
      q1: 'At most 50 for this question.',
      q2: M.markInvalid,
    });
    expect(dry.body.data.rows[2].problems).toEqual({ candidate_index: M.importUnknownCandidate });
    expect(dry.body.data.rows[3].problems).toEqual({ candidate_index: M.importDuplicate });
    // Nothing is saved by a dry run; the import saves the two good rows through the grid's own save.
    expect(
      (await get('one', `/api/admin/score/sheets/${paperSheet}/grids/one`)).body.data.rows.every(
        (r: { version: number }) => r.version === 0,
      ),
    ).toBe(true);
    const imported = await t.request('POST', importPath(), { token: tokens.one, form: csvForm(csv, false) });
    expect(imported.status).toBe(200);
    expect(imported.body.data.saved).toBe(2);
    expect(imported.body.message).toBe('2 rows saved');
    const grid = await get('one', `/api/admin/score/sheets/${paperSheet}/grids/one`);
    const byId = new Map(grid.body.data.rows.map((r: { candidate_id: number }) => [r.candidate_id, r]));
    expect(byId.get(ib[0])).toMatchObject({ q1: '40', q2: '35.5', total_score: '75.5', version: 1 });
    expect(byId.get(ib[2])).toMatchObject({ absent: true });
    // Only the grid's marker imports into it.
    expect(
      (await t.request('POST', importPath(), { token: tokens.two, form: csvForm(csv, true) })).status,
    ).toBe(422);
    // Not a CSV.
    const junk = await t.request('POST', importPath(), {
      token: tokens.one,
      form: csvForm('"unclosed', true),
    });
    expect(junk.status).toBe(422);
  });
});
