import fs from 'node:fs';
import path from 'node:path';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { INPUT_MESSAGES } from '../../contract/input';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../contract/auth';
import { AUTH_ENDPOINTS } from '../../contract/auth.endpoints';
import { UNAUTHENTICATED_MESSAGE } from '../../contract/envelope';
import { PASSWORD_MESSAGES } from '../../contract/profile';
import { RESET_MESSAGES } from '../../contract/schools';
import { issueToken } from '../../server/auth/tokens';
import { accessTokens, auditLog, signInChallenges, throttleHits, users } from '../../server/db/schema';
import { DEMO_PASSWORD } from '../../server/demo';
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

describe("'Forgot your password?' (POST /api/auth/forgot-password)", () => {
  const MAILED = { success: true, message: RESET_MESSAGES.codeMailed };
  const forgot = (email: unknown) =>
    t.request('POST', AUTH_ENDPOINTS.forgotPassword.path, { json: { email } });

  /** The reset codes mailed to this address, oldest first. */
  function resetCodesTo(email: string): string[] {
    const dir = path.join(t.dataDir, 'mail');
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .filter((name) => name.endsWith(`-${email}.eml`))
      .sort()
      .map((name) => fs.readFileSync(path.join(dir, name), 'utf8'))
      .map((mail) => /^Subject: Your password reset code: (\d{6})$/m.exec(mail)?.[1])
      .filter((code): code is string => Boolean(code));
  }

  /** The mail goes out after the answer: wait until `count` codes have come. */
  async function waitForCodes(email: string, count: number): Promise<string[]> {
    await expect.poll(() => resetCodesTo(email).length, { timeout: 5_000 }).toBe(count);
    return resetCodesTo(email);
  }

  it('answers the same for an account, an unknown address and a deactivated account; only the account gets a code', async () => {
    const user = await freshUser('school_admin');
    const gone = await freshUser('school_admin');
    await db().update(users).set({ active: false }).where(eq(users.id, gone.id));
    const unknown = 'nobody.here@example.org';

    for (const email of [unknown, gone.email, user.email.toUpperCase()]) {
      const response = await forgot(email);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(MAILED);
    }
    const [code] = await waitForCodes(user.email, 1);
    expect(resetCodesTo(unknown)).toEqual([]);
    expect(resetCodesTo(gone.email)).toEqual([]);

    // The mailed code sets the password, once, and the new one signs in.
    const reset = await t.request('POST', AUTH_ENDPOINTS.resetPassword.path, {
      json: { email: user.email, code, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ success: true, message: RESET_MESSAGES.done });
    expect(await t.signIn(user.email, NEW_PASSWORD)).toBeTruthy();

    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'user.password_reset_requested'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(entry).toMatchObject({ actorId: user.id, entity: 'user', entityId: String(user.id) });
    expect(JSON.stringify(entry.after)).not.toContain(code);
  });

  it('a new request voids the code mailed before it: only the newest mail counts', async () => {
    const user = await freshUser();
    await forgot(user.email);
    await waitForCodes(user.email, 1);
    await forgot(user.email);
    const [first, second] = await waitForCodes(user.email, 2);
    const setWith = (code: string) =>
      t.request('POST', AUTH_ENDPOINTS.resetPassword.path, {
        json: { email: user.email, code, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      });
    if (first !== second) expect((await setWith(first)).status).toBe(422);
    expect((await setWith(second)).status).toBe(200);
  });

  it('holds its limit per email under a parallel burst: 5 an hour, whether or not the account exists', async () => {
    const user = await freshUser();
    for (const email of [user.email, 'nobody.burst@example.org']) {
      const answers = await Promise.all(Array.from({ length: 12 }, () => forgot(email)));
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([...Array(5).fill(200), ...Array(7).fill(429)]);
      for (const answer of answers.filter((a) => a.status === 429)) {
        expect(answer.body).toEqual({ success: false, message: AUTH_MESSAGES.tooManyAttempts });
      }
    }
    await waitForCodes(user.email, 5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(resetCodesTo(user.email)).toHaveLength(5);
  });

  it('holds its limit per address under a parallel burst: 20 an hour from one address', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => forgot(`stranger${i}@example.org`)),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(20).fill(200), ...Array(10).fill(429)]);
  });

  it.each([
    ['', RESET_MESSAGES.emailRequired],
    ['not-an-email', RESET_MESSAGES.emailInvalid],
    [42, RESET_MESSAGES.emailInvalid],
    // Refused for every field before any form's rules (contract/input.ts).
    ['a\u0000b@example.org', INPUT_MESSAGES.unreadable],
    [`${'a'.repeat(300)}@example.org`, RESET_MESSAGES.emailInvalid],
  ])('refuses %j beside the field (422), and counts no try', async (email, message) => {
    const response = await forgot(email);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message: { email: [message] } });
    expect(await db().select().from(throttleHits)).toEqual([]);
  });
});
