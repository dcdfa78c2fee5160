import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath } from '../../contract/endpoint';
import { PAYMENT_MESSAGES as M } from '../../contract/payments';
import { PAYMENT_ENDPOINTS } from '../../contract/payments.endpoints';
import { issueToken } from '../../server/auth/tokens';
import {
  auditLog,
  fees,
  paymentIssues,
  paymentItems,
  payments,
  sandboxTransactions,
  trainingSchools,
} from '../../server/db/schema';
import { SANDBOX_PREFIX, signBody } from '../../server/payments/provider';
import {
  addFee,
  creditAudits,
  currentDietOf,
  paymentOf,
  sandboxCheckout,
  sandboxUrl,
  seedPayers,
  until,
  userIdOf,
  writeRegStatus,
} from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Fees and payments over HTTP against the sandbox provider the portal serves itself: the fee rules, a
 * school's quote and payment, the one settle path from the browser, the webhook and the job queue
 * (credited once however they arrive), and what lands in the reconciliation queue.
 */

let t: TestPortal;
const db = () => t.portal.database.db;
const tokens = {} as Record<'admin' | 'school1' | 'school2', string>;
let dietCode: string;
let ib: number[] = [];
let ca: number[] = [];
let registrationFee: number;

const SCHOOL = '/api/training-school-admin';
const ADMIN = '/api/admin';

const adminAddsFee = (body: Record<string, unknown>) =>
  addFee(t, tokens.admin, { title: 'Fee', diet: dietCode, ...body });

/** A school admin starts a payment for these candidates; answers its reference and access code. */
async function start(candidateIds: number[], fee = registrationFee, token = tokens.school1) {
  const response = await t.request('POST', PAYMENT_ENDPOINTS.start.path, {
    token,
    json: { fee_id: fee, candidate_ids: candidateIds },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data as { reference: string; access_code: string; amount_kobo: number };
}

/** The payer's choice on the sandbox checkout page. */
async function checkout(accessCode: string, choice: 'pay' | 'decline' | 'pending' | 'abandon') {
  const response = await sandboxCheckout(t, accessCode, choice);
  expect(response.status).toBe(200);
}

const verify = (reference: string, token = tokens.school1, prefix = SCHOOL) =>
  t.request('POST', `${prefix}/payments/${reference}/verify`, { token });

/** A webhook as Paystack sends it, signed with this start's sandbox secret (or another). */
async function webhook(event: string, data: unknown, secret?: string) {
  const body = JSON.stringify({ event, data });
  const signature = secret ? signBody(secret, body) : t.portal.payments.sign(body);
  return fetch(`${t.url}${PAYMENT_ENDPOINTS.webhook.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-paystack-signature': signature },
    body,
  });
}

async function creditedItems(reference: string) {
  const payment = await paymentOf(t, reference);
  const rows = await db()
    .select()
    .from(paymentItems)
    .where(and(eq(paymentItems.paymentId, payment.id), eq(paymentItems.credited, true)));
  return rows.length;
}

beforeAll(async () => {
  t = await startTestPortal({}, { jobs: { pollingIntervalSeconds: 0.5, schedule: false, supervise: false } });
  tokens.admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
  tokens.school1 = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
  tokens.school2 = (await issueToken(db(), await userIdOf(t, 'school2@example.org'), 60)).token;
  dietCode = (await currentDietOf(t)).code;
  ib = await seedPayers(t, 40, 'Payer', (i) => `Ibadan${String(i).padStart(2, '0')}`);
  ca = await seedPayers(t, 3, 'Payer', (i) => `Calabar${i}`, { school: 'CHT-CA' });
  registrationFee = await adminAddsFee({ title: 'Registration fee' });
}, 60_000);

afterAll(() => t?.close());

describe('fees (admin)', () => {
  it('adds a fee with its amount in kobo, lists it, and refuses a bad amount with the form kept field by field', async () => {
    const bad = await t.request('POST', PAYMENT_ENDPOINTS.createFee.path, {
      token: tokens.admin,
      json: { title: '', kind: 'tuition', basis: 'candidate', amount: '15,000.555', diet: 'NOPE-1' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatchObject({
      title: [M.titleRequired],
      kind: [M.kindInvalid],
      amount: [M.amountInvalid],
    });
    const id = await adminAddsFee({
      title: 'Late registration',
      kind: 'late_registration',
      amount: '2500.50',
      course_headers: 'a1\nA2',
    });
    const list = await t.request('GET', `${PAYMENT_ENDPOINTS.fees.path}?kind=late_registration`, {
      token: tokens.admin,
    });
    expect(list.body.data.items).toEqual([
      expect.objectContaining({
        id,
        amount_kobo: 250050,
        course_headers: [expect.objectContaining({ code: 'A1' }), expect.objectContaining({ code: 'A2' })],
        status: 'active',
        paid_payments: 0,
      }),
    ]);
    const unknownDiet = await t.request('POST', PAYMENT_ENDPOINTS.createFee.path, {
      token: tokens.admin,
      json: { title: 'X', kind: 'other', basis: 'school', amount: '10', diet: 'NOPE-1999' },
    });
    expect(unknownDiet.status).toBe(422);
    expect(unknownDiet.body.message).toEqual({ diet: [M.dietUnknown] });
  });

  it('edits, deactivates and deletes a fee nobody has paid, each audited', async () => {
    const id = await adminAddsFee({ title: 'Practical levy', basis: 'school', amount: '50000' });
    const edited = await t.request('POST', fillPath(PAYMENT_ENDPOINTS.updateFee.path, { id: id }), {
      token: tokens.admin,
      json: { title: 'Practical levy 2026', kind: 'other', basis: 'school', amount: '45000', diet: dietCode },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ title: 'Practical levy 2026', amount_kobo: 4_500_000 });
    const off = await t.request('POST', fillPath(PAYMENT_ENDPOINTS.feeStatus.path, { id: id }), {
      token: tokens.admin,
      json: { status: 'inactive' },
    });
    expect(off.body).toMatchObject({ success: true, message: 'Practical levy 2026 is now inactive.' });
    const deleted = await t.request('POST', fillPath(PAYMENT_ENDPOINTS.deleteFee.path, { id: id }), {
      token: tokens.admin,
    });
    expect(deleted.body).toEqual({ success: true, message: M.feeDeleted });
    expect(await db().select().from(fees).where(eq(fees.id, id))).toEqual([]);
    const actions = await db()
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'fee'), eq(auditLog.entityId, String(id))));
    expect(actions.map((a) => a.action)).toEqual([
      'fee.created',
      'fee.updated',
      'fee.status_changed',
      'fee.deleted',
    ]);
  });
});

describe('paying (school admin) through the sandbox', () => {
  it('quotes what the server counts, pays for three candidates, verifies once and prints a receipt', async () => {
    const payable = await t.request('GET', PAYMENT_ENDPOINTS.payableFees.path, { token: tokens.school1 });
    expect(payable.body.data.provider).toEqual({
      name: 'sandbox',
      script_url: `${SANDBOX_PREFIX}/inline.js`,
    });
    const fee = payable.body.data.fees.find((f: { id: number }) => f.id === registrationFee);
    expect(fee).toMatchObject({ unpaid: 40, paid: 0 });

    const quoted = await t.request('POST', PAYMENT_ENDPOINTS.quote.path, {
      token: tokens.school1,
      // What the browser says it costs is not read.
      json: { fee_id: registrationFee, candidate_ids: ib.slice(0, 3), amount: 1 },
    });
    expect(quoted.body.data.amount_kobo).toBe(3 * 1_500_000);

    const started = await start(ib.slice(0, 3));
    expect(started.amount_kobo).toBe(4_500_000);
    expect((await paymentOf(t, started.reference)).status).toBe('initialised');
    await checkout(started.access_code, 'pay');
    const verified = await verify(started.reference);
    expect(verified.status).toBe(200);
    expect(verified.body.message).toBe(M.paid);
    expect(verified.body.data).toMatchObject({
      status: 'paid',
      candidates: 3,
      receipt_number: expect.stringMatching(/^RCT\/\d{4}\/\d{6}$/),
      covered: expect.arrayContaining([expect.objectContaining({ id: ib[0] })]),
    });
    expect(await creditedItems(started.reference)).toBe(3);

    // Those three are no longer unpaid; the receipt reads the same later.
    const after = await t.request('GET', fillPath(PAYMENT_ENDPOINTS.unpaid.path, { id: registrationFee }), {
      token: tokens.school1,
    });
    expect(after.body.data.map((c: { id: number }) => c.id)).not.toContain(ib[0]);
    const receipt = await t.request('GET', `${SCHOOL}/payments/${started.reference}`, {
      token: tokens.school1,
    });
    expect(receipt.body.data.receipt_number).toBe(verified.body.data.receipt_number);
    // Its webhook comes too (the sandbox's job): still credited once.
    await until(
      () => creditAudits(t, started.reference),
      () => false,
      2500,
    );
    expect(await creditAudits(t, started.reference)).toBe(1);
  });

  it('refuses candidates already paid for, another school’s candidates, and a suspended school', async () => {
    const paid = await t.request('POST', PAYMENT_ENDPOINTS.quote.path, {
      token: tokens.school1,
      json: { fee_id: registrationFee, candidate_ids: [ib[0]] },
    });
    expect(paid.status).toBe(409);
    expect(paid.body.message).toBe(M.alreadyPaid);
    const foreign = await t.request('POST', PAYMENT_ENDPOINTS.quote.path, {
      token: tokens.school1,
      json: { fee_id: registrationFee, candidate_ids: [ca[0]] },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.message).toEqual({ candidate_ids: [M.candidatesInvalid] });
    const none = await t.request('POST', PAYMENT_ENDPOINTS.quote.path, {
      token: tokens.school1,
      json: { fee_id: registrationFee, candidate_ids: [] },
    });
    expect(none.body.message).toEqual({ candidate_ids: [M.candidatesRequired] });

    await db().update(trainingSchools).set({ status: 'suspended' }).where(eq(trainingSchools.code, 'CHT-CA'));
    const suspended = await t.request('POST', PAYMENT_ENDPOINTS.start.path, {
      token: tokens.school2,
      json: { fee_id: registrationFee, all: true },
    });
    await db().update(trainingSchools).set({ status: 'active' }).where(eq(trainingSchools.code, 'CHT-CA'));
    expect(suspended.status).toBe(403);
    expect(suspended.body.message).toBe(M.schoolSuspended);
  });

  it('a declined and an abandoned payment each say so and credit nothing', async () => {
    const declined = await start([ib[3]]);
    await checkout(declined.access_code, 'decline');
    const one = await verify(declined.reference);
    expect(one.body).toMatchObject({ message: M.failed, data: { status: 'failed', receipt_number: null } });

    const abandoned = await start([ib[4]]);
    await checkout(abandoned.access_code, 'abandon');
    const two = await verify(abandoned.reference);
    expect(two.body).toMatchObject({ message: M.abandoned, data: { status: 'abandoned' } });
    expect(await creditedItems(declined.reference)).toBe(0);
    expect(await creditedItems(abandoned.reference)).toBe(0);
  });

  it('a school admin cannot read or verify another school’s payment (404, as for none)', async () => {
    const theirs = await start([ca[0]], registrationFee, tokens.school2);
    expect((await verify(theirs.reference)).status).toBe(404);
    expect(
      (await t.request('GET', `${SCHOOL}/payments/${theirs.reference}`, { token: tokens.school1 })).status,
    ).toBe(404);
    expect((await verify('WHB-NOSUCHREFERENCE')).status).toBe(404);
    // The board verifies any reference by hand.
    expect((await verify(theirs.reference, tokens.admin, ADMIN)).body.data.status).toBe('abandoned');
  });
});

describe('one settle path: credited once however it arrives', () => {
  it('refuses a webhook with a bad signature, and acts on none of it', async () => {
    const started = await start([ib[5]]);
    await db()
      .update(sandboxTransactions)
      .set({ status: 'success' })
      .where(eq(sandboxTransactions.reference, started.reference));
    const forged = await webhook('charge.success', { reference: started.reference }, 'sk_test_someone_else');
    expect(forged.status).toBe(400);
    const unsigned = await fetch(`${t.url}${PAYMENT_ENDPOINTS.webhook.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'charge.success', data: { reference: started.reference } }),
    });
    expect(unsigned.status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await paymentOf(t, started.reference)).status).toBe('initialised');
  });

  it('the same webhook replayed three times credits once', async () => {
    const started = await start([ib[6], ib[7]]);
    await db()
      .update(sandboxTransactions)
      .set({ status: 'success', gatewayResponse: 'Approved' })
      .where(eq(sandboxTransactions.reference, started.reference));
    for (let i = 0; i < 3; i += 1) {
      const response = await webhook('charge.success', { reference: started.reference });
      expect(response.status).toBe(200);
    }
    await until(
      () => paymentOf(t, started.reference),
      (p) => p.status === 'paid',
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await creditAudits(t, started.reference)).toBe(1);
    expect(await creditedItems(started.reference)).toBe(2);
  });

  it('webhook before the browser, and the browser before the webhook, each credit once', async () => {
    const first = await start([ib[8]]);
    await checkout(first.access_code, 'pay'); // the sandbox's webhook job runs on its own
    await until(
      () => paymentOf(t, first.reference),
      (p) => p.status === 'paid',
    );
    expect((await verify(first.reference)).body.data.status).toBe('paid');

    const second = await start([ib[9]]);
    await checkout(second.access_code, 'pay');
    expect((await verify(second.reference)).body.data.status).toBe('paid');
    await new Promise((resolve) => setTimeout(resolve, 2500)); // the webhook meanwhile
    for (const reference of [first.reference, second.reference]) {
      expect(await creditAudits(t, reference)).toBe(1);
      expect(await creditedItems(reference)).toBe(1);
    }
    expect((await paymentOf(t, first.reference)).receiptNumber).not.toBe(
      (await paymentOf(t, second.reference)).receiptNumber,
    );
  });

  it('twenty verifies of one reference at once credit it once, with one receipt number', async () => {
    const started = await start(ib.slice(10, 15));
    await db()
      .update(sandboxTransactions)
      .set({ status: 'success' })
      .where(eq(sandboxTransactions.reference, started.reference));
    const answers = await Promise.all(Array.from({ length: 20 }, () => verify(started.reference)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body.data.receipt_number)).size).toBe(1);
    expect(await creditAudits(t, started.reference)).toBe(1);
    expect(await creditedItems(started.reference)).toBe(5);
  });

  it('a wrong amount credits nothing and lands in reconciliation, which the board resolves with a note', async () => {
    const started = await start([ib[15]]);
    await db()
      .update(sandboxTransactions)
      .set({ status: 'success', amountKobo: 100_000 })
      .where(eq(sandboxTransactions.reference, started.reference));
    const answer = await verify(started.reference);
    expect(answer.body).toMatchObject({
      message: M.review,
      data: { status: 'review', receipt_number: null },
    });
    expect(await creditedItems(started.reference)).toBe(0);
    const queue = await t.request('GET', `${PAYMENT_ENDPOINTS.issues.path}?state=open&kind=amount_mismatch`, {
      token: tokens.admin,
    });
    const issue = queue.body.data.items.find(
      (i: { transaction_ref: string }) => i.transaction_ref === started.reference,
    );
    expect(issue).toMatchObject({ kind: 'amount_mismatch', school: { code: 'SHT-IB' }, resolved_at: null });
    expect(issue.detail).toContain('₦1,000.00');

    const empty = await t.request('POST', fillPath(PAYMENT_ENDPOINTS.resolveIssue.path, { id: issue.id }), {
      token: tokens.admin,
      json: { note: ' ' },
    });
    expect(empty.body.message).toEqual({ note: [M.noteRequired] });
    const resolved = await t.request(
      'POST',
      fillPath(PAYMENT_ENDPOINTS.resolveIssue.path, { id: issue.id }),
      {
        token: tokens.admin,
        json: { note: 'Refunded the ₦1,000 through Paystack.' },
      },
    );
    expect(resolved.body).toMatchObject({
      message: M.issueResolved,
      data: { resolution: 'Refunded the ₦1,000 through Paystack.' },
    });
    const again = await t.request('POST', fillPath(PAYMENT_ENDPOINTS.resolveIssue.path, { id: issue.id }), {
      token: tokens.admin,
      json: { note: 'x' },
    });
    expect(again.status).toBe(409);
  });

  it('two paid payments for one candidate: the second credits nobody twice and is queued as a duplicate', async () => {
    const one = await start([ib[16], ib[17]]);
    // Declined, it lets its candidates go (tests/api/payments-once.test.ts): another tab pays for one...
    await checkout(one.access_code, 'decline');
    expect((await verify(one.reference)).body.data.status).toBe('failed');
    const two = await start([ib[17]]);
    // ...and the payer retries the declined card in the first transaction, as Paystack allows.
    await checkout(one.access_code, 'pay');
    await checkout(two.access_code, 'pay');
    expect((await verify(one.reference)).body.data.status).toBe('paid');
    expect((await verify(two.reference)).body.data.status).toBe('paid');
    expect(await creditedItems(two.reference)).toBe(0);
    const [issue] = await db().select().from(paymentIssues).where(eq(paymentIssues.reference, two.reference));
    expect(issue).toMatchObject({ kind: 'duplicate', resolvedAt: null });
    expect(issue.detail).toContain('₦15,000.00');
  });

  it('a pending transfer is asked again by the re-query job and credited when it arrives', async () => {
    const started = await start([ib[18]]);
    await checkout(started.access_code, 'pending');
    const answer = await verify(started.reference);
    expect(answer.body).toMatchObject({ message: M.pending, data: { status: 'pending' } });
    const pending = await paymentOf(t, started.reference);
    expect(pending.nextCheckAt!.getTime()).toBeGreaterThan(Date.now());

    // The transfer arrives; its webhook is lost (the job is asked before it runs), the re-query finds it.
    await db()
      .update(sandboxTransactions)
      .set({ status: 'success' })
      .where(eq(sandboxTransactions.reference, started.reference));
    await db()
      .update(payments)
      .set({ nextCheckAt: sql`now() - interval '1 second'` })
      .where(eq(payments.id, pending.id));
    const id = await t.portal.jobs.send('payment-requery');
    expect(id).toBeTruthy();
    const settled = await until(
      () => paymentOf(t, started.reference),
      (p) => p.status === 'paid',
    );
    expect(settled).toMatchObject({ status: 'paid', nextCheckAt: null });
  });

  it('a payment reversed after credit, and a successful reference we never issued, are queued', async () => {
    const started = await start([ib[19]]);
    await checkout(started.access_code, 'pay');
    await verify(started.reference);
    const reversed = await fetch(sandboxUrl(t, `/transaction/${started.reference}/reverse`), {
      method: 'POST',
      headers: { authorization: t.portal.payments.authorization() },
    });
    expect(reversed.status).toBe(200);
    const issue = await until(
      async () =>
        (await db().select().from(paymentIssues).where(eq(paymentIssues.reference, started.reference)))[0],
      (row) => !!row,
    );
    expect(issue).toMatchObject({ kind: 'reversed' });

    await db().insert(sandboxTransactions).values({
      reference: 'STRANGER-0001',
      accessCode: 'stranger',
      amountKobo: 700_000,
      currency: 'NGN',
      email: 'x@example.org',
      status: 'success',
    });
    expect((await webhook('charge.success', { reference: 'STRANGER-0001' })).status).toBe(200);
    const unknown = await until(
      async () =>
        (await db().select().from(paymentIssues).where(eq(paymentIssues.reference, 'STRANGER-0001')))[0],
      (row) => !!row,
    );
    expect(unknown).toMatchObject({ kind: 'unknown_reference', paymentId: null });
  });

  it('a paid fee keeps its amount and cannot be deleted; the refusal says so', async () => {
    const change = await t.request(
      'POST',
      fillPath(PAYMENT_ENDPOINTS.updateFee.path, { id: registrationFee }),
      {
        token: tokens.admin,
        json: {
          title: 'Registration fee',
          kind: 'registration',
          basis: 'candidate',
          amount: '16000',
          diet: dietCode,
        },
      },
    );
    expect(change.status).toBe(409);
    expect(change.body.message).toBe(M.feePaidLocked);
    const rename = await t.request(
      'POST',
      fillPath(PAYMENT_ENDPOINTS.updateFee.path, { id: registrationFee }),
      {
        token: tokens.admin,
        json: {
          title: 'Registration fee (May)',
          kind: 'registration',
          basis: 'candidate',
          amount: '15000',
          diet: dietCode,
        },
      },
    );
    expect(rename.status).toBe(200);
    const deleted = await t.request(
      'POST',
      fillPath(PAYMENT_ENDPOINTS.deleteFee.path, { id: registrationFee }),
      {
        token: tokens.admin,
      },
    );
    expect(deleted.status).toBe(409);
    expect(deleted.body.message).toBe(M.feePaidLocked);
  });
});

describe('payment histories', () => {
  it('a school sees its own, the board all, filtered by status, with a CSV', async () => {
    const own = await t.request('GET', `${PAYMENT_ENDPOINTS.histories.school_admin.path}?status=paid`, {
      token: tokens.school1,
    });
    expect(own.status).toBe(200);
    expect(own.body.data.items.length).toBeGreaterThan(3);
    expect(
      own.body.data.items.every(
        (p: { school: { code: string }; status: string }) =>
          p.school.code === 'SHT-IB' && p.status === 'paid',
      ),
    ).toBe(true);
    const board = await t.request('GET', `${PAYMENT_ENDPOINTS.histories.admin.path}?school=CHT-CA`, {
      token: tokens.admin,
    });
    expect(board.body.data.items.length).toBeGreaterThan(0);
    expect(board.body.data.items.every((p: { school: { code: string } }) => p.school.code === 'CHT-CA')).toBe(
      true,
    );
    const csv = await fetch(`${t.url}${PAYMENT_ENDPOINTS.histories.school_admin.path}?format=csv`, {
      headers: { authorization: `Bearer ${tokens.school1}` },
    });
    const text = await csv.text();
    expect(text).toContain('Reference');
    expect(text).not.toContain('CHT-CA');
  });
});

describe('effects on registration', () => {
  it('the registered lists say whose registration fee is paid; an unregistered row says nothing', async () => {
    const page = await t.request('GET', `${SCHOOL}/registered-candidates?per_page=100`, {
      token: tokens.school1,
    });
    expect(page.status).toBe(200);
    const byId = new Map(
      page.body.data.items.map((row: { id: number; registration_fee: string | null }) => [
        row.id,
        row.registration_fee,
      ]),
    );
    expect(byId.get(ib[0])).toBe('paid');
    expect(byId.get(ib[30])).toBe('unpaid');
    await writeRegStatus(t, ib[31], 'unregistered');
    const again = await t.request('GET', `${SCHOOL}/registered-candidates?per_page=100`, {
      token: tokens.school1,
    });
    const row = again.body.data.items.find((r: { id: number }) => r.id === ib[31]);
    expect(row.registration_fee).toBeNull();
    // The board's list says the same.
    const board = await t.request('GET', `${ADMIN}/registered-candidates?school=SHT-IB&per_page=100`, {
      token: tokens.admin,
    });
    expect(board.body.data.items.find((r: { id: number }) => r.id === ib[0]).registration_fee).toBe('paid');
  });

  // With reg_status=registered, as the Dashboard's links ask: the filter's `paid` alone also finds a
  // candidate credited and then unregistered, whose Fee is blank (server/candidates/registrationFee.ts).
  it("each registered row's Fee is what the registration_fee filter finds it by, in both roles' lists", async () => {
    type Row = { id: number; reg_status: string; registration_fee: string | null };
    const idsOf = (rows: Row[]) => rows.map((row) => row.id).sort((a, b) => a - b);
    for (const [prefix, token, school] of [
      [SCHOOL, tokens.school1, ''],
      [ADMIN, tokens.admin, '&school=SHT-IB'],
    ]) {
      const all = await t.request('GET', `${prefix}/registered-candidates?per_page=100${school}`, { token });
      expect(all.status).toBe(200);
      const rows = all.body.data.items as Row[];
      expect(rows.length).toBe(all.body.data.total);
      for (const state of ['paid', 'unpaid']) {
        const withFee = rows.filter((row) => row.registration_fee === state);
        expect(withFee.length, `${prefix}: some rows ${state}`).toBeGreaterThan(0);
        expect(withFee.every((row) => row.reg_status === 'registered')).toBe(true);
        const found = await t.request(
          'GET',
          `${prefix}/registered-candidates?per_page=100&reg_status=registered&registration_fee=${state}${school}`,
          { token },
        );
        expect(idsOf(found.body.data.items), `${prefix}: ${state}`).toEqual(idsOf(withFee));
      }
    }
  });
});
