import Ajv from 'ajv';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentDetail } from '../../contract/payments';
import { PAYMENT_ENDPOINTS } from '../../contract/payments.endpoints';
import { issueToken } from '../../server/auth/tokens';
import { loadConfig } from '../../server/config';
import { paymentIssues, sandboxTransactions } from '../../server/db/schema';
import { localCardFee, passedOnFee } from '../../server/payments/paystackRules';
import { webhookBody } from '../../server/payments/sandbox';
import examples from '../fixtures/paystack-openapi/examples.json';
import openapi from '../fixtures/paystack-openapi/openapi-transactions.json';
import { addFee, sandboxCheckout, sandboxUrl, schoolVerifies, seedPayers, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * The sandbox's real answers, over the portal's real HTTP, against the schemas of Paystack's published
 * OpenAPI document (tests/fixtures/paystack-openapi/: initialize, verify, their error bodies) checked
 * by a JSON-schema validator: the bodies, the 404 of an unknown reference, the refusals of a reference,
 * currency or amount Paystack refuses, a form-encoded initialize, and the fees passed on to the payer
 * as Paystack's local-card pricing makes them (SANDBOX_PASS_FEES). Runs on PGlite, and on PostgreSQL
 * with DATABASE_URL.
 */

// OpenAPI 3.0 schemas: `nullable` as OpenAPI means it; `example` and the like are not validation.
const ajv = new Ajv({ nullable: true, allErrors: true });
ajv.addSchema(openapi, 'paystack');
const schema = (pointer: string) => ajv.compile({ $ref: `paystack#${pointer}` });
const json = 'content/application~1json/schema';
const SCHEMAS = {
  initializeRequest: schema('/components/schemas/TransactionInitialize'),
  initialized: schema(`/paths/~1transaction~1initialize/post/responses/200/${json}`),
  initializeRefused: schema(`/paths/~1transaction~1initialize/post/responses/400/${json}`),
  unauthorized: schema(`/components/responses/Unauthorized/${json}`),
  verified: schema(`/paths/~1transaction~1verify~1{reference}/get/responses/200/${json}`),
  verifyData: schema('/components/schemas/VerifyResponse/properties/data'),
  notFound: schema(`/components/responses/NotFound/${json}`),
};

/** The body valid against the schema, or the validator's complaints (so a failure says what). */
function expectValid(validate: Ajv.ValidateFunction, body: unknown) {
  const valid = validate(body);
  expect(valid ? [] : validate.errors!.map((e) => `${e.dataPath} ${e.message}`)).toEqual([]);
}

let t: TestPortal;
const db = () => t.portal.database.db;
const keyed = (more: Record<string, string> = {}) => ({
  authorization: t.portal.payments.authorization(),
  ...more,
});

async function initialize(body: Record<string, unknown>) {
  const response = await fetch(sandboxUrl(t, '/transaction/initialize'), {
    method: 'POST',
    headers: keyed({ 'content-type': 'application/json' }),
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function verify(reference: string) {
  const response = await fetch(sandboxUrl(t, `/transaction/verify/${encodeURIComponent(reference)}`), {
    headers: keyed(),
  });
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  // An account that passes Paystack's fees on to its payers.
  t = await startTestPortal({ SANDBOX_PASS_FEES: '1' });
}, 120_000);

afterAll(() => t?.close());

describe("the fixture's schemas", () => {
  it("take Paystack's own documented examples, and refuse a body that lacks what they require", () => {
    expectValid(SCHEMAS.verified, examples.verify['200']);
    expectValid(SCHEMAS.initialized, examples.initialize['200']);
    expectValid(SCHEMAS.unauthorized, examples.verify['400']);
    const { requested_amount: _, ...older } = examples.verify['200'].data;
    expect(SCHEMAS.verifyData(older)).toBe(false);
    expect(SCHEMAS.initialized({ status: true, message: 'x', data: { access_code: 'a' } })).toBe(false);
  });
});

describe("the sandbox's answers", () => {
  it('initialize and verify, before and after paying, as the OpenAPI document describes them', async () => {
    const order = { email: 'payer@example.org', amount: 1_500_000, currency: 'NGN', reference: 'SHAPE-0001' };
    expectValid(SCHEMAS.initializeRequest, order);
    const started = await initialize({ ...order, metadata: { school: 'SHT-IB' } });
    expect(started.status).toBe(200);
    expectValid(SCHEMAS.initialized, started.body);
    expect(started.body.data.reference).toBe('SHAPE-0001');

    const unpaid = await verify('SHAPE-0001');
    expect(unpaid.status).toBe(200);
    expectValid(SCHEMAS.verified, unpaid.body);
    expect(unpaid.body.data).toMatchObject({
      status: 'abandoned',
      amount: 1_500_000,
      requested_amount: 1_500_000,
    });

    expect((await sandboxCheckout(t, started.body.data.access_code, 'pay')).status).toBe(200);
    const paid = await verify('SHAPE-0001');
    expectValid(SCHEMAS.verified, paid.body);
    // Fees passed on: amount = requested_amount + fees, as in Paystack's verify example.
    const fees = passedOnFee(1_500_000);
    expect(paid.body.data).toMatchObject({
      status: 'success',
      requested_amount: 1_500_000,
      fees,
      amount: 1_500_000 + fees,
      metadata: { school: 'SHT-IB' },
    });

    // Its webhook carries the same transaction.
    const delivered = JSON.parse((await webhookBody(db(), 'charge.success', 'SHAPE-0001'))!);
    expect(delivered.event).toBe('charge.success');
    expectValid(SCHEMAS.verifyData, delivered.data);
    expect(delivered.data).toEqual(paid.body.data);
  });

  it("an account that bears the fees itself: amount = requested_amount, and Paystack's fee taken from it", async () => {
    const started = await initialize({
      email: 'payer@example.org',
      amount: 1_500_000,
      reference: 'SHAPE-0002',
    });
    await db()
      .update(sandboxTransactions)
      .set({ passFees: false })
      .where(eq(sandboxTransactions.reference, 'SHAPE-0002'));
    await sandboxCheckout(t, started.body.data.access_code, 'pay');
    const paid = await verify('SHAPE-0002');
    expectValid(SCHEMAS.verified, paid.body);
    expect(paid.body.data).toMatchObject({ amount: 1_500_000, requested_amount: 1_500_000, fees: 32_500 });
  });

  it('a form-encoded initialize is taken as a JSON one', async () => {
    const form = new URLSearchParams({
      email: 'form@example.org',
      amount: '250000',
      currency: 'NGN',
      reference: 'SHAPE.FORM=3',
      metadata: JSON.stringify({ via: 'form' }),
    });
    const response = await fetch(sandboxUrl(t, '/transaction/initialize'), {
      method: 'POST',
      headers: keyed({ 'content-type': 'application/x-www-form-urlencoded' }),
      body: form.toString(),
    });
    expect(response.status).toBe(200);
    expectValid(SCHEMAS.initialized, await response.json());
    const verified = await verify('SHAPE.FORM=3');
    expectValid(SCHEMAS.verified, verified.body);
    expect(verified.body.data).toMatchObject({
      amount: 250_000,
      customer: { email: 'form@example.org' },
      metadata: { via: 'form' },
    });
  });

  it("an unknown reference is Paystack's 404; a call without the key its 401", async () => {
    const unknown = await verify('NEVER-ISSUED-1');
    expect(unknown.status).toBe(404);
    expectValid(SCHEMAS.notFound, unknown.body);
    expect(unknown.body).toMatchObject({ status: false, message: 'Transaction reference not found' });
    const unkeyed = await fetch(sandboxUrl(t, '/transaction/verify/NEVER-ISSUED-1'));
    expect(unkeyed.status).toBe(401);
    expectValid(SCHEMAS.unauthorized, await unkeyed.json());
  });

  it('refuses what Paystack refuses, with its error body: a reference, currency, amount or email it does not take, a duplicate', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ reference: 'has space' }, 'Invalid transaction reference', 'invalid_reference'],
      [{ reference: 'slash/no' }, 'Invalid transaction reference', 'invalid_reference'],
      [{ reference: 'x'.repeat(101) }, 'Invalid transaction reference', 'invalid_reference'],
      [{ currency: 'EUR' }, 'Currency not supported by merchant', 'unsupported_currency'],
      [{ amount: 4_999 }, 'Invalid Amount Sent', 'invalid_amount'],
      [{ amount: 150.5 }, 'Invalid Amount Sent', 'invalid_amount'],
      [{ currency: 'USD', amount: 199 }, 'Invalid Amount Sent', 'invalid_amount'],
      [{ email: undefined }, 'Email Address is required', 'missing_params'],
      [{ reference: 'SHAPE-0001' }, 'Duplicate Transaction Reference', 'duplicate_reference'],
    ];
    for (const [change, message, code] of cases) {
      const answer = await initialize({ email: 'x@example.org', amount: 5_000, ...change });
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expectValid(SCHEMAS.initializeRefused, answer.body);
      expect(answer.body).toMatchObject({ status: false, message, code, type: 'validation_error' });
    }
    // Each currency's least amount is taken.
    for (const [currency, least] of [
      ['NGN', 5_000],
      ['USD', 200],
      ['GHS', 10],
    ] as const) {
      expect((await initialize({ email: 'x@example.org', amount: least, currency })).status).toBe(200);
    }
  });
});

describe("Paystack's local-card pricing", () => {
  it('1.5% + NGN 100 (the NGN 100 waived below NGN 2,500), capped at NGN 2,000; passed on so the account gets the order', () => {
    expect(localCardFee(200_000)).toBe(3_000);
    expect(localCardFee(1_500_000)).toBe(32_500);
    expect(localCardFee(20_000_000)).toBe(200_000);
    for (const order of [30_050, 200_000, 245_000, 247_000, 1_500_000, 12_000_000, 20_000_000]) {
      const fees = passedOnFee(order);
      // What the account keeps of the amount charged is at least the order (within the cap, exactly).
      const kept = order + fees - localCardFee(order + fees);
      expect(kept, String(order)).toBeGreaterThanOrEqual(order);
      expect(kept - order, String(order)).toBeLessThanOrEqual(1);
    }
    expect(passedOnFee(1_500_000)).toBe(32_995);
    expect(passedOnFee(20_000_000)).toBe(200_000);
    expect(loadConfig({ SANDBOX_PASS_FEES: '1' }).sandboxPassFees).toBe(true);
    expect(loadConfig({}).sandboxPassFees).toBe(false);
  });
});

describe('a school paying through a sandbox that passes its fees on', () => {
  it('is credited (not review), and its receipt shows the charges and the total', async () => {
    const admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
    const school = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
    const [who] = await seedPayers(t, 1, 'Fees', () => 'Passed');
    const fee = await addFee(t, admin);
    const started = await t.request('POST', PAYMENT_ENDPOINTS.start.path, {
      token: school,
      json: { fee_id: fee, candidate_ids: [who] },
    });
    expect(started.status).toBe(200);
    const checkout = await (await fetch(sandboxUrl(t, `/checkout/${started.body.data.access_code}`))).text();
    expect(checkout).toContain('₦15,329.95');
    await sandboxCheckout(t, started.body.data.access_code, 'pay');
    const verified = await schoolVerifies(t, school, started.body.data.reference);
    const detail = verified.body.data as PaymentDetail;
    expect(detail).toMatchObject({
      status: 'paid',
      amount_kobo: 1_500_000,
      fees_kobo: 32_995,
      charged_kobo: 1_532_995,
    });
    expect(
      await db().select().from(paymentIssues).where(eq(paymentIssues.reference, started.body.data.reference)),
    ).toEqual([]);
  });
});
