import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CANDIDATE_OUTCOME_MESSAGES as O,
  CANDIDATE_RULE_MESSAGES as R,
  CANDIDATES_REGISTERED_KIND,
  type CandidateRow,
} from '../../contract/candidates';
import type { Role } from '../../contract/roles';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';
import { REGISTRATION_ENDPOINTS } from '../../contract/registration.endpoints';
import { fillPath } from '../../contract/endpoint';
import { issueToken } from '../../server/auth/tokens';
import {
  auditLog,
  courseHeaders,
  notifications,
  registrations,
  trainingSchools,
} from '../../server/db/schema';
import { addUser, emptyPage, regStatusOf, seedCandidates, userIdOf, writeRegStatus } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Registered candidates: each role's list (a school admin sees only their own school's), the reg_status
 * toggle with its rules, and the board's notification when a school admin registers candidates.
 */

let t: TestPortal;
const db = () => t.portal.database.db;
const tokens = {} as Record<'admin' | 'school1' | 'school2' | 'loose', string>;
/** Candidates of SHT-IB (school1's school) and CHT-CA (school2's). */
const ib: number[] = [];
const ca: number[] = [];

beforeAll(async () => {
  t = await startTestPortal();
  tokens.admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
  tokens.school1 = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
  tokens.school2 = (await issueToken(db(), await userIdOf(t, 'school2@example.org'), 60)).token;
  const loose = await addUser(t, { email: 'loose@example.org', name: 'No School', role: 'school_admin' });
  tokens.loose = (await issueToken(db(), loose, 60)).token;
  ib.push(
    ...(await seedCandidates(
      t,
      Array.from({ length: 12 }, (_, i) => ({
        first_name: 'Ibadan',
        last_name: `Candidate${String(i + 1).padStart(2, '0')}`,
        school: 'SHT-IB',
        course_header: i < 10 ? 'A1' : 'A2',
        // The board has checked their documents: registration needs it.
        verified: true,
      })),
    )),
  );
  ca.push(
    ...(await seedCandidates(
      t,
      Array.from({ length: 4 }, (_, i) => ({
        first_name: 'Calabar',
        last_name: `Candidate${String(i + 1).padStart(2, '0')}`,
        school: 'CHT-CA',
        course_header: 'A1',
        verified: true,
        reg_status: i === 0 ? ('registered' as const) : ('unregistered' as const),
      })),
    )),
  );
});
afterAll(() => t?.close());

/** Every test starts with registration open, schools active, no notifications, and nobody registered but
 * the first Calabar candidate. */
beforeEach(async () => {
  await db().update(courseHeaders).set({ registrationStatus: 'open' });
  await db().update(trainingSchools).set({ status: 'active' });
  await db().delete(notifications);
  await db().delete(registrations);
  await writeRegStatus(t, ca[0], 'registered');
});

const listPath = {
  admin: REGISTRATION_ENDPOINTS.registered.admin.path,
  school_admin: REGISTRATION_ENDPOINTS.registered.school_admin.path,
};
const regStatus = (role: Role, id: number, json: unknown, token: string) =>
  t.request('POST', fillPath(CANDIDATE_ENDPOINTS.regStatus[role].path, { id }), { token, json });
const register = (id: number, token = tokens.school1) =>
  regStatus('school_admin', id, { reg_status: 'registered' }, token);

const boardNotifications = () =>
  db()
    .select()
    .from(notifications)
    .where(eq(notifications.kind, CANDIDATES_REGISTERED_KIND))
    .orderBy(notifications.id);

describe('the registered-candidates lists', () => {
  it("the board's: every school's candidates, with reg_status, newest first", async () => {
    const response = await t.request('GET', `${listPath.admin}?per_page=100`, { token: tokens.admin });
    expect(response.status).toBe(200);
    const page = response.body.data;
    expect(page.total).toBe(16);
    expect(new Set(page.items.map((row: CandidateRow) => row.school.code))).toEqual(
      new Set(['SHT-IB', 'CHT-CA']),
    );
    expect(page.items[0].id).toBe(ca[3]);
    expect(page.items.find((row: CandidateRow) => row.id === ca[0]).reg_status).toBe('registered');
  });

  it("the board's filters: search, course header, reg_status, school", async () => {
    const get = async (query: string) =>
      (await t.request('GET', `${listPath.admin}${query}`, { token: tokens.admin })).body.data;
    expect((await get('?reg_status=registered')).items.map((row: CandidateRow) => row.id)).toEqual([ca[0]]);
    expect((await get('?course_header=A2')).total).toBe(2);
    expect((await get('?search=calabar')).total).toBe(4);
    expect((await get('?school=CHT-CA')).total).toBe(4);
  });

  it("a school admin's: only their own school's, whatever the query asks", async () => {
    const response = await t.request('GET', `${listPath.school_admin}?per_page=100`, {
      token: tokens.school1,
    });
    expect(response.status).toBe(200);
    expect(response.body.data.total).toBe(12);
    expect(response.body.data.items.map((row: CandidateRow) => row.id).sort()).toEqual([...ib].sort());

    for (const query of [
      '?school=CHT-CA',
      '?search=calabar',
      `?search=${encodeURIComponent('Calabar Candidate01')}`,
    ]) {
      const other = await t.request('GET', `${listPath.school_admin}${query}`, { token: tokens.school1 });
      expect(other.status).toBe(200);
      expect(
        other.body.data.items.every((row: CandidateRow) => row.school.code === 'SHT-IB'),
        query,
      ).toBe(true);
    }
    const two = await t.request('GET', listPath.school_admin, { token: tokens.school2 });
    expect(two.body.data.total).toBe(4);
    expect(two.body.data.items.every((row: CandidateRow) => row.school.code === 'CHT-CA')).toBe(true);
  });

  it("a school admin's filters: search, course header, reg_status, paging", async () => {
    const get = async (query: string) =>
      (await t.request('GET', `${listPath.school_admin}${query}`, { token: tokens.school1 })).body.data;
    expect((await get('?course_header=A2')).items.map((row: CandidateRow) => row.last_name)).toEqual([
      'Candidate12',
      'Candidate11',
    ]);
    expect((await get('?search=candidate03')).items.map((row: CandidateRow) => row.id)).toEqual([ib[2]]);
    expect((await get('?reg_status=registered')).total).toBe(0);
    expect(await get('?per_page=5&page=3')).toMatchObject({ page: 3, per_page: 5, total: 12 });
    expect((await get('?per_page=5&page=3')).items).toHaveLength(2);
  });

  it('a school admin without a school sees nothing', async () => {
    const response = await t.request('GET', listPath.school_admin, { token: tokens.loose });
    expect(response.body).toEqual({
      success: true,
      data: emptyPage(),
    });
  });

  it('each role has its own path (403 on the other) and needs a session (401)', async () => {
    expect((await t.request('GET', listPath.admin, { token: tokens.school1 })).status).toBe(403);
    expect((await t.request('GET', listPath.school_admin, { token: tokens.admin })).status).toBe(403);
    expect((await t.request('GET', listPath.school_admin)).status).toBe(401);
  });
});

describe('changing reg_status', () => {
  it('the admin may change any row, audited with before and after, and no notification', async () => {
    const response = await regStatus('admin', ca[1], { reg_status: 'registered' }, tokens.admin);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      message: O.registered,
      data: { id: ca[1], reg_status: 'registered' },
    });
    expect(Object.keys(response.body.data)).not.toContain('fields');
    expect(await regStatusOf(t, ca[1])).toBe('registered');
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'candidate.reg_status_changed'), eq(auditLog.entityId, String(ca[1]))))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(entry).toMatchObject({
      entity: 'candidate',
      actorId: await userIdOf(t, 'admin@example.org'),
      before: { reg_status: 'unregistered' },
      after: { reg_status: 'registered' },
    });
    expect(await boardNotifications()).toEqual([]);

    const back = await regStatus('admin', ca[1], { reg_status: 'unregistered' }, tokens.admin);
    expect(back.body).toMatchObject({ message: O.unregistered, data: { reg_status: 'unregistered' } });
  });

  it('the admin may change a row while registration is closed or the school is suspended', async () => {
    await db().update(courseHeaders).set({ registrationStatus: 'closed' });
    await db().update(trainingSchools).set({ status: 'suspended' });
    const response = await regStatus('admin', ib[0], { reg_status: 'registered' }, tokens.admin);
    expect(response.status).toBe(200);
  });

  it("a school admin may change their own school's candidate while registration is open", async () => {
    const response = await register(ib[0]);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      message: O.registered,
      data: { id: ib[0], reg_status: 'registered', school: { code: 'SHT-IB' } },
    });
    expect(await regStatusOf(t, ib[0])).toBe('registered');
    const unregister = await regStatus('school_admin', ib[0], { reg_status: 'unregistered' }, tokens.school1);
    expect(unregister.body.data.reg_status).toBe('unregistered');
  });

  it('closed registration: 403 with the reason, and nothing changes', async () => {
    await db()
      .update(courseHeaders)
      .set({ registrationStatus: 'closed' })
      .where(eq(courseHeaders.code, 'A1'));
    const response = await register(ib[0]);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, message: R.registrationClosed });
    expect(await regStatusOf(t, ib[0])).toBe('unregistered');
    // Another course header of the same school is still open.
    expect((await register(ib[11])).status).toBe(200);
  });

  it("another school's candidate: 404, as if it did not exist", async () => {
    const response = await register(ca[1]);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, message: O.notFound });
    expect(await register(999_999)).toMatchObject({ status: 404, body: { message: O.notFound } });
    expect(await regStatusOf(t, ca[1])).toBe('unregistered');
  });

  it('a suspended school: 403, and nothing changes', async () => {
    await db().update(trainingSchools).set({ status: 'suspended' }).where(eq(trainingSchools.code, 'SHT-IB'));
    const response = await register(ib[0]);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, message: R.registrationSchoolSuspended });
    expect(await regStatusOf(t, ib[0])).toBe('unregistered');
    expect((await register(ca[1], tokens.school2)).status).toBe(200);
  });

  it('a school admin without a school: 404 for every candidate', async () => {
    expect((await register(ib[0], tokens.loose)).status).toBe(404);
  });

  it.each([{}, { reg_status: 'pending' }, { reg_status: '' }, { reg_status: true }])(
    '%j: 422 Choose one of the options',
    async (json) => {
      const response = await regStatus('school_admin', ib[0], json, tokens.school1);
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ success: false, message: { reg_status: [R.choose] } });
    },
  );

  it('setting the status a candidate already has changes nothing: no audit entry, no notification', async () => {
    const audits = async () =>
      (await db().select().from(auditLog).where(eq(auditLog.action, 'candidate.reg_status_changed'))).length;
    const before = await audits();
    const response = await regStatus('school_admin', ca[0], { reg_status: 'registered' }, tokens.school2);
    expect(response.status).toBe(200);
    expect(response.body.data.reg_status).toBe('registered');
    expect(await audits()).toBe(before);
    expect(await boardNotifications()).toEqual([]);
  });

  it("each role's path only (403), and a session (401)", async () => {
    expect((await regStatus('admin', ib[0], { reg_status: 'registered' }, tokens.school1)).status).toBe(403);
    expect((await regStatus('school_admin', ib[0], { reg_status: 'registered' }, tokens.admin)).status).toBe(
      403,
    );
    const anonymous = await t.request(
      'POST',
      fillPath(CANDIDATE_ENDPOINTS.regStatus.school_admin.path, { id: ib[0] }),
      {
        json: { reg_status: 'registered' },
      },
    );
    expect(anonymous.status).toBe(401);
  });
});

describe("the board's notification when a school admin registers candidates", () => {
  const unread = async () =>
    (await t.request('GET', '/api/admin/training-school-notification-unread', { token: tokens.admin })).body
      .data;

  it('says how many and which school, grouped into one unread notification an hour per school', async () => {
    for (const id of ib.slice(0, 3)) expect((await register(id)).status).toBe(200);
    const rows = await boardNotifications();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      title: 'Candidates registered by School of Health Technology, Ibadan',
      body: 'School of Health Technology, Ibadan (SHT-IB) has registered 3 candidates.',
      data: { count: 3 },
      readAt: null,
      createdBy: await userIdOf(t, 'school1@example.org'),
    });
    // The board sees it in its list and its count, with the school.
    const page = await unread();
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      kind: CANDIDATES_REGISTERED_KIND,
      body: 'School of Health Technology, Ibadan (SHT-IB) has registered 3 candidates.',
      school: { code: 'SHT-IB', name: 'School of Health Technology, Ibadan' },
    });
    const count = await t.request('GET', '/api/admin/count-unread-notification', { token: tokens.admin });
    expect(count.body.data).toBe(1);
  });

  it('one candidate reads in the singular', async () => {
    await register(ib[0]);
    expect((await boardNotifications())[0].body).toBe(
      'School of Health Technology, Ibadan (SHT-IB) has registered 1 candidate.',
    );
  });

  it('each school has its own', async () => {
    await register(ib[0]);
    await register(ca[1], tokens.school2);
    await register(ib[1]);
    const rows = await boardNotifications();
    expect(rows.map((row) => [row.body, row.data])).toEqual([
      ['School of Health Technology, Ibadan (SHT-IB) has registered 2 candidates.', { count: 2 }],
      ['College of Health Technology, Calabar (CHT-CA) has registered 1 candidate.', { count: 1 }],
    ]);
  });

  it('once the board has read it, the next registration starts a new one', async () => {
    await register(ib[0]);
    await register(ib[1]);
    await t.request('POST', '/api/admin/notifications/mark-read', {
      token: tokens.admin,
      json: { all: true },
    });
    await register(ib[2]);
    const rows = await boardNotifications();
    expect(rows.map((row) => [row.data, row.readAt === null])).toEqual([
      [{ count: 2 }, false],
      [{ count: 1 }, true],
    ]);
  });

  it('after an hour, the next registration starts a new one', async () => {
    await register(ib[0]);
    await db()
      .update(notifications)
      .set({ createdAt: sql`now() - interval '61 minutes'` });
    await register(ib[1]);
    await register(ib[2]);
    expect((await boardNotifications()).map((row) => row.data)).toEqual([{ count: 1 }, { count: 2 }]);
  });

  it('unregistering, and changes refused or making no change, tell the board nothing', async () => {
    await regStatus('school_admin', ib[0], { reg_status: 'unregistered' }, tokens.school1);
    await register(ca[0], tokens.school2);
    await register(ca[1]);
    await db().update(courseHeaders).set({ registrationStatus: 'closed' });
    await register(ib[1]);
    expect(await boardNotifications()).toEqual([]);
  });

  it('several registrations at once are counted in one notification', async () => {
    const answers = await Promise.all(ib.slice(0, 6).map((id) => register(id)));
    for (const answer of answers) expect(answer.status).toBe(200);
    const rows = await boardNotifications();
    expect(rows).toHaveLength(1);
    expect(rows[0].data).toEqual({ count: 6 });
  });
});
