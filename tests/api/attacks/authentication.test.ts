import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../../contract/auth';
import { UNAUTHENTICATED_MESSAGE } from '../../../contract/envelope';
import { issueToken } from '../../../server/auth/tokens';
import { DEMO_PASSWORD } from '../../../server/demo';
import { userIdOf } from '../fixtures';
import { startTestPortal, type TestPortal } from '../portal';

/**
 * Attack class: authentication. A session is a token the server issued and can revoke: a made-up,
 * altered, expired or signed-out token is a 401; the password alone gives no token (the mailed code
 * does, once); and a deactivated account signs nobody in. The limits on guessing are in
 * parallel-limits.test.ts and lock-out.test.ts.
 */

let t: TestPortal;
let schoolId: number;
const PROFILE = '/api/training-school-admin/user-profile-information';

beforeAll(async () => {
  t = await startTestPortal();
  schoolId = await userIdOf(t, 'school1@example.org');
});
afterAll(() => t?.close());

const profileWith = (token: string) => t.request('GET', PROFILE, { token });
const UNAUTHENTICATED = { status: 401, body: { message: UNAUTHENTICATED_MESSAGE } };

describe('authentication', () => {
  it('refuses a made-up, an altered, and another id paired with a real secret', async () => {
    const { token } = await issueToken(t.portal.database.db, schoolId, 60);
    const [id, secret] = token.split('|');
    for (const forged of [
      'made-up',
      `${id}|${'A'.repeat(secret.length)}`,
      `${id}|${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`,
      `${Number(id) + 1000}|${secret}`,
      `${id}|${secret}|extra`,
    ]) {
      expect(await profileWith(forged), forged).toMatchObject(UNAUTHENTICATED);
    }
    expect((await profileWith(token)).status).toBe(200);
  });

  it('refuses an expired token and a signed-out one', async () => {
    const expired = await issueToken(t.portal.database.db, schoolId, -1);
    expect(await profileWith(expired.token)).toMatchObject(UNAUTHENTICATED);
    const { token } = await issueToken(t.portal.database.db, schoolId, 60);
    expect((await t.request('POST', '/api/auth/logout', { token })).status).toBe(200);
    expect(await profileWith(token)).toMatchObject(UNAUTHENTICATED);
  });

  it('gives no token for the password alone, and the code signs in only once', async () => {
    const email = 'school1@example.org';
    const login = await t.request('POST', '/api/auth/login', { json: { email, password: DEMO_PASSWORD } });
    expect(login.status).toBe(200);
    expect(Object.keys(login.body.data).sort()).toEqual(['email', 'login_id']);
    const confirm = { json: { login_id: login.body.data.login_id, code: t.readCode(email) } };
    expect((await t.request('POST', '/api/auth/confirm-code', confirm)).status).toBe(200);
    expect(await t.request('POST', '/api/auth/confirm-code', confirm)).toMatchObject({
      status: 410,
      body: { message: AUTH_MESSAGES.loginExpired },
    });
  });

  it('answers a wrong password and an unknown account alike', async () => {
    const wrong = await t.request('POST', '/api/auth/login', {
      json: { email: 'school2@example.org', password: 'not-the-password' },
    });
    const unknown = await t.request('POST', '/api/auth/login', {
      json: { email: 'nobody@example.org', password: 'not-the-password' },
    });
    expect(wrong.status).toBe(422);
    expect(unknown).toEqual({ ...wrong, headers: unknown.headers });
  });
});
