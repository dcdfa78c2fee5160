import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RESIT_MESSAGES as M, type ResitRow } from '../../contract/resits';
import type { Role } from '../../contract/roles';
import { RESIT_ENDPOINTS } from '../../contract/resits.endpoints';
import { fillPath } from '../../contract/endpoint';
import { issueToken } from '../../server/auth/tokens';
import { courseHeaders, diets, examOffences, resits, trainingSchools } from '../../server/db/schema';
import { boardToday } from '../../server/boardDate';
import {
  addUser,
  candidateIndexOf,
  currentDietOf,
  emptyPage,
  lastAudit,
  seedCandidates,
  userIdOf,
} from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Resit candidates: adding an entry by index number (a school admin: their own school's candidates,
 * while they may register them), each role's list, removing a row (audited), and who may do each.
 */

let t: TestPortal;
const db = () => t.portal.database.db;
const tokens = {} as Record<'admin' | 'school1' | 'school2' | 'impersonated' | 'loose', string>;
const ids = {} as Record<'admin' | 'school1' | 'school2', number>;
/** Candidates of SHT-IB (school1's school; the last on course header A2) and CHT-CA (school2's). */
const ib: number[] = [];
const ca: number[] = [];

beforeAll(async () => {
  t = await startTestPortal();
  for (const who of ['admin', 'school1', 'school2'] as const) {
    ids[who] = await userIdOf(t, `${who}@example.org`);
    tokens[who] = (await issueToken(db(), ids[who], 60)).token;
  }
  tokens.impersonated = (await issueToken(db(), ids.school1, 60, ids.admin)).token;
  EXAM = (await currentDietOf(t)).code;
  [PAST] = await db().select().from(diets).where(isNotNull(diets.closedAt));
  // A diet after the current one, not current: the board may enter resits for it, a school may not.
  const next = await t.request('POST', '/api/admin/diets', {
    token: tokens.admin,
    json: {
      code: 'NEXT-DIET',
      name: 'The diet after',
      first_paper_on: '2099-05-04',
      last_paper_on: '2099-05-15',
      registration_opens_at: '2099-01-01T08:00',
      registration_closes_at: '2099-04-01T17:00',
    },
  });
  expect(next.status).toBe(200);
  const loose = await addUser(t, { email: 'loose@example.org', name: 'No School', role: 'school_admin' });
  tokens.loose = (await issueToken(db(), loose, 60)).token;
  ib.push(
    ...(await seedCandidates(
      t,
      Array.from({ length: 4 }, (_, i) => ({
        first_name: 'Ibadan',
        last_name: `Resitter${i + 1}`,
        school: 'SHT-IB',
        course_header: i < 3 ? 'A1' : 'A2',
      })),
    )),
  );
  ca.push(
    ...(await seedCandidates(t, [
      { first_name: 'Calabar', last_name: 'Resitter1', school: 'CHT-CA', course_header: 'A1' },
      { first_name: 'Calabar', last_name: 'Resitter2', school: 'CHT-CA', course_header: 'A1' },
    ])),
  );
});
afterAll(() => t?.close());

beforeEach(async () => {
  await db().delete(resits);
  await db().delete(examOffences);
  await db().update(courseHeaders).set({ registrationStatus: 'open' });
  await db().update(trainingSchools).set({ status: 'active' });
});

/** The current diet's code (the sign-ins seed's), and the past (closed) diet. */
let EXAM: string;
let PAST: typeof diets.$inferSelect;
const tokenRole = (token: string): Role => (token === tokens.admin ? 'admin' : 'school_admin');
const add = async (candidateId: number, token: string, overrides: Record<string, unknown> = {}) =>
  t.request('POST', RESIT_ENDPOINTS.add[tokenRole(token)].path, {
    token,
    json: {
      candidate_index: await candidateIndexOf(t, candidateId),
      diet: EXAM,
      papers: ['Paper I'],
      ...overrides,
    },
  });
const list = (token: string, query = '') =>
  t.request('GET', `${RESIT_ENDPOINTS.list[tokenRole(token)].path}${query}`, { token });
const remove = (id: number, token: string) =>
  t.request('POST', fillPath(RESIT_ENDPOINTS.remove[tokenRole(token)].path, { id }), { token });
const stored = () => db().select().from(resits);

describe('adding a resit entry', () => {
  it("a board admin adds one for any school's candidate, papers in the board's order, audited", async () => {
    const response = await add(ca[0], tokens.admin, { papers: ['Practical', 'Paper II'] });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      message: M.added,
      data: {
        candidate_index: await candidateIndexOf(t, ca[0]),
        candidate: { id: ca[0], last_name: 'Resitter1', school: { code: 'CHT-CA' }, course_header: 'A1' },
        diet: { code: EXAM },
        papers: ['Paper II', 'Practical'],
      },
    });
    const id = response.body.data.id as number;
    expect(await lastAudit(t, 'resit.added', id)).toMatchObject({
      entity: 'resit',
      actorId: ids.admin,
      impersonatorId: null,
      before: null,
      after: { candidate_id: ca[0], diet: EXAM, papers: ['Paper II', 'Practical'] },
    });
  });

  it("a school admin adds one for their own school's candidate; an impersonating admin is named", async () => {
    const own = await add(ib[0], tokens.school1);
    expect(own.status).toBe(200);
    expect(await lastAudit(t, 'resit.added', own.body.data.id)).toMatchObject({
      actorId: ids.school1,
      impersonatorId: null,
    });
    const asSchool = await add(ib[1], tokens.impersonated);
    expect(asSchool.status).toBe(200);
    expect(await lastAudit(t, 'resit.added', asSchool.body.data.id)).toMatchObject({
      actorId: ids.school1,
      impersonatorId: ids.admin,
    });
  });

  it("another school's candidate reads as an unknown index number to a school admin", async () => {
    const response = await add(ca[0], tokens.school1);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message: { candidate_index: [M.candidateUnknown] } });
    const unknown = await add(ca[0], tokens.admin, { candidate_index: 'WHB/26/A1/999999' });
    expect(unknown.body.message).toEqual({ candidate_index: [M.candidateUnknown] });
    expect(await stored()).toEqual([]);
  });

  it('says what is missing or wrong, field by field', async () => {
    const empty = await t.request('POST', RESIT_ENDPOINTS.add.admin.path, { token: tokens.admin, json: {} });
    expect(empty.status).toBe(422);
    expect(empty.body.message).toEqual({
      candidate_index: [M.candidateIndexRequired],
      diet: [M.dietRequired],
      papers: [M.papersRequired],
    });
    expect((await add(ib[0], tokens.admin, { papers: [] })).body.message).toEqual({
      papers: [M.papersRequired],
    });
    expect((await add(ib[0], tokens.admin, { papers: ['Paper I', 'Paper I'] })).body.message).toEqual({
      papers: [M.paperUnknown],
    });
    expect((await add(ib[0], tokens.admin, { papers: ['Paper IX'] })).body.message).toEqual({
      'papers.0': [M.paperUnknown],
    });
    expect((await add(ib[0], tokens.admin, { diet: 'x'.repeat(21) })).body.message).toEqual({
      diet: [M.dietUnknown],
    });
    expect((await add(ib[0], tokens.admin, { diet: 'NO-SUCH-DIET' })).body.message).toEqual({
      diet: [M.dietUnknown],
    });
    // A closed diet takes no more entries, from anyone.
    expect((await add(ib[0], tokens.admin, { diet: PAST.code })).body.message).toEqual({
      diet: [M.dietClosed],
    });
    expect(await stored()).toEqual([]);
  });

  it('one listed entry per candidate and diet; another diet, or after removal, is fine', async () => {
    const first = await add(ib[0], tokens.school1);
    const again = await add(ib[0], tokens.admin, { papers: ['Oral'], diet: EXAM.toLowerCase() });
    expect(again.status).toBe(422);
    expect(again.body.message).toEqual({ diet: [M.duplicate] });
    expect((await add(ib[0], tokens.admin, { diet: 'NEXT-DIET' })).status).toBe(200);
    // A school admin enters resits for the current diet only.
    expect((await add(ib[1], tokens.school1, { diet: 'NEXT-DIET' })).body).toEqual({
      success: false,
      message: M.dietNotCurrent,
    });
    expect((await remove(first.body.data.id, tokens.school1)).status).toBe(200);
    expect((await add(ib[0], tokens.school1, { papers: ['Oral'] })).status).toBe(200);
  });

  it("a school admin may not while the course header's registration is closed or the school is suspended", async () => {
    await db()
      .update(courseHeaders)
      .set({ registrationStatus: 'closed' })
      .where(eq(courseHeaders.code, 'A2'));
    const closed = await add(ib[3], tokens.school1);
    expect(closed.status).toBe(403);
    expect(closed.body).toEqual({ success: false, message: M.registrationClosed });
    expect((await add(ib[0], tokens.school1)).status).toBe(200);

    await db().update(trainingSchools).set({ status: 'suspended' }).where(eq(trainingSchools.code, 'SHT-IB'));
    const suspended = await add(ib[1], tokens.school1);
    expect(suspended.status).toBe(403);
    expect(suspended.body).toEqual({ success: false, message: M.schoolSuspended });

    // The board may at any time.
    expect((await add(ib[3], tokens.admin)).status).toBe(200);
    expect((await add(ib[1], tokens.admin)).status).toBe(200);
  });

  it('a candidate under a running exam sanction cannot be entered, for either role', async () => {
    await db().insert(examOffences).values({
      candidateId: ib[2],
      dietId: PAST.id,
      offence: 'Exam malpractice',
      sanction: 'Barred',
      sanctionFrom: boardToday(),
      sanctionUntil: null,
      createdBy: ids.admin,
    });
    const message =
      'This candidate is under an exam sanction with no end date (Exam malpractice), so cannot be entered for a resit';
    for (const token of [tokens.admin, tokens.school1]) {
      const response = await add(ib[2], token);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ success: false, message });
    }
    expect(await stored()).toEqual([]);
  });
});

describe('the lists', () => {
  beforeEach(async () => {
    for (const id of ib) await add(id, tokens.admin);
    for (const id of ca) await add(id, tokens.admin);
  });

  it("the board's shows every school's entries, newest first, with search and paging", async () => {
    const all = await list(tokens.admin);
    expect(all.status).toBe(200);
    expect(all.body.data.total).toBe(6);
    expect(all.body.data.items.map((row: ResitRow) => row.candidate.id)).toEqual([...ib, ...ca].reverse());
    expect((await list(tokens.admin, '?search=calabar')).body.data.total).toBe(2);
    const byIndex = await list(
      tokens.admin,
      `?search=${encodeURIComponent(await candidateIndexOf(t, ib[3]))}`,
    );
    expect(byIndex.body.data.items.map((row: ResitRow) => row.candidate.id)).toEqual([ib[3]]);
    const page = await list(tokens.admin, '?per_page=4&page=2');
    expect(page.body.data).toMatchObject({ page: 2, per_page: 4, total: 6 });
    expect(page.body.data.items).toHaveLength(2);
  });

  it("a school admin's shows only their own school's, whatever the search", async () => {
    const one = await list(tokens.school1);
    expect(one.body.data.total).toBe(4);
    expect(one.body.data.items.every((row: ResitRow) => row.candidate.school.code === 'SHT-IB')).toBe(true);
    expect((await list(tokens.school1, '?search=calabar')).body.data.total).toBe(0);
    const two = await list(tokens.school2);
    expect(two.body.data.items.map((row: ResitRow) => row.candidate.id)).toEqual([...ca].reverse());
    expect((await list(tokens.loose)).body.data).toEqual(emptyPage());
  });

  it('a removed entry is no longer listed', async () => {
    const [newest] = (await list(tokens.school2)).body.data.items as ResitRow[];
    expect((await remove(newest.id, tokens.school2)).status).toBe(200);
    expect((await list(tokens.school2)).body.data.total).toBe(1);
    expect((await list(tokens.admin)).body.data.total).toBe(5);
  });
});

describe('removing a row from the list', () => {
  it("a school admin removes their own school's entry: kept, unlisted, audited with before and after", async () => {
    const id = (await add(ib[0], tokens.school1, { papers: ['Oral'] })).body.data.id as number;
    const response = await remove(id, tokens.school1);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: M.removed });
    const [row] = await db().select().from(resits).where(eq(resits.id, id));
    expect(row.removedBy).toBe(ids.school1);
    expect(await lastAudit(t, 'resit.removed', id)).toMatchObject({
      entity: 'resit',
      actorId: ids.school1,
      before: { candidate_id: ib[0], diet: EXAM, papers: ['Oral'], removed_at: null },
      after: { removed_at: row.removedAt!.toISOString(), removed_by: ids.school1 },
    });
    expect((await remove(id, tokens.school1)).body).toEqual({ success: false, message: M.notFound });
  });

  it("another school's entry is a 404 to a school admin; the board may remove any", async () => {
    const id = (await add(ca[0], tokens.school2)).body.data.id as number;
    expect((await remove(id, tokens.school1)).status).toBe(404);
    expect((await remove(id, tokens.admin)).status).toBe(200);
    expect(await lastAudit(t, 'resit.removed', id)).toMatchObject({ actorId: ids.admin });
  });

  it('a school admin may not remove while registration is closed or the school is suspended', async () => {
    const id = (await add(ib[0], tokens.school1)).body.data.id as number;
    await db().update(courseHeaders).set({ registrationStatus: 'closed' });
    expect((await remove(id, tokens.school1)).body).toEqual({
      success: false,
      message: M.registrationClosed,
    });
    await db().update(courseHeaders).set({ registrationStatus: 'open' });
    await db().update(trainingSchools).set({ status: 'suspended' });
    expect((await remove(id, tokens.school1)).body).toEqual({ success: false, message: M.schoolSuspended });
    expect((await list(tokens.school1)).body.data.total).toBe(1);
  });
});

describe('who may', () => {
  it('each role has its own paths (403 on the other) and needs a session (401)', async () => {
    const id = (await add(ib[0], tokens.admin)).body.data.id as number;
    const json = { candidate_index: await candidateIndexOf(t, ib[1]), diet: EXAM, papers: ['Oral'] };
    for (const [role, token] of [
      ['admin', tokens.school1],
      ['school_admin', tokens.admin],
    ] as const) {
      expect((await t.request('GET', RESIT_ENDPOINTS.list[role].path, { token })).status).toBe(403);
      expect((await t.request('POST', RESIT_ENDPOINTS.add[role].path, { token, json })).status).toBe(403);
      expect(
        (await t.request('POST', fillPath(RESIT_ENDPOINTS.remove[role].path, { id }), { token })).status,
      ).toBe(403);
    }
    for (const role of ['admin', 'school_admin'] as const) {
      expect((await t.request('GET', RESIT_ENDPOINTS.list[role].path)).status).toBe(401);
      expect((await t.request('POST', RESIT_ENDPOINTS.add[role].path, { json })).status).toBe(401);
      expect((await t.request('POST', fillPath(RESIT_ENDPOINTS.remove[role].path, { id }))).status).toBe(401);
    }
    expect((await stored()).filter((row) => row.removedAt === null)).toHaveLength(1);
  });
});
