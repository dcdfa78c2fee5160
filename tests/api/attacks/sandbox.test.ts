import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath } from '../../../contract/endpoint';
import { SANDBOX_NOTICE } from '../../../contract/payments';
import { PAYMENT_ENDPOINTS } from '../../../contract/payments.endpoints';
import { issueToken } from '../../../server/auth/tokens';
import { paymentIssues, payments, sandboxTransactions } from '../../../server/db/schema';
import { addFee, sandboxCheckout, sandboxUrl, schoolVerifies, seedPayers, userIdOf } from '../fixtures';
import { startTestPortal, type TestPortal } from '../portal';

/**
 * The sandbox provider as a stranger meets it (issue 22): it answers only the portal's own calls. Its API
 * needs this start's random secret key, its checkout's choices the transaction's access code (given only
 * to the paying school admin's browser), and the portal's webhook an HMAC under that secret. A stranger
 * who knows a school's payment reference, or the key the sandbox once had in its source, can neither
 * settle the payment nor put anything in the reconciliation queue.
 */

let t: TestPortal;
const db = () => t.portal.database.db;
let school: string;
let started: { reference: string; access_code: string };
const OLD_KEY = 'sk_test_portal_sandbox';
const sign = (secret: string, body: string) => createHmac('sha512', secret).update(body).digest('hex');

beforeAll(async () => {
  t = await startTestPortal({}, { jobs: { pollingIntervalSeconds: 0.5, schedule: false, supervise: false } });
  school = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
  const admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
  const fee = await addFee(t, admin);
  const [candidate] = await seedPayers(t, 1, 'Target', () => 'Payer');
  const answer = await t.request('POST', PAYMENT_ENDPOINTS.start.path, {
    token: school,
    json: { fee_id: fee, candidate_ids: [candidate] },
  });
  expect(answer.status).toBe(200);
  started = answer.body.data;
  // The school's own browser leaves the transfer pending, and the portal records that.
  const pending = await sandboxCheckout(t, started.access_code, 'pending');
  expect(pending.status).toBe(200);
  const verified = await schoolVerifies(t, school, started.reference);
  expect(verified.body.data.status).toBe('pending');
}, 120_000);

afterAll(() => t?.close());

async function unchanged() {
  // Whatever the sandbox was told, the portal's own verify still hears 'pending' and credits nothing.
  const verified = await schoolVerifies(t, school, started.reference);
  expect(verified.body.data).toMatchObject({ status: 'pending', receipt_number: null });
  const [book] = await db()
    .select()
    .from(sandboxTransactions)
    .where(eq(sandboxTransactions.reference, started.reference));
  expect(book.status).toBe('ongoing');
  const [payment] = await db().select().from(payments).where(eq(payments.reference, started.reference));
  expect(payment.status).toBe('pending');
  expect(await db().select().from(paymentIssues)).toEqual([]);
}

describe('a stranger and the sandbox', () => {
  it("cannot call the sandbox's API without this start's secret key, nor with the key it once had", async () => {
    for (const authorization of [undefined, `Bearer ${OLD_KEY}`, 'Bearer ', `Bearer ${'a'.repeat(64)}`]) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (authorization) headers.authorization = authorization;
      const initialize = await fetch(sandboxUrl(t, '/transaction/initialize'), {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: 'x@example.org', amount: 700_000, reference: 'STRANGER-0001' }),
      });
      expect(initialize.status).toBe(401);
      const verify = await fetch(sandboxUrl(t, `/transaction/verify/${started.reference}`), { headers });
      expect(verify.status).toBe(401);
      for (const action of ['complete', 'reverse']) {
        const moved = await fetch(sandboxUrl(t, `/transaction/${started.reference}/${action}`), {
          method: 'POST',
          headers,
        });
        expect(moved.status).toBe(401);
      }
    }
    expect(
      await db().select().from(sandboxTransactions).where(eq(sandboxTransactions.reference, 'STRANGER-0001')),
    ).toEqual([]);
    await unchanged();
  });

  it("cannot press Pay on a school's checkout without its access code", async () => {
    for (const code of [started.reference, 'demo1shtib', '0'.repeat(32), `${started.access_code}x`]) {
      const pay = await fetch(sandboxUrl(t, `/checkout/${encodeURIComponent(code)}/pay`), { method: 'POST' });
      expect(pay.status).toBe(404);
      const page = await fetch(sandboxUrl(t, `/checkout/${encodeURIComponent(code)}`));
      expect(page.status).toBe(404);
    }
    await unchanged();
  });

  it('cannot have a webhook believed: unsigned, signed with the old key, or with a guess', async () => {
    const body = JSON.stringify({
      event: 'charge.success',
      data: { reference: started.reference, status: 'success', amount: 1_500_000 },
    });
    const stranger = JSON.stringify({
      event: 'charge.success',
      data: { reference: 'STRANGER-0002', status: 'success', amount: 700_000 },
    });
    for (const payload of [body, stranger]) {
      for (const signature of [undefined, sign(OLD_KEY, payload), sign('sk_test_guess', payload)]) {
        const response = await fetch(`${t.url}${PAYMENT_ENDPOINTS.webhook.path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(signature ? { 'x-paystack-signature': signature } : {}),
          },
          body: payload,
        });
        expect(response.status).toBe(400);
      }
    }
    // Given time, no job settles anything either.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await unchanged();
  });

  it('the portal itself still drives its sandbox, and the checkout says payments are simulated', async () => {
    const page = await fetch(sandboxUrl(t, `/checkout/${started.access_code}`));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(SANDBOX_NOTICE);
    const verify = await fetch(sandboxUrl(t, `/transaction/verify/${started.reference}`), {
      headers: { authorization: t.portal.payments.authorization() },
    });
    expect(verify.status).toBe(200);
    const receipt = await t.request(
      'GET',
      fillPath(PAYMENT_ENDPOINTS.payment.school_admin.path, { reference: started.reference }),
      { token: school },
    );
    expect(receipt.body.data).toMatchObject({ simulated: true, notice: SANDBOX_NOTICE });
  });
});
