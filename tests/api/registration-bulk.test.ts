import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CANDIDATE_OUTCOME_MESSAGES as O,
  CANDIDATE_RULE_MESSAGES as R,
  CANDIDATES_REGISTERED_KIND,
} from '../../contract/candidates';
import { DIET_MESSAGES } from '../../contract/diets';
import { BULK_REGISTRATION_LIMIT, BULK_REGISTRATION_MESSAGES as B } from '../../contract/registration';
import { REGISTRATION_ENDPOINTS } from '../../contract/registration.endpoints';
import { issueToken } from '../../server/auth/tokens';
import {
  auditLog,
  courseHeaders,
  examOffences,
  notifications,
  registrations,
  trainingSchools,
} from '../../server/db/schema';
import { currentDietOf, regStatusOf, seedCandidates, userIdOf, writeRegStatus } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Issue 22: a school (or the board) registers many candidates at once, through the same rules as one
 * row's toggle, with a count of what was done and what was refused and why.
 */

let t: TestPortal;
const db = () => t.portal.database.db;
const tokens = {} as Record<'admin' | 'school1' | 'school2', string>;
let adminId: number;
/** SHT-IB (school1): 0-5 verified A1, 6-7 unverified A1, 8 verified A2, 9 verified and sanctioned. */
const ib: number[] = [];
/** CHT-CA (school2): verified. */
const ca: number[] = [];

beforeAll(async () => {
  t = await startTestPortal();
  adminId = await userIdOf(t, 'admin@example.org');
  tokens.admin = (await issueToken(db(), adminId, 60)).token;
  tokens.school1 = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
  tokens.school2 = (await issueToken(db(), await userIdOf(t, 'school2@example.org'), 60)).token;
  ib.push(
    ...(await seedCandidates(
      t,
      Array.from({ length: 10 }, (_, i) => ({
        first_name: 'Bulk',
        last_name: `Ibadan${String(i).padStart(2, '0')}`,
        school: 'SHT-IB',
        course_header: i === 8 ? 'A2' : 'A1',
        verified: i < 6 || i >= 8,
      })),
    )),
  );
  ca.push(
    ...(await seedCandidates(
      t,
      Array.from({ length: 3 }, (_, i) => ({
        first_name: 'Bulk',
        last_name: `Calabar${i}`,
        school: 'CHT-CA',
        course_header: 'A1',
        verified: true,
      })),
    )),
  );
  const diet = await currentDietOf(t);
  await db().insert(examOffences).values({
    candidateId: ib[9],
    dietId: diet.id,
    offence: 'Exam malpractice',
    sanction: 'Barred',
    sanctionFrom: '2000-01-01',
    sanctionUntil: null,
    createdBy: adminId,
  });
});
afterAll(() => t?.close());

beforeEach(async () => {
  await db().update(courseHeaders).set({ registrationStatus: 'open' });
  await db().update(trainingSchools).set({ status: 'active' });
  await db().delete(notifications);
  await db().delete(registrations);
});

const bulk = (json: unknown, token = tokens.school1, role: 'admin' | 'school_admin' = 'school_admin') =>
  t.request('POST', REGISTRATION_ENDPOINTS.bulk[role].path, { token, json });
const registeredOf = async (ids: number[]) =>
  (
    await db()
      .select({ id: registrations.candidateId })
      .from(registrations)
      .where(and(inArray(registrations.candidateId, ids), eq(registrations.regStatus, 'registered')))
  )
    .map((row) => row.id)
    .sort((a, b) => a - b);
const audits = async (ids: number[]) =>
  db()
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, 'candidate.reg_status_changed'),
        inArray(
          auditLog.entityId,
          ids.map((id) => String(id)),
        ),
      ),
    );

describe('ticked rows (candidate_ids)', () => {
  it('registers the verified, refuses the rest with the reason, and says so in a sentence', async () => {
    await writeRegStatus(t, ib[1], 'registered');
    const response = await bulk({ candidate_ids: [ib[0], ib[1], ib[2], ib[6], ib[7], ib[9]] });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.message).toBe(
      '2 registered, 1 already registered; 3 refused: 2 not verified by the board, 1 under sanction',
    );
    const data = response.body.data;
    expect(data).toMatchObject({
      diet: (await currentDietOf(t)).code,
      registered: 2,
      already_registered: 1,
      refused: [
        { reason: 'not_verified', label: 'not verified by the board', count: 2 },
        { reason: 'sanctioned', label: 'under sanction', count: 1 },
      ],
      left_over: 0,
    });
    expect(data.rows).toEqual([
      { id: ib[0], outcome: 'registered' },
      { id: ib[1], outcome: 'already_registered' },
      { id: ib[2], outcome: 'registered' },
      { id: ib[6], outcome: 'refused', reason: 'not_verified', message: DIET_MESSAGES.notVerified },
      { id: ib[7], outcome: 'refused', reason: 'not_verified', message: DIET_MESSAGES.notVerified },
      {
        id: ib[9],
        outcome: 'refused',
        reason: 'sanctioned',
        message: expect.stringContaining('Exam malpractice'),
      },
    ]);
    expect(await registeredOf(ib)).toEqual([ib[0], ib[1], ib[2]].sort((a, b) => a - b));
    // Audited as single ones are: one entry a change, with before and after.
    // (the first test of the file: these candidates have no other entries yet)
    const entries = await audits([ib[0], ib[2]]);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      before: { reg_status: 'unregistered' },
      after: { reg_status: 'registered' },
    });
    expect(await audits([ib[1], ib[6], ib[9]])).toEqual([]);
    // The board is told once, with the count.
    const told = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.kind, CANDIDATES_REGISTERED_KIND));
    expect(told).toHaveLength(1);
    expect(told[0].data).toEqual({ count: 2 });
  });

  it("another school's candidates and unknown ids: refused as not found, never registered", async () => {
    const response = await bulk({ candidate_ids: [ib[0], ca[0], ca[1], 999_999] });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe('1 registered; 3 refused: 3 not found');
    expect(response.body.data.rows.filter((row: { outcome: string }) => row.outcome === 'refused')).toEqual(
      [ca[0], ca[1], 999_999].map((id) => ({
        id,
        outcome: 'refused',
        reason: 'not_found',
        message: O.notFound,
      })),
    );
    expect(await registeredOf(ca)).toEqual([]);
    // Only another school's: nothing at all is done, and nothing says more than "not found".
    const only = await bulk({ candidate_ids: [ca[2]] });
    expect(only.body.message).toBe('0 registered; 1 refused: 1 not found');
    expect(await regStatusOf(t, ca[2])).toBe('unregistered');
  });

  it('the board registers any school’s candidates, through the same rules', async () => {
    const response = await bulk({ candidate_ids: [ib[0], ca[0], ib[6]] }, tokens.admin, 'admin');
    expect(response.status).toBe(200);
    expect(response.body.message).toBe('2 registered; 1 refused: 1 not verified by the board');
    expect(await registeredOf([...ib, ...ca])).toEqual([ib[0], ca[0]].sort((a, b) => a - b));
    // The board is not told of its own registrations.
    expect(await db().select().from(notifications)).toEqual([]);
  });

  it("a course header closed for registration refuses its rows only (the school's rule, not the board's)", async () => {
    await db()
      .update(courseHeaders)
      .set({ registrationStatus: 'closed' })
      .where(eq(courseHeaders.code, 'A1'));
    const response = await bulk({ candidate_ids: [ib[0], ib[8]] });
    expect(response.body.message).toBe(
      '1 registered; 1 refused: 1 registration closed for their course header',
    );
    expect(response.body.data.rows[0]).toEqual({
      id: ib[0],
      outcome: 'refused',
      reason: 'course_header_closed',
      message: R.registrationClosed,
    });
    expect(await registeredOf(ib)).toEqual([ib[8]]);
  });

  it('a suspended school: 403 with the reason, and nobody is registered', async () => {
    await db().update(trainingSchools).set({ status: 'suspended' }).where(eq(trainingSchools.code, 'SHT-IB'));
    const response = await bulk({ candidate_ids: [ib[0], ib[2]] });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, message: R.registrationSchoolSuspended });
    expect(await registeredOf(ib)).toEqual([]);
  });

  it('a closed window: 403 with the reason, and nobody is registered', async () => {
    const diet = await currentDietOf(t);
    const { diets } = await import('../../server/db/schema');
    const closes = diet.registrationClosesAt;
    await db()
      .update(diets)
      .set({ registrationClosesAt: new Date(Date.now() - 60_000) })
      .where(eq(diets.id, diet.id));
    try {
      const response = await bulk({ candidate_ids: [ib[0]] });
      expect(response.status).toBe(403);
      expect(response.body.message).toMatch(/^Registration for .* closed at/);
      expect(await registeredOf(ib)).toEqual([]);
    } finally {
      await db().update(diets).set({ registrationClosesAt: closes }).where(eq(diets.id, diet.id));
    }
  });

  it('two parallel submissions of the same rows register each candidate once', async () => {
    const ids = [ib[0], ib[2], ib[3], ib[4], ib[5], ib[8]];
    const audited = (await audits(ids)).length;
    const answers = await Promise.all([
      bulk({ candidate_ids: ids }),
      bulk({ candidate_ids: [...ids].reverse() }),
    ]);
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const counts = answers.map((answer) => answer.body.data.registered).sort();
    expect(counts[0] + counts[1]).toBe(ids.length);
    expect(answers[0].body.data.already_registered + answers[1].body.data.already_registered).toBe(
      ids.length,
    );
    expect(await registeredOf(ib)).toEqual([...ids].sort((a, b) => a - b));
    expect(await audits(ids)).toHaveLength(audited + ids.length);
    const [told] = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.kind, CANDIDATES_REGISTERED_KIND));
    expect(told.data).toEqual({ count: ids.length });
  });

  it.each([
    [{}, { candidate_ids: [B.chooseCandidates] }],
    [{ candidate_ids: [] }, { candidate_ids: [B.chooseCandidates] }],
    [{ candidate_ids: 'all' }, { candidate_ids: [B.chooseCandidates] }],
    [
      { candidate_ids: Array.from({ length: BULK_REGISTRATION_LIMIT + 1 }, (_, i) => i + 1) },
      { candidate_ids: [B.tooMany] },
    ],
    [{ candidate_ids: [1.5] }, { 'candidate_ids.0': [O.notFound] }],
    [{ candidate_ids: ['12'] }, { 'candidate_ids.0': [O.notFound] }],
    [{ candidate_ids: [1e20] }, { 'candidate_ids.0': [O.notFound] }],
    [{ candidate_ids: [-3] }, { 'candidate_ids.0': [O.notFound] }],
    [{ candidate_ids: [1], all_verified: true, diet: 'MAY-2026' }, { all_verified: [B.oneWay] }],
    [{ all_verified: true }, { diet: [DIET_MESSAGES.dietRequired] }],
    [{ all_verified: 'yes', diet: 'X1' }, { all_verified: [B.oneWay] }],
    [{ all_verified: true, diet: 'bad code\u0000' }, null],
  ])('%j: 422 in words', async (json, message) => {
    const response = await bulk(json);
    expect(response.status).toBe(422);
    if (message) expect(response.body).toEqual({ success: false, message });
    expect(await registeredOf(ib)).toEqual([]);
  });

  it('each role its own path (403 on the other), and a session (401)', async () => {
    expect((await bulk({ candidate_ids: [ib[0]] }, tokens.admin, 'school_admin')).status).toBe(403);
    expect((await bulk({ candidate_ids: [ib[0]] }, tokens.school1, 'admin')).status).toBe(403);
    expect(
      (
        await t.request('POST', REGISTRATION_ENDPOINTS.bulk.school_admin.path, {
          json: { candidate_ids: [ib[0]] },
        })
      ).status,
    ).toBe(401);
  });
});

describe('every verified candidate (all_verified)', () => {
  it("registers the school's verified candidates not yet registered, and counts the sanctioned as refused", async () => {
    const diet = (await currentDietOf(t)).code;
    await writeRegStatus(t, ib[0], 'registered');
    const response = await bulk({ all_verified: true, diet });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const ownSeeded = [ib[2], ib[3], ib[4], ib[5], ib[8]].length + 1; // ib[1] too
    expect(response.body.data.refused).toEqual([{ reason: 'sanctioned', label: 'under sanction', count: 1 }]);
    expect(response.body.data.registered).toBeGreaterThanOrEqual(ownSeeded);
    expect(response.body.data.already_registered).toBe(0);
    expect(await registeredOf(ib)).toEqual(
      [ib[0], ib[1], ib[2], ib[3], ib[4], ib[5], ib[8]].sort((a, b) => a - b),
    );
    expect(await registeredOf(ca)).toEqual([]);
    // Pressed again: nothing more to do but the sanctioned one.
    const again = await bulk({ all_verified: true, diet });
    expect(again.body.message).toBe('0 registered; 1 refused: 1 under sanction');
  });

  it('narrowed to a course header, as the list is filtered', async () => {
    const diet = (await currentDietOf(t)).code;
    const response = await bulk({ all_verified: true, diet, course_header: 'A2' });
    expect(response.status).toBe(200);
    expect(response.body.data.rows.map((row: { id: number }) => row.id)).toContain(ib[8]);
    expect(await registeredOf(ib)).toEqual([ib[8]]);
  });

  it('a diet that is no longer current: 409, and nobody is registered', async () => {
    const response = await bulk({ all_verified: true, diet: 'OLD-2001' });
    expect(response.status).toBe(409);
    expect(response.body.message).toBe(B.dietChanged((await currentDietOf(t)).code, 'OLD-2001'));
    expect(await registeredOf(ib)).toEqual([]);
  });
});
