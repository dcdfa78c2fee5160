import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../../contract/auth';
import { AUTH_ENDPOINTS } from '../../../contract/auth.endpoints';
import { PASSWORD_MESSAGES } from '../../../contract/profile';
import { RESET_MESSAGES } from '../../../contract/schools';
import { FORGOT_LIMIT_PER_EMAIL, RESET_LIMIT_PER_ADDRESS } from '../../../server/auth/passwordReset';
import { sha256 } from '../../../server/secrets';
import {
  CONFIRM_LIMIT_PER_ADDRESS,
  LOGIN_LIMITS,
  MAX_SENDS,
  MAX_WRONG_CODES,
} from '../../../server/auth/service';
import { issueToken } from '../../../server/auth/tokens';
import { signInChallenges, throttleHits } from '../../../server/db/schema';
import { DEMO_PASSWORD } from '../../../server/demo';
import { WRONG_PASSWORD_LIMIT } from '../../../server/profile/service';
import { userIdOf } from '../fixtures';
import { startTestPortal, type ApiResponse, type TestPortal } from '../portal';

/**
 * Attack class: limits under parallel requests. Each burst is 100 (or more) requests sent at once; every
 * limit is taken in the statement that checks it, so exactly the documented number get through and the
 * rest are 429, on PGlite and on PostgreSQL alike. The portal believes X-Forwarded-For from loopback
 * (TRUST_PROXY), so a test can speak from many addresses.
 */

let t: TestPortal;
const db = () => t.portal.database.db;

beforeAll(async () => {
  t = await startTestPortal({ TRUST_PROXY: 'loopback' });
});
afterAll(() => t?.close());
beforeEach(async () => {
  await db().delete(throttleHits);
});

const from = (address: string) => ({ 'x-forwarded-for': address });
const burst = (size: number, send: (i: number) => Promise<ApiResponse>) =>
  Promise.all(Array.from({ length: size }, (_, i) => send(i)));
/** How many answers had each status. */
const statuses = (answers: ApiResponse[]) => {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
};
const login = (email: string, password: string, headers: Record<string, string>) =>
  t.request('POST', '/api/auth/login', { json: { email, password }, headers });

describe('limits under 100 parallel requests', () => {
  it(`lets ${LOGIN_LIMITS.perAddress} of 150 sign-in attempts from one address through`, async () => {
    const answers = await burst(150, (i) =>
      login(`stranger${i}@example.org`, 'whatever', from('203.0.113.1')),
    );
    expect(statuses(answers)).toEqual({ 422: LOGIN_LIMITS.perAddress, 429: 150 - LOGIN_LIMITS.perAddress });
  });

  it(`checks ${LOGIN_LIMITS.perAccountAndAddress} of 100 wrong passwords for one account from one address`, async () => {
    const answers = await burst(100, () =>
      login('school2@example.org', 'wrong-password', from('203.0.113.2')),
    );
    expect(statuses(answers)).toEqual({
      422: LOGIN_LIMITS.perAccountAndAddress,
      429: 100 - LOGIN_LIMITS.perAccountAndAddress,
    });
  });

  it(`answers ${CONFIRM_LIMIT_PER_ADDRESS} of 100 failed confirmations from one address`, async () => {
    const answers = await burst(100, (i) =>
      t.request('POST', '/api/auth/confirm-code', {
        json: { login_id: `unknown-login-${String(i).padStart(3, '0')}-${'z'.repeat(20)}`, code: '123456' },
        headers: from('203.0.113.3'),
      }),
    );
    expect(statuses(answers)).toEqual({
      410: CONFIRM_LIMIT_PER_ADDRESS,
      429: 100 - CONFIRM_LIMIT_PER_ADDRESS,
    });
  });

  it(`compares ${MAX_WRONG_CODES} of 100 guesses at one code, from 100 addresses, and the right code after them fails`, async () => {
    const email = 'school1@example.org';
    const started = await login(email, DEMO_PASSWORD, from('198.51.100.1'));
    expect(started.status).toBe(200);
    const loginId = started.body.data.login_id as string;
    const code = t.readCode(email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const answers = await burst(100, (i) =>
      t.request('POST', '/api/auth/confirm-code', {
        json: { login_id: loginId, code: wrong },
        headers: from(`198.51.100.${i + 2}`),
      }),
    );
    expect(statuses(answers)).toEqual({ 422: MAX_WRONG_CODES - 1, 410: 100 - (MAX_WRONG_CODES - 1) });
    expect(answers.filter((a) => a.body.message === AUTH_MESSAGES.codeVoided)).toHaveLength(1);
    const [row] = await db()
      .select()
      .from(signInChallenges)
      .where(eq(signInChallenges.loginIdHash, sha256(loginId)));
    expect(row.wrongTries).toBe(MAX_WRONG_CODES);
    expect(row.voidedAt).not.toBeNull();
    const right = await t.request('POST', '/api/auth/confirm-code', { json: { login_id: loginId, code } });
    expect(right.status).toBe(410);
  });

  it('mails one new code for 100 resends at once', async () => {
    const email = 'school2@example.org';
    const started = await login(email, DEMO_PASSWORD, from('198.51.100.200'));
    const loginId = started.body.data.login_id as string;
    // As if the first mail went out two minutes ago.
    await db()
      .update(signInChallenges)
      .set({ lastSentAt: sql`now() - interval '2 minutes'` })
      .where(eq(signInChallenges.loginIdHash, sha256(loginId)));
    const answers = await burst(100, () =>
      t.request('POST', '/api/auth/resend-code', { json: { login_id: loginId } }),
    );
    expect(statuses(answers)).toEqual({ 200: 1, 429: 99 });
    const [row] = await db()
      .select()
      .from(signInChallenges)
      .where(eq(signInChallenges.loginIdHash, sha256(loginId)));
    expect(row.sends).toBe(2);
    expect(row.sends).toBeLessThanOrEqual(MAX_SENDS);
  });

  it(`answers ${RESET_LIMIT_PER_ADDRESS} of 100 password resets with a code from one address`, async () => {
    const answers = await burst(100, () =>
      t.request('POST', AUTH_ENDPOINTS.resetPassword.path, {
        json: {
          email: 'school1@example.org',
          code: '000000',
          password: 'new-password-1',
          password_confirmation: 'new-password-1',
        },
        headers: from('203.0.113.4'),
      }),
    );
    expect(statuses(answers)).toEqual({ 422: RESET_LIMIT_PER_ADDRESS, 429: 100 - RESET_LIMIT_PER_ADDRESS });
    expect(answers.find((a) => a.status === 422)?.body.message).toEqual({
      code: [RESET_MESSAGES.codeRejected],
    });
  });

  it(`mails ${FORGOT_LIMIT_PER_EMAIL.max} reset codes for 100 asks about one email`, async () => {
    const answers = await burst(100, (i) =>
      t.request('POST', AUTH_ENDPOINTS.forgotPassword.path, {
        json: { email: 'admin@example.org' },
        headers: from(`192.0.2.${i + 1}`),
      }),
    );
    expect(statuses(answers)).toEqual({
      200: FORGOT_LIMIT_PER_EMAIL.max,
      429: 100 - FORGOT_LIMIT_PER_EMAIL.max,
    });
    // The mails go out after the answers: exactly as many as were let through.
    const mailed = () =>
      fs.readdirSync(path.join(t.dataDir, 'mail')).filter((name) => name.endsWith('admin@example.org.eml'))
        .length;
    await expect.poll(mailed).toBe(FORGOT_LIMIT_PER_EMAIL.max);
  });

  it(`checks ${WRONG_PASSWORD_LIMIT.max} of 100 wrong current passwords on the change-password form`, async () => {
    const { token } = await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60);
    const answers = await burst(100, () =>
      t.request('POST', '/api/training-school-admin/change-password', {
        token,
        json: {
          current_password: 'not-it',
          password: 'new-password-1',
          password_confirmation: 'new-password-1',
        },
      }),
    );
    expect(statuses(answers)).toEqual({ 422: WRONG_PASSWORD_LIMIT.max, 429: 100 - WRONG_PASSWORD_LIMIT.max });
    expect(answers.find((a) => a.status === 422)?.body.message).toBe(PASSWORD_MESSAGES.oldIncorrect);
  });
});
