import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ENDPOINTS } from '../../../contract/auth.endpoints';
import { ConfigError, loadConfig } from '../../../server/config';
import { auditLog } from '../../../server/db/schema';
import { DEMO_PASSWORD } from '../../../server/demo';
import { startTestPortal, type TestPortal } from '../portal';

/**
 * TRUST_PROXY (issue 10): behind a load balancer every request comes from the balancer's address, so
 * without it every user would share one rate-limit bucket; with it set, the client's address is read
 * from X-Forwarded-For, but only past the proxies it names. Off by default, the header is ignored.
 */

describe('the TRUST_PROXY setting', () => {
  it('is off by default and when 0', () => {
    expect(loadConfig({}).trustProxy).toBeNull();
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBeNull();
  });

  it('takes a number of proxies, or their addresses and networks', () => {
    const one = loadConfig({ TRUST_PROXY: '1' }).trustProxy!;
    expect([one('10.0.0.5', 0), one('203.0.113.7', 1)]).toEqual([true, false]);
    const listed = loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback' }).trustProxy!;
    expect([listed('10.1.2.3', 0), listed('127.0.0.1', 0), listed('203.0.113.7', 0)]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('stops the start with a sentence for a value that is neither', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'the balancer' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'the balancer' })).toThrow(
      "TRUST_PROXY must be a number of proxies, or addresses and networks such as 10.0.0.0/8, 127.0.0.1; it is 'the balancer'.",
    );
    expect(() => loadConfig({ TRUST_PROXY: '99' })).toThrow(
      "TRUST_PROXY must be a number of proxies from 0 to 20; it is '99'.",
    );
  });
});

/** The address the audit log recorded for the newest sign-in of this account. */
async function signedInFrom(t: TestPortal, email: string, forwardedFor: string): Promise<string | null> {
  const headers = { 'x-forwarded-for': forwardedFor };
  const login = await t.request('POST', '/api/auth/login', {
    json: { email, password: DEMO_PASSWORD },
    headers,
  });
  expect(login.status).toBe(200);
  const confirm = await t.request('POST', '/api/auth/confirm-code', {
    json: { login_id: login.body.data.login_id, code: t.readCode(email) },
    headers,
  });
  expect(confirm.status).toBe(200);
  const [entry] = await t.portal.database.db
    .select({ ip: auditLog.ip })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'auth.signed_in'), eq(auditLog.actorId, confirm.body.data.user.id)))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return entry.ip;
}

/** 'Forgot your password?' allows 20 asks an hour from one address (server/auth/passwordReset.ts). */
const FORGOT_PER_ADDRESS = 20;
const forgotFrom = (t: TestPortal, forwardedFor: string, i: number) =>
  t.request('POST', AUTH_ENDPOINTS.forgotPassword.path, {
    json: { email: `nobody${i}@example.org` },
    headers: { 'x-forwarded-for': forwardedFor },
  });

describe('without TRUST_PROXY', () => {
  let t: TestPortal;
  beforeAll(async () => (t = await startTestPortal()));
  afterAll(async () => t?.close());

  it('ignores X-Forwarded-For: the socket is the client, whatever the header claims', async () => {
    expect(await signedInFrom(t, 'school1@example.org', '203.0.113.7')).toBe('127.0.0.1');
    for (let i = 0; i < FORGOT_PER_ADDRESS; i++) {
      expect((await forgotFrom(t, `198.51.100.${i}`, i)).status).toBe(200);
    }
    // A new claimed address each time bought nothing: the socket's bucket is spent.
    expect((await forgotFrom(t, '198.51.100.250', 99)).status).toBe(429);
  });
});

describe('with TRUST_PROXY=1 (one load balancer)', () => {
  let t: TestPortal;
  beforeAll(async () => (t = await startTestPortal({ TRUST_PROXY: '1' })));
  afterAll(async () => t?.close());

  it('records the address the balancer saw, not one the client wrote before it', async () => {
    // The client wrote 198.51.100.1 itself; the balancer appended the address it was reached from.
    expect(await signedInFrom(t, 'school1@example.org', '198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
  });

  it('gives each client its own rate-limit bucket', async () => {
    for (let i = 0; i < FORGOT_PER_ADDRESS; i++) {
      expect((await forgotFrom(t, '203.0.113.20', i)).status).toBe(200);
    }
    expect((await forgotFrom(t, '203.0.113.20', 98)).status).toBe(429);
    // Another user behind the same balancer is not held back by the first one's tries.
    expect((await forgotFrom(t, '203.0.113.21', 99)).status).toBe(200);
  });
});

describe('with TRUST_PROXY naming the proxy', () => {
  let t: TestPortal;
  beforeAll(async () => (t = await startTestPortal({ TRUST_PROXY: 'loopback' })));
  afterAll(async () => t?.close());

  it('believes the header only from the named address', async () => {
    expect(await signedInFrom(t, 'school2@example.org', '203.0.113.9')).toBe('203.0.113.9');
  });
});
