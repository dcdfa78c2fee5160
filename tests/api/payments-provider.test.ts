import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Which provider the portal talks to, and what that widens. With Paystack's keys: Paystack's origins in
 * the SPA pages' CSP only (never the API's or the stored files'), and no sandbox served. Without them:
 * the strict CSP everywhere and the sandbox. A half-set pair of keys stops the start.
 */

const csp = (headers: Headers) => headers.get('content-security-policy') ?? '';

describe('the keys', () => {
  it('takes both or neither, and names the one missing', () => {
    expect(
      loadConfig({ PAYSTACK_SECRET_KEY: 'sk_test_abc', PAYSTACK_PUBLIC_KEY: 'pk_test_abc' }).paystack,
    ).toEqual({
      secretKey: 'sk_test_abc',
      publicKey: 'pk_test_abc',
    });
    expect(loadConfig({}).paystack).toBeNull();
    expect(() => loadConfig({ PAYSTACK_SECRET_KEY: 'sk_live_abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PAYSTACK_SECRET_KEY: 'sk_live_abc' })).toThrow(/PAYSTACK_PUBLIC_KEY is not/);
    expect(() =>
      loadConfig({ PAYSTACK_SECRET_KEY: 'pk_live_abc', PAYSTACK_PUBLIC_KEY: 'pk_live_abc' }),
    ).toThrow(/PAYSTACK_SECRET_KEY must be a Paystack secret key/);
  });
});

describe('with Paystack keys', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal({
      PAYSTACK_SECRET_KEY: 'sk_test_portal',
      PAYSTACK_PUBLIC_KEY: 'pk_test_portal',
    });
  });
  afterAll(() => t?.close());

  it("widens the SPA page's CSP for Paystack alone, and nothing else's", async () => {
    const page = await fetch(`${t.url}/payments`);
    const policy = csp(page.headers);
    // Read by directive: with the pages built (dist/), script-src also names their inline blocks' hashes.
    const directive = (name: string) =>
      policy
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .find(([first]) => first === name)
        ?.slice(1)
        .filter((source) => !source.startsWith("'sha256-"));
    expect(directive('script-src')).toEqual(["'self'", "'unsafe-eval'", 'https://js.paystack.co']);
    expect(directive('frame-src')).toEqual(["'self'", 'https://checkout.paystack.com']);
    expect(directive('connect-src')).toEqual(["'self'", 'https://api.paystack.co']);
    const api = await fetch(`${t.url}/api/health`);
    expect(csp(api.headers)).not.toContain('paystack');
  });

  it('serves no sandbox, and the school is told the provider is Paystack', async () => {
    const script = await fetch(`${t.url}/sandbox/paystack/inline.js`);
    expect(await script.text()).not.toContain('PaystackPop');
    const initialize = await fetch(`${t.url}/sandbox/paystack/transaction/initialize`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_portal_sandbox', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(initialize.headers.get('content-type') ?? '').not.toContain('application/json');
    const token = await t.signIn('school1@example.org');
    const fees = await t.request('GET', '/api/training-school-admin/fees', { token });
    expect(fees.body.data.provider).toEqual({
      name: 'paystack',
      script_url: 'https://js.paystack.co/v2/inline.js',
    });
  });
});

describe('without keys (the sandbox)', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(() => t?.close());

  it('keeps the strict CSP on the SPA and lets only the portal frame the checkout', async () => {
    const policy = csp((await fetch(`${t.url}/payments`)).headers);
    expect(policy).not.toContain('paystack.co');
    expect(policy).not.toContain('unsafe-inline');
    const checkout = await fetch(`${t.url}/sandbox/paystack/checkout/nosuchcode`);
    expect(checkout.status).toBe(404);
    expect(csp(checkout.headers)).toContain("frame-ancestors 'self'");
  });

  it('refuses the sandbox API without its key, and a body past its limit', async () => {
    const unkeyed = await fetch(`${t.url}/sandbox/paystack/transaction/verify/WHB-ANY`);
    expect(unkeyed.status).toBe(401);
    const large = await fetch(`${t.url}/sandbox/paystack/transaction/initialize`, {
      method: 'POST',
      headers: { authorization: t.portal.payments.authorization(), 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x@example.org', amount: 100, metadata: 'x'.repeat(40_000) }),
    });
    expect(large.status).toBe(413);
  });
});
