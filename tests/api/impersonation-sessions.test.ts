import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAUTHENTICATED_MESSAGE } from '../../contract/envelope';
import { userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Switching back from an impersonation ends that impersonation's pair of tokens only (issue 22): the
 * admin's other sessions, signed in elsewhere (another browser, another computer), go on working.
 */

const ADMIN = 'admin@example.org';
const SCHOOL1 = 'school1@example.org';
const ADMIN_PROFILE = '/api/admin/user-profile-information';
const SCHOOL_PROFILE = '/api/training-school-admin/user-profile-information';

let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal();
});
afterAll(() => t?.close());

describe('switching back from an impersonation', () => {
  it("leaves the admin's other sessions signed in, and ends the impersonation's tokens", async () => {
    const here = await t.signIn(ADMIN);
    const elsewhere = await t.signIn(ADMIN);
    expect(here).not.toBe(elsewhere);

    const started = await t.request('POST', '/api/admin/impersonate', {
      token: here,
      json: { user_id: await userIdOf(t, SCHOOL1), reason: 'Checking their candidate list' },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const impersonated = started.body.data.access_token as string;
    const switchToken = started.body.data.impersonation_token as string;
    // Starting spends the token it started from, and only that one.
    expect((await t.request('GET', ADMIN_PROFILE, { token: here })).status).toBe(401);
    expect((await t.request('GET', ADMIN_PROFILE, { token: elsewhere })).status).toBe(200);

    const back = await t.request('POST', '/api/auth/switch-back-to-admin', {
      token: impersonated,
      json: { token: switchToken },
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const adminAgain = back.body.data.access_token as string;

    // The other session goes on; so does the fresh admin token.
    const other = await t.request('GET', ADMIN_PROFILE, { token: elsewhere });
    expect(other.status).toBe(200);
    expect(other.body.data.email).toBe(ADMIN);
    expect((await t.request('GET', ADMIN_PROFILE, { token: adminAgain })).status).toBe(200);
    // The impersonation's own token is dead, and so is the one it was started from.
    const dead = await t.request('GET', SCHOOL_PROFILE, { token: impersonated });
    expect(dead.status).toBe(401);
    expect(dead.body).toEqual({ message: UNAUTHENTICATED_MESSAGE });
    expect((await t.request('GET', ADMIN_PROFILE, { token: here })).status).toBe(401);
    // The switch-back token was spent with it.
    expect(
      (
        await t.request('POST', '/api/auth/switch-back-to-admin', {
          token: impersonated,
          json: { token: switchToken },
        })
      ).status,
    ).toBe(401);
  });
});
