import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath } from '../../contract/endpoint';
import type { PaymentDetail } from '../../contract/payments';
import { PAYMENT_ENDPOINTS } from '../../contract/payments.endpoints';
import { issueToken } from '../../server/auth/tokens';
import { paymentIssues, paymentItems, payments } from '../../server/db/schema';
import examples from '../fixtures/paystack-openapi/examples.json';
import { addFee, creditAudits, paymentOf, schoolVerifies, seedPayers, until, userIdOf } from './fixtures';
import { startPaystackFake, type PaystackFake } from './paystackFake';
import { startTestPortal, type TestPortal } from './portal';

/**
 * The portal against a local fake of Paystack (tests/api/paystackFake.ts) that answers Paystack's own
 * documented bodies, through the project's real client (server/payments/provider.ts paystackClient, its
 * base URL at the fake) and the portal's real routes, settle path and job queue (issue 23, items 1-2):
 * - Paystack's verify example (amount 40333 = requested_amount 30050 + fees 10283: an account that
 *   passes its fees on) is credited on what was ordered, its fees recorded and shown; a real mismatch
 *   still goes to review;
 * - a webhook that arrives before initialize has answered is settled once, with no false 'unknown
 *   reference' (the payment is recorded before the provider is asked); a provider that fails the start
 *   leaves nothing holding the candidates.
 * Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */

let t: TestPortal;
let fake: PaystackFake;
const db = () => t.portal.database.db;
const tokens = {} as Record<'admin' | 'school1', string>;
let people: number[] = [];
let fee: number;

/** The documented example's order: ₦300.50. */
const ORDERED = examples.verify['200'].data.requested_amount;

async function start(candidateIds: number[]) {
  const response = await t.request('POST', PAYMENT_ENDPOINTS.start.path, {
    token: tokens.school1,
    json: { fee_id: fee, candidate_ids: candidateIds },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data as { reference: string; access_code: string; amount_kobo: number };
}

const verify = (reference: string) => schoolVerifies(t, tokens.school1, reference);

const issuesOf = (reference: string) =>
  db().select().from(paymentIssues).where(eq(paymentIssues.reference, reference));

beforeAll(async () => {
  fake = await startPaystackFake();
  // The portal is configured as for Paystack (its keys set), its client pointed at the fake instead of
  // api.paystack.co: its routes, settle path and jobs all reach the fake over HTTP.
  t = await startTestPortal(
    { PAYSTACK_SECRET_KEY: fake.secretKey, PAYSTACK_PUBLIC_KEY: 'pk_test_paystack_fake' },
    {
      paystack: { url: fake.url },
      jobs: { pollingIntervalSeconds: 0.5, schedule: false, supervise: false },
    },
  );
  tokens.admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
  tokens.school1 = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
  people = await seedPayers(t, 8, 'Fake', (i) => `Payer${i}`);
  fee = await addFee(t, tokens.admin, { amount: (ORDERED / 100).toFixed(2) });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("Paystack's documented answers", () => {
  it('the client sends Paystack the order (JSON, amount in kobo, our reference)', async () => {
    const started = await start([people[0]]);
    const sent = fake.initialized.find((i) => i.reference === started.reference)!;
    expect(sent.contentType).toContain('application/json');
    expect(sent.body).toMatchObject({
      email: 'school1@example.org',
      amount: ORDERED,
      currency: 'NGN',
      reference: started.reference,
    });
    // The documented example's access code, stored on the payment once Paystack answered.
    expect(started.access_code).toBe(examples.initialize['200'].data.access_code);
    expect((await paymentOf(t, started.reference)).accessCode).toBe(started.access_code);
    // Not paid yet: Paystack says abandoned.
    expect((await verify(started.reference)).body.data.status).toBe('abandoned');
  });

  it('the fee-passing example (40333 = 30050 + 10283) is credited on what was ordered; its fees are recorded and shown', async () => {
    const started = await start([people[1]]);
    fake.answer(started.reference); // the documented example, as it is
    const answer = await verify(started.reference);
    expect(answer.status).toBe(200);
    const detail = answer.body.data as PaymentDetail;
    expect(detail).toMatchObject({
      status: 'paid',
      amount_kobo: 30050,
      charged_kobo: 40333,
      fees_kobo: 10283,
      receipt_number: expect.stringMatching(/^RCT\//),
      simulated: false,
    });
    expect(await issuesOf(started.reference)).toEqual([]);
    expect(await paymentOf(t, started.reference)).toMatchObject({ paidAmountKobo: 40333, feesKobo: 10283 });
    // The receipt reads the same later, for the board too.
    const board = await t.request(
      'GET',
      fillPath(PAYMENT_ENDPOINTS.payment.admin.path, { reference: started.reference }),
      {
        token: tokens.admin,
      },
    );
    expect(board.body.data).toMatchObject({ charged_kobo: 40333, fees_kobo: 10283, amount_kobo: 30050 });
    expect(await creditAudits(t, started.reference)).toBe(1);
  });

  it('an answer without requested_amount (older ones) is settled on its amount', async () => {
    const started = await start([people[2]]);
    fake.answer(started.reference, { requested_amount: undefined, amount: ORDERED, fees: 451 });
    const detail = (await verify(started.reference)).body.data as PaymentDetail;
    expect(detail).toMatchObject({ status: 'paid', charged_kobo: ORDERED, fees_kobo: 451 });
  });

  it('a real mismatch still goes to review: another amount requested, or less charged than ordered', async () => {
    const other = await start([people[3]]);
    fake.answer(other.reference, { requested_amount: 20000, amount: 30283, fees: 10283 });
    expect((await verify(other.reference)).body.data.status).toBe('review');
    const [issue] = await issuesOf(other.reference);
    expect(issue).toMatchObject({ kind: 'amount_mismatch' });
    expect(issue.detail).toContain('₦200.00 requested');

    const short = await start([people[4]]);
    fake.answer(short.reference, { amount: 20000, fees: null });
    expect((await verify(short.reference)).body.data.status).toBe('review');
    expect((await issuesOf(short.reference)).map((i) => i.kind)).toEqual(['amount_mismatch']);
  });
});

describe('a webhook before initialize has answered', () => {
  it('is settled when it comes (the payment is already recorded): credited once, no unknown reference', async () => {
    let statusWhileInitializing: string | undefined;
    fake.beforeInitializeAnswers = async (reference) => {
      // Paystack has the payment: verify answers success, and its webhook comes before initialize's answer.
      fake.answer(reference);
      const delivered = await fake.sendWebhook(
        `${t.url}${PAYMENT_ENDPOINTS.webhook.path}`,
        'charge.success',
        reference,
      );
      expect(delivered.status).toBe(200);
      statusWhileInitializing = (
        await until(
          () => paymentOf(t, reference),
          (p) => p?.status === 'paid',
          15_000,
        )
      )?.status;
    };
    try {
      const started = await start([people[5]]);
      expect(statusWhileInitializing).toBe('paid');
      const payment = await paymentOf(t, started.reference);
      expect(payment).toMatchObject({ status: 'paid', accessCode: started.access_code, feesKobo: 10283 });
      expect(await creditAudits(t, started.reference)).toBe(1);
      expect(await issuesOf(started.reference)).toEqual([]);
      // The browser's verify after it: still credited once.
      expect((await verify(started.reference)).body.data.status).toBe('paid');
      expect(await creditAudits(t, started.reference)).toBe(1);
      const unknown = await db()
        .select()
        .from(paymentIssues)
        .where(eq(paymentIssues.kind, 'unknown_reference'));
      expect(unknown).toEqual([]);
    } finally {
      fake.beforeInitializeAnswers = null;
    }
  });

  it('a provider that fails the start leaves the payment abandoned and the candidate free to pay again', async () => {
    const who = people[6];
    fake.failInitialize = 503;
    let refused;
    try {
      refused = await t.request('POST', PAYMENT_ENDPOINTS.start.path, {
        token: tokens.school1,
        json: { fee_id: fee, candidate_ids: [who] },
      });
    } finally {
      fake.failInitialize = null;
    }
    expect(refused.status).toBeGreaterThanOrEqual(500);
    const tried = fake.initialized.at(-1)!.reference;
    expect(await paymentOf(t, tried)).toMatchObject({
      status: 'abandoned',
      accessCode: null,
      nextCheckAt: null,
    });
    const held = await db()
      .select()
      .from(paymentItems)
      .where(and(eq(paymentItems.candidateId, who), eq(paymentItems.live, true)));
    expect(held).toEqual([]);
    // The school tries again at once.
    const again = await start([who]);
    expect(again.reference).not.toBe(tried);
  });

  it('a payment recorded but never started at the provider (the process stopped meanwhile) is let go by its next check', async () => {
    const who = people[7];
    const [school] = await db().select({ id: paymentItems.trainingSchoolId }).from(paymentItems).limit(1);
    const [stopped] = await db()
      .insert(payments)
      .values({
        reference: 'WHB-STOPPED0000001',
        provider: 'paystack',
        feeId: fee,
        trainingSchoolId: school.id,
        amountKobo: ORDERED,
        status: 'initialised',
        email: 'school1@example.org',
        nextCheckAt: new Date(),
        createdAt: new Date(Date.now() - 5 * 60_000),
      })
      .returning();
    await db().insert(paymentItems).values({
      paymentId: stopped.id,
      feeId: fee,
      trainingSchoolId: school.id,
      candidateId: who,
      amountKobo: ORDERED,
      live: true,
    });
    // Held meanwhile: another start for them is refused.
    const held = await t.request('POST', PAYMENT_ENDPOINTS.start.path, {
      token: tokens.school1,
      json: { fee_id: fee, candidate_ids: [who] },
    });
    expect(held.status).toBe(409);
    // The provider never heard of it (404): abandoned, and the candidate free again.
    const checked = await t.request(
      'POST',
      fillPath(PAYMENT_ENDPOINTS.verify.admin.path, { reference: stopped.reference }),
      {
        token: tokens.admin,
      },
    );
    expect(checked.body.data.status).toBe('abandoned');
    expect(await issuesOf(stopped.reference)).toEqual([]);
    await start([who]);
  });
});
