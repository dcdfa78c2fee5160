import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OFFENDER_MESSAGES as M, type OffenderRow } from '../../contract/offenders';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';
import { OFFENDER_ENDPOINTS } from '../../contract/offenders.endpoints';
import { fillPath } from '../../contract/endpoint';
import { issueToken } from '../../server/auth/tokens';
import { diets, examOffences, registrations } from '../../server/db/schema';
import { boardToday } from '../../server/boardDate';
import {
  candidateIndexOf,
  currentDietOf,
  lastAudit,
  regStatusOf,
  seedCandidates,
  userIdOf,
} from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Exam offenders: recording an offence by index number, the list with search and paging, removing a row
 * (audited), who may do each, and the rule that a candidate under a running sanction cannot be registered.
 */

let t: TestPortal;
const db = () => t.portal.database.db;
const tokens = {} as Record<'admin' | 'school1' | 'impersonated', string>;
const ids = {} as Record<'admin' | 'school1', number>;
/** Candidates of SHT-IB (school1's school) and one of CHT-CA. */
const ib: number[] = [];
let ca: number;

/** The day `days` after the board's today, YYYY-MM-DD. */
function day(days: number): string {
  const date = new Date(`${boardToday()}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
const dmy = (iso: string) => iso.split('-').reverse().join('/');

beforeAll(async () => {
  t = await startTestPortal();
  ids.admin = await userIdOf(t, 'admin@example.org');
  ids.school1 = await userIdOf(t, 'school1@example.org');
  tokens.admin = (await issueToken(db(), ids.admin, 60)).token;
  tokens.school1 = (await issueToken(db(), ids.school1, 60)).token;
  tokens.impersonated = (await issueToken(db(), ids.school1, 60, ids.admin)).token;
  ib.push(
    ...(await seedCandidates(
      t,
      Array.from({ length: 5 }, (_, i) => ({
        first_name: 'Offender',
        last_name: `Person${i + 1}`,
        school: 'SHT-IB',
        course_header: 'A1',
        verified: true,
      })),
    )),
  );
  [ca] = await seedCandidates(t, [
    { first_name: 'Calabar', last_name: 'Sanctioned', school: 'CHT-CA', course_header: 'A2', verified: true },
  ]);
  const [past] = await db().select().from(diets).where(isNotNull(diets.closedAt));
  pastDiet = past;
  currentDiet = await currentDietOf(t);
});
afterAll(() => t?.close());

beforeEach(async () => {
  await db().delete(examOffences);
  await db().delete(registrations);
});

/** The sign-ins' diets: the past one (closed) and the current one, its papers a few weeks ahead. */
let pastDiet: typeof diets.$inferSelect;
let currentDiet: typeof diets.$inferSelect;

const validOffence = async (candidateId: number, overrides: Record<string, unknown> = {}) => ({
  candidate_index: await candidateIndexOf(t, candidateId),
  diet: pastDiet.code,
  offence: 'Exam malpractice',
  sanction: 'Barred from two exams',
  sanction_from: day(-1),
  sanction_until: day(30),
  ...overrides,
});
const record = async (json: unknown, token = tokens.admin) =>
  t.request('POST', OFFENDER_ENDPOINTS.record.path, { token, json });
const list = async (query = '', token = tokens.admin) =>
  t.request('GET', `${OFFENDER_ENDPOINTS.list.path}${query}`, { token });
const remove = async (id: number | string, token = tokens.admin) =>
  t.request('POST', fillPath(OFFENDER_ENDPOINTS.remove.path, { id }), { token });

describe('recording an offence', () => {
  it('records it against the candidate of the index number, audited with what was recorded', async () => {
    const body = await validOffence(ib[0]);
    const response = await record(body);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      message: M.recorded,
      data: {
        candidate_index: body.candidate_index,
        candidate: { id: ib[0], first_name: 'Offender', last_name: 'Person1', school: { code: 'SHT-IB' } },
        diet: { code: pastDiet.code, name: pastDiet.name },
        offence: 'Exam malpractice',
        sanction: 'Barred from two exams',
        sanction_diets: null,
        sanction_from: day(-1),
        sanction_until: day(30),
        active: true,
      },
    });
    const id = response.body.data.id as number;
    const [stored] = await db().select().from(examOffences).where(eq(examOffences.id, id));
    expect(stored).toMatchObject({ candidateId: ib[0], createdBy: ids.admin, removedAt: null });
    expect(await lastAudit(t, 'exam_offence.recorded', id)).toMatchObject({
      entity: 'exam_offence',
      actorId: ids.admin,
      impersonatorId: null,
      before: null,
      after: {
        candidate_id: ib[0],
        candidate_index: body.candidate_index,
        diet: pastDiet.code,
        offence: body.offence,
        sanction: body.sanction,
        sanction_from: day(-1),
        sanction_until: day(30),
      },
    });
  });

  it('takes an index number in small letters, and an empty end date as indefinitely', async () => {
    const body = await validOffence(ib[1], { sanction_until: '' });
    const response = await record({ ...body, candidate_index: ` ${body.candidate_index.toLowerCase()} ` });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      candidate: { id: ib[1] },
      sanction_until: null,
      active: true,
    });
  });

  it('says what is missing, field by field, and records nothing', async () => {
    const response = await record({});
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      success: false,
      message: {
        candidate_index: [M.candidateIndexRequired],
        diet: [M.dietRequired],
        offence: [M.offenceRequired],
        sanction: [M.sanctionRequired],
        sanction_from: [M.sanctionFromRequired],
      },
    });
    expect(await db().select().from(examOffences)).toEqual([]);
  });

  it('refuses dates that are not real, an end before the start, long text and an unknown index', async () => {
    const body = await validOffence(ib[0]);
    expect((await record({ ...body, sanction_from: '2026-02-30' })).body.message).toEqual({
      sanction_from: [M.dateInvalid],
    });
    expect((await record({ ...body, sanction_until: '30/06/2027' })).body.message).toEqual({
      sanction_until: [M.dateInvalid],
    });
    expect((await record({ ...body, sanction_from: day(5), sanction_until: day(4) })).body.message).toEqual({
      sanction_until: [M.untilBeforeFrom],
    });
    expect((await record({ ...body, offence: 'x'.repeat(501) })).body.message).toEqual({
      offence: [M.tooLong],
    });
    const unknown = await record({ ...body, candidate_index: 'WHB/26/A1/999999', diet: 'NO-SUCH-DIET' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toEqual({ candidate_index: [M.candidateUnknown], diet: [M.dietUnknown] });
    for (const sanction_diets of [0, 11, 1.5, 'two', true]) {
      expect((await record({ ...body, sanction_diets })).body.message, String(sanction_diets)).toEqual({
        sanction_diets: [M.sanctionDietsInvalid],
      });
    }
    expect(await db().select().from(examOffences)).toEqual([]);
  });
});

describe('the list', () => {
  it('shows listed offences newest first, with search by name or index number and paging', async () => {
    const recorded: number[] = [];
    for (const id of ib) recorded.push((await record(await validOffence(id))).body.data.id);
    await record(await validOffence(ca, { sanction_from: day(-10), sanction_until: day(-1) }));

    const all = await list();
    expect(all.status).toBe(200);
    expect(all.body.data.total).toBe(6);
    expect(all.body.data.items[0]).toMatchObject({ candidate: { id: ca }, active: false });
    expect(all.body.data.items.slice(1).map((row: OffenderRow) => row.id)).toEqual([...recorded].reverse());

    const byName = await list('?search=person3');
    expect(byName.body.data.items.map((row: OffenderRow) => row.candidate.id)).toEqual([ib[2]]);
    const byIndex = await list(`?search=${encodeURIComponent(await candidateIndexOf(t, ca))}`);
    expect(byIndex.body.data.items.map((row: OffenderRow) => row.candidate.id)).toEqual([ca]);
    expect((await list('?search=nobody')).body.data).toMatchObject({ items: [], total: 0 });

    const page2 = await list('?per_page=4&page=2');
    expect(page2.body.data).toMatchObject({ page: 2, per_page: 4, total: 6 });
    expect(page2.body.data.items).toHaveLength(2);
    expect((await list(`?search=${'x'.repeat(101)}`)).status).toBe(422);
  });
});

describe('removing a row from the list', () => {
  it('leaves the row stored but unlisted, audited with before and after', async () => {
    const id = (await record(await validOffence(ib[0]))).body.data.id as number;
    const response = await remove(id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: M.removed });
    expect((await list()).body.data.total).toBe(0);
    const [stored] = await db().select().from(examOffences).where(eq(examOffences.id, id));
    expect(stored.removedBy).toBe(ids.admin);
    expect(stored.removedAt).toBeInstanceOf(Date);
    expect(await lastAudit(t, 'exam_offence.removed', id)).toMatchObject({
      entity: 'exam_offence',
      actorId: ids.admin,
      before: { candidate_id: ib[0], offence: 'Exam malpractice', removed_at: null },
      after: { removed_at: stored.removedAt!.toISOString(), removed_by: ids.admin },
    });
  });

  it('is a 404 for a row already removed, an unknown id, or no id at all', async () => {
    const id = (await record(await validOffence(ib[0]))).body.data.id as number;
    expect((await remove(id)).status).toBe(200);
    expect((await remove(id)).body).toEqual({ success: false, message: M.notFound });
    expect((await remove(id + 1000)).status).toBe(404);
    expect((await remove('abc')).status).toBe(404);
  });
});

describe('who may', () => {
  it('a school admin may not list, record or remove (403), nor may anyone signed out (401)', async () => {
    const id = (await record(await validOffence(ib[0]))).body.data.id as number;
    for (const token of [tokens.school1, tokens.impersonated]) {
      expect((await list('', token)).status).toBe(403);
      expect((await record(await validOffence(ib[1]), token)).status).toBe(403);
      expect((await remove(id, token)).status).toBe(403);
    }
    expect((await t.request('GET', OFFENDER_ENDPOINTS.list.path)).status).toBe(401);
    const json = await validOffence(ib[1]);
    expect((await t.request('POST', OFFENDER_ENDPOINTS.record.path, { json })).status).toBe(401);
    expect((await t.request('POST', fillPath(OFFENDER_ENDPOINTS.remove.path, { id }))).status).toBe(401);
    expect((await list()).body.data.total).toBe(1);
  });
});

describe('a candidate under a running sanction cannot be registered', () => {
  const register = (role: 'admin' | 'school_admin', id: number, token: string) =>
    t.request('POST', fillPath(CANDIDATE_ENDPOINTS.regStatus[role].path, { id }), {
      token,
      json: { reg_status: 'registered' },
    });

  it('refuses the board admin and the school admin alike, saying until when and why', async () => {
    await record(await validOffence(ib[0], { sanction_until: day(30) }));
    const message = `This candidate is under an exam sanction until ${dmy(day(30))} (Exam malpractice), so cannot be registered`;
    for (const [role, token] of [
      ['admin', tokens.admin],
      ['school_admin', tokens.school1],
    ] as const) {
      const response = await register(role, ib[0], token);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ success: false, message });
    }
    expect(await regStatusOf(t, ib[0])).toBe('unregistered');
    // Unregistering is never refused.
    const off = await t.request('POST', fillPath(CANDIDATE_ENDPOINTS.regStatus.admin.path, { id: ib[0] }), {
      token: tokens.admin,
      json: { reg_status: 'unregistered' },
    });
    expect(off.status).toBe(200);
  });

  it('an indefinite sanction says it has no end; of several, the longest is named', async () => {
    await record(await validOffence(ib[1], { offence: 'Impersonation', sanction_until: null }));
    await record(await validOffence(ib[1], { offence: 'Exam malpractice', sanction_until: day(3) }));
    expect((await register('admin', ib[1], tokens.admin)).body.message).toBe(
      'This candidate is under an exam sanction with no end date (Impersonation), so cannot be registered',
    );
  });

  it("by dates, it covers a diet whose papers fall in them, on the diet's first or last day", async () => {
    const first = currentDiet.firstPaperOn;
    const last = currentDiet.lastPaperOn;
    await record(await validOffence(ib[2], { sanction_from: day(-5), sanction_until: first }));
    expect((await register('admin', ib[2], tokens.admin)).status).toBe(403);
    await db().delete(examOffences);
    await record(await validOffence(ib[2], { sanction_from: last, sanction_until: null }));
    expect((await register('admin', ib[2], tokens.admin)).status).toBe(403);
  });

  it('a sanction that has ended, or begins after the diet, does not stop registration', async () => {
    const afterPapers = new Date(`${currentDiet.lastPaperOn}T00:00:00Z`);
    afterPapers.setUTCDate(afterPapers.getUTCDate() + 1);
    await record(await validOffence(ib[3], { sanction_from: day(-30), sanction_until: day(-1) }));
    await record(
      await validOffence(ib[3], {
        sanction_from: afterPapers.toISOString().slice(0, 10),
        sanction_until: null,
      }),
    );
    expect((await list()).body.data.items.map((row: OffenderRow) => row.active)).toEqual([false, false]);
    const response = await register('school_admin', ib[3], tokens.school1);
    expect(response.status).toBe(200);
    expect(await regStatusOf(t, ib[3])).toBe('registered');
  });

  it('removing the offence from the list lifts its sanction', async () => {
    const id = (await record(await validOffence(ib[4]))).body.data.id as number;
    expect((await register('admin', ib[4], tokens.admin)).status).toBe(403);
    expect((await remove(id)).status).toBe(200);
    expect((await register('admin', ib[4], tokens.admin)).status).toBe(200);
  });

  it('a sanction on one candidate does not touch another', async () => {
    await record(await validOffence(ca));
    expect((await register('admin', ib[0], tokens.admin)).status).toBe(200);
  });

  it("by diets: the number of diets after the offence's, in paper-date order", async () => {
    const blocked = `This candidate is under an exam sanction for 1 diet after ${pastDiet.name} (Exam malpractice), so cannot be registered`;
    const one = await record(await validOffence(ib[0], { sanction_diets: 1, sanction_from: '' }));
    expect(one.body.data).toMatchObject({
      sanction_diets: 1,
      sanction_from: null,
      sanction_until: null,
      active: true,
    });
    expect(await register('admin', ib[0], tokens.admin)).toMatchObject({
      status: 403,
      body: { message: blocked },
    });
    // At the current diet itself, a sanction by diets bars the diets after it, not that one.
    await record(await validOffence(ib[1], { diet: currentDiet.code, sanction_diets: 1 }));
    expect((await register('admin', ib[1], tokens.admin)).status).toBe(200);

    // A diet after the current one, made current: the second after the past diet.
    const created = await t.request('POST', '/api/admin/diets', {
      token: tokens.admin,
      json: {
        code: 'NEXT-DIET',
        name: 'The diet after',
        first_paper_on: '2099-05-04',
        last_paper_on: '2099-05-15',
        registration_opens_at: '2020-01-01T08:00',
        registration_closes_at: '2099-04-01T17:00',
      },
    });
    expect(created.status).toBe(200);
    await t.request('POST', `/api/admin/diets/${created.body.data.id}/current`, { token: tokens.admin });
    try {
      expect((await register('admin', ib[0], tokens.admin)).status).toBe(200);
      // Two diets after the past one: the new diet is covered; one after the current: covered too.
      await record(await validOffence(ib[2], { sanction_diets: 2 }));
      expect((await register('admin', ib[2], tokens.admin)).status).toBe(403);
      expect((await register('admin', ib[1], tokens.admin)).status).toBe(403);
    } finally {
      await db().update(diets).set({ current: false });
      await db().update(diets).set({ current: true }).where(eq(diets.id, currentDiet.id));
      await db().delete(registrations);
    }
  });
});
