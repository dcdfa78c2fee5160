import { and, desc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../contract/auth';
import { UNAUTHENTICATED_MESSAGE } from '../../contract/envelope';
import { PASSWORD_MESSAGES } from '../../contract/profile';
import { issueToken } from '../../server/auth/tokens';
import { accessTokens, auditLog, signInChallenges, throttleHits, users } from '../../server/db/schema';
import { DEMO_PASSWORD } from '../../server/db/seed';
import { addUser, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Change password (spec sections 2, 7 and 8): the spec's words for success and for a wrong old
 * password, the server's own rules, and what a change does to the user's other sessions.
 */

const ADMIN = 'admin@example.org';
const SCHOOL1 = 'school1@example.org';
const NEW_PASSWORD = 'a-new-password-2026';
const CHANGED = { success: true, data: { message: 'Password changed successfully' } };
const OLD_INCORRECT = { success: false, message: 'old password incorrect' };

let t: TestPortal;
const db = () => t.portal.database.db;

beforeAll(async () => {
  t = await startTestPortal();
});
afterAll(() => t?.close());
beforeEach(async () => {
  await db().delete(throttleHits);
});

const change = (token: string | undefined, json: object, prefix = '/api/admin') =>
  t.request('POST', `${prefix}/change-password`, { token, json });

const profile = (token: string, prefix = '/api/admin') =>
  t.request('GET', `${prefix}/user-profile-information`, { token });

/** A user of our own for each test that changes a password, so the demo sign-ins stay as they are. */
let counter = 0;
async function freshUser(role: 'admin' | 'school_admin' = 'admin') {
  counter += 1;
  const email = `changer${counter}@example.org`;
  const id = await addUser(t, { email, name: `Changer ${counter}`, role, trainingSchoolId: null });
  return { email, id, prefix: role === 'admin' ? '/api/admin' : '/api/training-school-admin' };
}

describe('a successful change', () => {
  it("answers the spec's words, keeps this session, signs out every other, and the new password signs in", async () => {
    const user = await freshUser();
    const current = await t.signIn(user.email);
    const otherBrowser = await t.signIn(user.email);

    const response = await change(current, {
      current_password: DEMO_PASSWORD,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(CHANGED);

    expect((await profile(current)).status).toBe(200);
    const other = await profile(otherBrowser);
    expect(other.status).toBe(401);
    expect(other.body).toEqual({ message: UNAUTHENTICATED_MESSAGE });

    const old = await t.request('POST', '/api/auth/login', {
      json: { email: user.email, password: DEMO_PASSWORD },
    });
    expect(old.status).toBe(422);
    expect(old.body).toEqual({ success: false, message: { email: [AUTH_MESSAGES.credentialsRejected] } });
    const fresh = await t.signIn(user.email, NEW_PASSWORD);
    expect((await profile(fresh)).status).toBe(200);
  });

  it('works for a school admin on their own path', async () => {
    const user = await freshUser('school_admin');
    const token = await t.signIn(user.email);
    const response = await change(
      token,
      { current_password: DEMO_PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      user.prefix,
    );
    expect(response.body).toEqual(CHANGED);
    await t.signIn(user.email, NEW_PASSWORD);
  });

  it('stores an argon2id hash, and the audit entry names the revoked sessions but no hash', async () => {
    const user = await freshUser();
    const token = await t.signIn(user.email);
    const other = await issueToken(db(), user.id, 10);
    await change(token, {
      current_password: DEMO_PASSWORD,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });

    const [row] = await db().select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id));
    expect(row.hash).toMatch(/^\$argon2id\$/);
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.password_changed'), eq(auditLog.entityId, String(user.id))))
      .orderBy(desc(auditLog.id));
    expect(entry).toMatchObject({ actorId: user.id, impersonatorId: null, entity: 'user', before: null });
    expect(entry.after).toEqual({ revoked_tokens: [other.tokenId] });
    expect(JSON.stringify(entry)).not.toContain('argon2');
    expect(JSON.stringify(entry)).not.toContain(NEW_PASSWORD);
  });

  it('voids a sign-in that was waiting for its mailed code', async () => {
    const user = await freshUser();
    const token = await t.signIn(user.email);
    const pending = await t.request('POST', '/api/auth/login', {
      json: { email: user.email, password: DEMO_PASSWORD },
    });
    const code = t.readCode(user.email);
    await change(token, {
      current_password: DEMO_PASSWORD,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });

    const confirm = await t.request('POST', '/api/auth/confirm-code', {
      json: { login_id: pending.body.data.login_id, code },
    });
    expect(confirm.status).toBe(410);
    const open = await db()
      .select()
      .from(signInChallenges)
      .where(
        and(
          eq(signInChallenges.userId, user.id),
          isNull(signInChallenges.voidedAt),
          isNull(signInChallenges.usedAt),
        ),
      );
    expect(open).toEqual([]);
  });
});

describe('a wrong old password', () => {
  it("is 422 with the string 'old password incorrect', word for word, and changes nothing", async () => {
    const user = await freshUser();
    const token = await t.signIn(user.email);
    const other = await t.signIn(user.email);
    const response = await change(token, {
      current_password: 'not-my-password',
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(OLD_INCORRECT);
    expect((await profile(other)).status).toBe(200);
    await t.signIn(user.email, DEMO_PASSWORD);
  });

  it('is limited to 10 in 15 minutes per user: then 429, even for the right one', async () => {
    const user = await freshUser();
    const token = await t.signIn(user.email);
    const wrong = {
      current_password: 'wrong-guess',
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    };
    for (let i = 0; i < 10; i++) expect((await change(token, wrong)).body).toEqual(OLD_INCORRECT);
    const limited = await change(token, wrong);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ success: false, message: AUTH_MESSAGES.tooManyAttempts });
    const right = await change(token, { ...wrong, current_password: DEMO_PASSWORD });
    expect(right.status).toBe(429);

    // Another user is not held up by this one's guesses.
    const admin = await t.signIn(ADMIN);
    const theirs = await change(admin, {
      current_password: 'wrong-guess',
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(theirs.body).toEqual(OLD_INCORRECT);
  });
});

describe('validation: 422 with field messages', () => {
  let token: string;
  beforeAll(async () => {
    token = (await issueToken(db(), await userIdOf(t, ADMIN), 60)).token;
  });

  it.each([
    [
      'an empty body',
      {},
      {
        current_password: [PASSWORD_MESSAGES.currentRequired],
        password: [PASSWORD_MESSAGES.newRequired],
        password_confirmation: [PASSWORD_MESSAGES.mismatch],
      },
    ],
    [
      'empty strings',
      { current_password: '', password: '', password_confirmation: '' },
      {
        current_password: [PASSWORD_MESSAGES.currentRequired],
        password: [PASSWORD_MESSAGES.newRequired],
        password_confirmation: [PASSWORD_MESSAGES.mismatch],
      },
    ],
    [
      'a new password of 7 characters',
      { current_password: DEMO_PASSWORD, password: 'short12', password_confirmation: 'short12' },
      { password: [PASSWORD_MESSAGES.tooShort] },
    ],
    [
      'a confirmation that does not match',
      { current_password: DEMO_PASSWORD, password: NEW_PASSWORD, password_confirmation: `${NEW_PASSWORD}!` },
      { password_confirmation: [PASSWORD_MESSAGES.mismatch] },
    ],
    [
      'the old password again',
      { current_password: DEMO_PASSWORD, password: DEMO_PASSWORD, password_confirmation: DEMO_PASSWORD },
      { password: [PASSWORD_MESSAGES.sameAsOld] },
    ],
    [
      'numbers instead of text',
      { current_password: 12345678, password: 12345678, password_confirmation: 12345678 },
      {
        current_password: [PASSWORD_MESSAGES.currentRequired],
        password: [PASSWORD_MESSAGES.newRequired],
        password_confirmation: [PASSWORD_MESSAGES.mismatch],
      },
    ],
  ])('%s', async (_name, json, message) => {
    const response = await change(token, json);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message });
  });

  it('checks the fields before the old password, so no guess is counted for a malformed form', async () => {
    await change(token, { current_password: 'wrong', password: 'short', password_confirmation: 'short' });
    expect(await db().select().from(throttleHits)).toEqual([]);
  });

  it('the minimum is 8 characters: exactly 8 is accepted', async () => {
    const user = await freshUser();
    const own = await t.signIn(user.email);
    const response = await change(own, {
      current_password: DEMO_PASSWORD,
      password: '12345678',
      password_confirmation: '12345678',
    });
    expect(response.body).toEqual(CHANGED);
  });
});

describe('who may change a password', () => {
  it('nobody without a token: 401', async () => {
    const response = await change(undefined, {
      current_password: 'x',
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: UNAUTHENTICATED_MESSAGE });
  });

  it("each role on its own path only: 403 on the other's", async () => {
    const admin = (await issueToken(db(), await userIdOf(t, ADMIN), 10)).token;
    const school = (await issueToken(db(), await userIdOf(t, SCHOOL1), 10)).token;
    const body = {
      current_password: DEMO_PASSWORD,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    };
    expect((await change(admin, body, '/api/training-school-admin')).status).toBe(403);
    expect((await change(school, body, '/api/admin')).status).toBe(403);
  });

  it("not an admin signed in as a school admin: the password is the school admin's alone (403)", async () => {
    const adminId = await userIdOf(t, ADMIN);
    const schoolId = await userIdOf(t, SCHOOL1);
    const impersonated = (await issueToken(db(), schoolId, 10, adminId)).token;
    const response = await change(
      impersonated,
      { current_password: DEMO_PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      '/api/training-school-admin',
    );
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, message: PASSWORD_MESSAGES.notWhileImpersonating });
    const live = await db()
      .select()
      .from(accessTokens)
      .where(and(eq(accessTokens.userId, schoolId), isNull(accessTokens.revokedAt)));
    expect(live.length).toBeGreaterThan(0);
    await t.signIn(SCHOOL1, DEMO_PASSWORD);
  });
});
