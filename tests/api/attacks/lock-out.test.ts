import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../../contract/auth';
import { KNOWN_BROWSER_COOKIE } from '../../../server/auth/knownBrowsers';
import { LOGIN_LIMITS } from '../../../server/auth/service';
import { throttleHits } from '../../../server/db/schema';
import { DEMO_PASSWORD } from '../../../server/demo';
import { startTestPortal, type TestPortal } from '../portal';

/**
 * Attack class: lock-out by strangers. Wrong passwords are limited per account and address, and an
 * account-wide limit (100 a day, NIST SP 800-63B's most) stops unknown browsers only: a browser that
 * signed in to the account before (OWASP's device cookie) still can. The portal believes
 * X-Forwarded-For from loopback (TRUST_PROXY), so a test can speak from many addresses.
 */

let t: TestPortal;
const SCHOOL1 = 'school1@example.org';
const SCHOOL2 = 'school2@example.org';

beforeAll(async () => {
  t = await startTestPortal({ TRUST_PROXY: 'loopback' });
});
afterAll(() => t?.close());
beforeEach(async () => {
  await t.portal.database.db.delete(throttleHits);
});

const login = (email: string, password: string, address: string, browser?: string) =>
  t.request('POST', '/api/auth/login', {
    json: { email, password },
    headers: {
      'x-forwarded-for': address,
      ...(browser ? { cookie: `${KNOWN_BROWSER_COOKIE}=${browser}` } : {}),
    },
  });

/** A whole sign-in from this address; answers the known-browser cookie the portal set. */
async function signIn(email: string, address: string, browser?: string): Promise<string> {
  const started = await login(email, DEMO_PASSWORD, address, browser);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const confirmed = await t.request('POST', '/api/auth/confirm-code', {
    json: { login_id: started.body.data.login_id, code: t.readCode(email) },
    headers: {
      'x-forwarded-for': address,
      ...(browser ? { cookie: `${KNOWN_BROWSER_COOKIE}=${browser}` } : {}),
    },
  });
  expect(confirmed.status).toBe(200);
  const cookie = confirmed.headers.get('set-cookie') ?? '';
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Strict/i);
  expect(cookie).toMatch(/Path=\/api\/auth/);
  return new RegExp(`${KNOWN_BROWSER_COOKIE}=([^;]+)`).exec(cookie)![1];
}

describe('lock-out by strangers', () => {
  it('40 wrong passwords from one address do not stop the real user signing in from another', async () => {
    const answers = [];
    for (let i = 0; i < 40; i++) answers.push((await login(SCHOOL1, 'guess-' + i, '203.0.113.66')).status);
    expect(answers.filter((status) => status === 422)).toHaveLength(LOGIN_LIMITS.perAccountAndAddress);
    expect(answers.filter((status) => status === 429)).toHaveLength(40 - LOGIN_LIMITS.perAccountAndAddress);
    await signIn(SCHOOL1, '198.51.100.7');
  });

  it('wrong passwords from many addresses stop unknown browsers at the account-wide limit, never a known one', async () => {
    const known = await signIn(SCHOOL1, '198.51.100.8');
    const otherAccountsBrowser = await signIn(SCHOOL2, '198.51.100.9');

    // A hundred strangers, one wrong password each (NIST's most), all checked.
    const strangers = await Promise.all(
      Array.from({ length: LOGIN_LIMITS.perAccountFromUnknown }, (_, i) =>
        login(SCHOOL1, `guess-${i}`, `10.${Math.floor(i / 250)}.${i % 250}.1`),
      ),
    );
    expect(strangers.every((answer) => answer.status === 422)).toBe(true);

    // Now any unknown browser is refused, even with the right password...
    const unknown = await login(SCHOOL1, DEMO_PASSWORD, '198.51.100.10');
    expect(unknown).toMatchObject({ status: 429, body: { message: AUTH_MESSAGES.tooManyAttempts } });
    // ...and so is one known to another account, or a forged cookie: they count as unknown.
    expect((await login(SCHOOL1, DEMO_PASSWORD, '198.51.100.10', otherAccountsBrowser)).status).toBe(429);
    expect(
      (await login(SCHOOL1, DEMO_PASSWORD, '198.51.100.10', `${known.split('.')[0]}.${'A'.repeat(43)}`))
        .status,
    ).toBe(429);

    // The owner's browser still signs in, from any address; and once it has, strangers' run is over.
    await signIn(SCHOOL1, '203.0.113.99', known);
    await signIn(SCHOOL1, '198.51.100.11');
  });

  it('a known browser has its own limit on wrong passwords', async () => {
    const known = await signIn(SCHOOL2, '198.51.100.12');
    const answers = [];
    for (let i = 0; i < LOGIN_LIMITS.perKnownBrowser + 2; i++) {
      answers.push((await login(SCHOOL2, `guess-${i}`, `192.0.2.${i + 1}`, known)).status);
    }
    expect(answers).toEqual([...Array(LOGIN_LIMITS.perKnownBrowser).fill(422), 429, 429]);
    // The account itself is not locked: an unknown browser elsewhere still signs in.
    await signIn(SCHOOL2, '198.51.100.13');
  });
});
