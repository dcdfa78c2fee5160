import { and, asc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UNAUTHENTICATED_MESSAGE } from '../../contract/envelope';
import { IMPERSONATION_MESSAGES } from '../../contract/impersonation';
import { issueToken } from '../../server/auth/tokens';
import { sha256 } from '../../server/secrets';
import { accessTokens, auditLog, impersonations, throttleHits, users } from '../../server/db/schema';
import { addUser, profileForm, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * An admin signs in as a school admin and switches back (spec sections 4 and 7, architecture brief
 * section 4): who may start one, what is minted and spent, that only the pairing that started it can
 * end it, that it cannot be nested, and what the audit log keeps.
 */

const ADMIN = 'admin@example.org';
const SCHOOL1 = 'school1@example.org';
const SCHOOL2 = 'school2@example.org';
const REASON = 'Checking why their candidate list is empty';
const START = '/api/admin/impersonate';
const SWITCH_BACK = '/api/auth/switch-back-to-admin';
const ROLE_REFUSED = { success: false, message: 'This is not available for your role.' };
const SWITCH_REFUSED = { success: false, message: IMPERSONATION_MESSAGES.switchBackRefused };

let t: TestPortal;
const db = () => t.portal.database.db;
const ids = {} as Record<'admin' | 'school1' | 'school2' | 'otherAdmin', number>;

beforeAll(async () => {
  t = await startTestPortal();
  ids.admin = await userIdOf(t, ADMIN);
  ids.school1 = await userIdOf(t, SCHOOL1);
  ids.school2 = await userIdOf(t, SCHOOL2);
  ids.otherAdmin = await addUser(t, { email: 'admin2@example.org', name: 'Musa Danjuma', role: 'admin' });
});
afterAll(() => t?.close());
beforeEach(async () => {
  await db().delete(throttleHits);
});

const adminToken = async (id = ids.admin) => (await issueToken(db(), id, 60)).token;
const start = (token: string | undefined, json: object) => t.request('POST', START, { token, json });
const switchBack = (token: string | undefined, json: object) =>
  t.request('POST', SWITCH_BACK, { token, json });
const schoolProfile = (token: string) =>
  t.request('GET', '/api/training-school-admin/user-profile-information', { token });

/** A started impersonation: the admin's spent token and what the start answered. */
async function impersonate(userId = ids.school1, adminId = ids.admin) {
  const admin = await adminToken(adminId);
  const response = await start(admin, { user_id: userId, reason: REASON });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const data = response.body.data as { access_token: string; impersonation_token: string; user: unknown };
  return { admin, ...data };
}

describe('starting', () => {
  it('answers the school admin with the admin as impersonator, a token for them, and a switch-back token', async () => {
    const admin = await adminToken();
    const response = await start(admin, { user_id: ids.school1, reason: REASON });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        user: expect.objectContaining({
          id: ids.school1,
          email: SCHOOL1,
          user_role: 'school_admin',
          training_school: expect.objectContaining({ code: 'SHT-IB' }),
          impersonator: { id: ids.admin, name: 'Adaeze Okafor', email: ADMIN },
        }),
        access_token: expect.stringMatching(/^\d+\|[A-Za-z0-9_-]{20,}$/),
        impersonation_token: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
      },
    });
    const { access_token: token, impersonation_token: switchToken } = response.body.data;

    // The new token is the school admin's, and their profile says who is looking.
    const me = await schoolProfile(token);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({
      id: ids.school1,
      impersonator: { id: ids.admin, name: 'Adaeze Okafor', email: ADMIN },
    });
    // The admin's own token was spent.
    const spent = await t.request('GET', '/api/admin/user-profile-information', { token: admin });
    expect(spent.status).toBe(401);
    expect(spent.body).toEqual({ message: UNAUTHENTICATED_MESSAGE });

    // The row: both users, the reason, the token, only the hash of the switch-back token.
    const [row] = await db()
      .select()
      .from(impersonations)
      .where(eq(impersonations.accessTokenId, Number(token.split('|')[0])));
    expect(row).toMatchObject({
      adminId: ids.admin,
      userId: ids.school1,
      reason: REASON,
      switchBackHash: sha256(switchToken),
      endedAt: null,
      endedBy: null,
    });
    const [minted] = await db().select().from(accessTokens).where(eq(accessTokens.id, row.accessTokenId));
    expect(minted).toMatchObject({ userId: ids.school1, impersonatorId: ids.admin, revokedAt: null });
    expect(JSON.stringify(await db().select().from(impersonations))).not.toContain(switchToken);
  });

  it('is in the audit log: actor the admin, entity the school admin, and the reason', async () => {
    const { access_token: token } = await impersonate(ids.school2);
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'impersonation.started'), eq(auditLog.entityId, String(ids.school2))));
    expect(entry).toMatchObject({ actorId: ids.admin, impersonatorId: null, entity: 'user' });
    expect(entry.after).toMatchObject({ reason: REASON, access_token_id: Number(token.split('|')[0]) });
  });

  it.each([
    ['no reason', { user_id: 2 }, { reason: [IMPERSONATION_MESSAGES.reasonRequired] }],
    [
      'a reason of 9 characters',
      { user_id: 2, reason: '123456789' },
      { reason: [IMPERSONATION_MESSAGES.reasonRequired] },
    ],
    [
      'a reason of spaces',
      { user_id: 2, reason: ' '.repeat(20) },
      { reason: [IMPERSONATION_MESSAGES.reasonRequired] },
    ],
    ['no user', { reason: REASON }, { user_id: [IMPERSONATION_MESSAGES.notSchoolAdmin] }],
    [
      'a user id that is text',
      { user_id: 'two', reason: REASON },
      { user_id: [IMPERSONATION_MESSAGES.notSchoolAdmin] },
    ],
  ])('refuses %s: 422, and the admin stays signed in', async (_name, json, message) => {
    const admin = await adminToken();
    const response = await start(admin, json);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message });
    expect((await t.request('GET', '/api/admin/user-profile-information', { token: admin })).status).toBe(
      200,
    );
  });

  it('refuses an admin as the target (422), and an unknown user (404)', async () => {
    const admin = await adminToken();
    const another = await start(admin, { user_id: ids.otherAdmin, reason: REASON });
    expect(another.status).toBe(422);
    expect(another.body).toEqual({
      success: false,
      message: { user_id: [IMPERSONATION_MESSAGES.notSchoolAdmin] },
    });
    const self = await start(admin, { user_id: ids.admin, reason: REASON });
    expect(self.status).toBe(422);
    const unknown = await start(admin, { user_id: 999_999, reason: REASON });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, message: IMPERSONATION_MESSAGES.notFound });
  });

  it('refuses a deactivated school admin (422)', async () => {
    const id = await addUser(t, { email: 'gone@example.org', name: 'Gone Away', role: 'school_admin' });
    await db().update(users).set({ active: false }).where(eq(users.id, id));
    const response = await start(await adminToken(), { user_id: id, reason: REASON });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      success: false,
      message: { user_id: [IMPERSONATION_MESSAGES.notSchoolAdmin] },
    });
  });

  it('is for admins only: a school admin gets 403, nobody 401', async () => {
    const school = (await issueToken(db(), ids.school1, 10)).token;
    expect((await start(school, { user_id: ids.school2, reason: REASON })).body).toEqual(ROLE_REFUSED);
    const anonymous = await start(undefined, { user_id: ids.school2, reason: REASON });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: UNAUTHENTICATED_MESSAGE });
  });
});

describe('nesting is refused', () => {
  it('the impersonated session cannot start another (it is a school admin: 403)', async () => {
    const { access_token: token } = await impersonate();
    const response = await start(token, { user_id: ids.school2, reason: REASON });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(ROLE_REFUSED);
    expect((await schoolProfile(token)).status).toBe(200);
  });

  it('an admin token that itself records an impersonator is refused with the nesting message', async () => {
    // Not something the API mints; the handler refuses it anyway, should an admin ever be a target.
    const { token } = await issueToken(db(), ids.admin, 10, ids.otherAdmin);
    const response = await start(token, { user_id: ids.school2, reason: REASON });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, message: IMPERSONATION_MESSAGES.nested });
  });
});

describe('switching back', () => {
  it('gives the admin a fresh token and their own profile, spends the impersonated token, and ends the row', async () => {
    const { access_token: token, impersonation_token: switchToken } = await impersonate();
    const response = await switchBack(token, { token: switchToken });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        user: expect.objectContaining({
          id: ids.admin,
          email: ADMIN,
          user_role: 'admin',
          impersonator: null,
        }),
        access_token: expect.stringMatching(/^\d+\|[A-Za-z0-9_-]{20,}$/),
      },
    });
    const adminAgain = response.body.data.access_token as string;
    expect(
      (await t.request('GET', '/api/admin/user-profile-information', { token: adminAgain })).status,
    ).toBe(200);

    const after = await schoolProfile(token);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: UNAUTHENTICATED_MESSAGE });

    const [row] = await db()
      .select()
      .from(impersonations)
      .where(eq(impersonations.accessTokenId, Number(token.split('|')[0])));
    expect(row.endedAt).toBeInstanceOf(Date);
    expect(row.endedBy).toBe('switch_back');

    // Once only: the token that could redeem it is gone.
    expect((await switchBack(token, { token: switchToken })).status).toBe(401);
  });

  it('is in the audit log: actor the admin, over the impersonated session, entity the school admin', async () => {
    const { access_token: token, impersonation_token: switchToken } = await impersonate(ids.school2);
    await switchBack(token, { token: switchToken });
    const entries = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'impersonation.ended'), eq(auditLog.entityId, String(ids.school2))))
      .orderBy(asc(auditLog.id));
    const entry = entries[entries.length - 1];
    expect(entry).toMatchObject({ actorId: ids.admin, impersonatorId: ids.admin, entity: 'user' });
    expect(entry.after).toMatchObject({ reason: REASON, ended_by: 'switch_back' });
  });

  it('refuses a wrong switch-back token (403), and the right one still works after', async () => {
    const { access_token: token, impersonation_token: switchToken } = await impersonate();
    const wrong = await switchBack(token, { token: `${switchToken.slice(0, -2)}xx` });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual(SWITCH_REFUSED);
    expect((await switchBack(token, { token: switchToken })).status).toBe(200);
  });

  it("refuses another pairing's switch-back token, even of the same school admin", async () => {
    const mine = await impersonate(ids.school1, ids.admin);
    const theirs = await impersonate(ids.school1, ids.otherAdmin);
    const other = await impersonate(ids.school2, ids.otherAdmin);
    expect((await switchBack(mine.access_token, { token: theirs.impersonation_token })).body).toEqual(
      SWITCH_REFUSED,
    );
    expect((await switchBack(mine.access_token, { token: other.impersonation_token })).body).toEqual(
      SWITCH_REFUSED,
    );
    expect((await switchBack(theirs.access_token, { token: mine.impersonation_token })).body).toEqual(
      SWITCH_REFUSED,
    );

    // Each pairing still ends with its own, and returns to its own admin.
    const back = await switchBack(theirs.access_token, { token: theirs.impersonation_token });
    expect(back.body.data.user.id).toBe(ids.otherAdmin);
    expect((await switchBack(mine.access_token, { token: mine.impersonation_token })).body.data.user.id).toBe(
      ids.admin,
    );
  });

  it("refuses a school admin's own session, and an admin's (the matrix: 403)", async () => {
    const { impersonation_token: switchToken } = await impersonate();
    const plain = (await issueToken(db(), ids.school1, 10)).token;
    const own = await switchBack(plain, { token: switchToken });
    expect(own.status).toBe(403);
    expect(own.body).toEqual(SWITCH_REFUSED);
    expect((await switchBack(await adminToken(), { token: switchToken })).body).toEqual(ROLE_REFUSED);
    expect((await switchBack(undefined, { token: switchToken })).status).toBe(401);
  });

  it('refuses a missing token field with 422', async () => {
    const { access_token: token } = await impersonate();
    const response = await switchBack(token, {});
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      success: false,
      message: { token: [IMPERSONATION_MESSAGES.switchBackRefused] },
    });
  });

  it('gives no token back to an admin deactivated meanwhile, but still ends the impersonation', async () => {
    const id = await addUser(t, { email: 'leaving@example.org', name: 'Leaving Admin', role: 'admin' });
    const pairing = await impersonate(ids.school2, id);
    await db().update(users).set({ active: false }).where(eq(users.id, id));
    const response = await switchBack(pairing.access_token, { token: pairing.impersonation_token });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(SWITCH_REFUSED);
    expect((await schoolProfile(pairing.access_token)).status).toBe(401);
    // Its one token was spent at the start, and no new one was made.
    const live = await db()
      .select()
      .from(accessTokens)
      .where(and(eq(accessTokens.userId, id), isNull(accessTokens.revokedAt)));
    expect(live).toEqual([]);
  });

  it('logging out of the impersonated session ends it: the switch-back is spent', async () => {
    const { access_token: token, impersonation_token: switchToken } = await impersonate();
    expect((await t.request('POST', '/api/auth/logout', { token })).status).toBe(200);
    const [row] = await db()
      .select()
      .from(impersonations)
      .where(eq(impersonations.accessTokenId, Number(token.split('|')[0])));
    expect(row.endedBy).toBe('logout');
    expect((await switchBack(token, { token: switchToken })).status).toBe(401);
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'impersonation.ended'),
          eq(auditLog.requestId, (await lastRequestId('auth.signed_out'))!),
        ),
      );
    expect(entry).toMatchObject({
      actorId: ids.admin,
      impersonatorId: ids.admin,
      entityId: String(ids.school1),
    });
    expect(entry.after).toMatchObject({ ended_by: 'logout' });
  });
});

async function lastRequestId(action: string) {
  const rows = await db()
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, action))
    .orderBy(asc(auditLog.id));
  return rows[rows.length - 1]?.requestId;
}

describe('while impersonating', () => {
  it("what the admin changes is audited as the school admin's, with the admin as impersonator", async () => {
    const { access_token: token } = await impersonate();
    const response = await t.request(
      'POST',
      '/api/training-school-admin/update-user-training-school-profile',
      {
        token,
        form: profileForm({
          _method: 'POST',
          name: 'Babatunde Adeyemi',
          email: SCHOOL1,
          phone_number: '+234 803 000 0002',
        }),
      },
    );
    expect(response.status).toBe(200);
    const rows = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'user.profile_updated'))
      .orderBy(asc(auditLog.id));
    expect(rows[rows.length - 1]).toMatchObject({ actorId: ids.school1, impersonatorId: ids.admin });
  });
});
