import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath } from '../../contract/endpoint';
import { PAYMENT_MESSAGES as M, type PayableFee } from '../../contract/payments';
import { PAYMENT_ENDPOINTS } from '../../contract/payments.endpoints';
import { issueToken } from '../../server/auth/tokens';
import { dietExtensions, diets, paymentItems, payments, registrations, resits } from '../../server/db/schema';
import {
  addFee,
  currentDietOf,
  sandboxCheckout,
  sandboxUrl,
  schoolIdOf,
  schoolVerifies,
  seedCandidates,
  seedPayers,
  userIdOf,
} from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * One candidate, one payment per fee (issue 22): while a payment in progress (started or pending) or paid
 * holds a candidate for a fee, another is refused with the reference that holds them, checked and
 * recorded in one statement (the partial unique indexes on live payment items), so parallel starts make
 * one payment; a declined, abandoned or reviewed payment lets them go. And a fee is owed only by the
 * candidates it concerns (one function, server/payments/service.ts `owedBy`): a late-registration fee by
 * those registered after the school's window closed. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */

let t: TestPortal;
const db = () => t.portal.database.db;
const tokens = {} as Record<'admin' | 'school1', string>;
let dietCode: string;
let people: number[] = [];
let registrationFee: number;

const adminAddsFee = (body: Record<string, unknown>) =>
  addFee(t, tokens.admin, { title: 'Fee', amount: '1,000', diet: dietCode, ...body });

const startRequest = (json: Record<string, unknown>) =>
  t.request('POST', PAYMENT_ENDPOINTS.start.path, { token: tokens.school1, json });

async function start(candidateIds: number[], fee = registrationFee) {
  const response = await startRequest({ fee_id: fee, candidate_ids: candidateIds });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data as { reference: string; access_code: string };
}

/** The payer's choice at the sandbox's checkout, then the browser's verify. */
async function finish(
  started: { reference: string; access_code: string },
  choice: 'pay' | 'decline' | 'pending' | 'abandon',
) {
  const chosen = await sandboxCheckout(t, started.access_code, choice);
  expect(chosen.status).toBe(200);
  const verified = await schoolVerifies(t, tokens.school1, started.reference);
  expect(verified.status).toBe(200);
  return verified.body.data.status as string;
}

const liveItems = async (fee: number, candidate: number) =>
  db()
    .select({ reference: payments.reference })
    .from(paymentItems)
    .innerJoin(payments, eq(payments.id, paymentItems.paymentId))
    .where(
      and(eq(paymentItems.feeId, fee), eq(paymentItems.candidateId, candidate), eq(paymentItems.live, true)),
    );

async function payable(feeId: number): Promise<PayableFee> {
  const response = await t.request('GET', PAYMENT_ENDPOINTS.payableFees.path, { token: tokens.school1 });
  return (response.body.data.fees as PayableFee[]).find((fee) => fee.id === feeId)!;
}

async function unpaidIds(feeId: number): Promise<number[]> {
  const response = await t.request('GET', fillPath(PAYMENT_ENDPOINTS.unpaid.path, { id: feeId }), {
    token: tokens.school1,
  });
  expect(response.status).toBe(200);
  return (response.body.data as { id: number }[]).map((c) => c.id);
}

beforeAll(async () => {
  t = await startTestPortal({}, { jobs: { pollingIntervalSeconds: 0.5, schedule: false, supervise: false } });
  tokens.admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
  tokens.school1 = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
  dietCode = (await currentDietOf(t)).code;
  people = await seedCandidates(
    t,
    Array.from({ length: 8 }, (_, i) => ({
      first_name: i === 0 ? 'Ada' : 'Payer',
      last_name: i === 0 ? 'Obi' : `Once${i}`,
      school: 'SHT-IB',
      course_header: 'A1',
      verified: true,
      reg_status: 'registered' as const,
    })),
  );
  registrationFee = await adminAddsFee({ title: 'Registration fee' });
}, 120_000);

afterAll(() => t?.close());

describe('one payment a candidate and fee', () => {
  it('ten parallel starts for one candidate make exactly one payment; the rest name the reference that holds them', async () => {
    const ada = people[0];
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => startRequest({ fee_id: registrationFee, candidate_ids: [ada] })),
    );
    const started = answers.filter((a) => a.status === 200);
    expect(started).toHaveLength(1);
    const reference = started[0].body.data.reference as string;
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(M.inPayment('Ada Obi', reference, 'initialised'));
      expect(refused.body.message).toBe(
        `Ada Obi is already in payment ${reference} (started); finish or cancel that payment first`,
      );
    }
    const recorded = await db()
      .select({ id: payments.id })
      .from(payments)
      .innerJoin(paymentItems, eq(paymentItems.paymentId, payments.id))
      .where(and(eq(payments.feeId, registrationFee), eq(paymentItems.candidateId, ada)));
    expect(recorded).toHaveLength(1);
    expect(await liveItems(registrationFee, ada)).toEqual([{ reference }]);

    // The unpaid list says which payment holds them; the quote refuses them too.
    const unpaid = await t.request('GET', fillPath(PAYMENT_ENDPOINTS.unpaid.path, { id: registrationFee }), {
      token: tokens.school1,
    });
    expect(unpaid.body.data.find((c: { id: number }) => c.id === ada)).toMatchObject({
      in_payment: { reference, status: 'initialised' },
    });
    const quoted = await t.request('POST', PAYMENT_ENDPOINTS.quote.path, {
      token: tokens.school1,
      json: { fee_id: registrationFee, candidate_ids: [ada, people[1]] },
    });
    expect(quoted.status).toBe(409);
    expect(quoted.body.message).toContain(reference);
  });

  it('a declined or abandoned payment lets the candidate go; a pending or paid one holds them', async () => {
    const who = people[2];
    const first = await start([who]);
    expect(await finish(first, 'decline')).toBe('failed');
    expect(await liveItems(registrationFee, who)).toEqual([]);

    const second = await start([who]);
    expect(await finish(second, 'abandon')).toBe('abandoned');

    const third = await start([who]);
    expect(await finish(third, 'pending')).toBe('pending');
    const refused = await startRequest({ fee_id: registrationFee, candidate_ids: [who] });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(M.inPayment('Payer Once2', third.reference, 'pending'));

    // The transfer arrives: paid, and paid candidates are never paid for twice.
    const completed = await fetch(sandboxUrl(t, `/transaction/${third.reference}/complete`), {
      method: 'POST',
      headers: { authorization: t.portal.payments.authorization() },
    });
    expect(completed.status).toBe(200);
    const verified = await schoolVerifies(t, tokens.school1, third.reference);
    expect(verified.body.data.status).toBe('paid');
    const again = await startRequest({ fee_id: registrationFee, candidate_ids: [who] });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(M.alreadyPaid);
    expect(await liveItems(registrationFee, who)).toEqual([{ reference: third.reference }]);
  });

  it("'all my unpaid candidates' leaves out those another payment holds", async () => {
    const fee = await adminAddsFee({ title: 'Other levy', kind: 'other' });
    const held = await start([people[3]], fee);
    const all = await startRequest({ fee_id: fee, all: true });
    expect(all.status).toBe(200);
    const covered = await db()
      .select({ candidate: paymentItems.candidateId })
      .from(paymentItems)
      .innerJoin(payments, eq(payments.id, paymentItems.paymentId))
      .where(eq(payments.reference, all.body.data.reference));
    expect(covered.map((c) => c.candidate).sort()).toEqual(
      people.filter((id) => id !== people[3]).sort((a, b) => a - b),
    );
    // Now everyone is held: the next 'all' is told who holds the first of them.
    const none = await startRequest({ fee_id: fee, all: true });
    expect(none.status).toBe(409);
    expect(none.body.message).toMatch(/is already in payment WHB-/);
    expect(held.reference).toMatch(/^WHB-/);
  });

  it('a per-school fee: one payment in progress for the school at a time, parallel starts included', async () => {
    const fee = await adminAddsFee({ title: 'School levy', kind: 'other', basis: 'school' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => startRequest({ fee_id: fee })));
    const started = answers.filter((a) => a.status === 200);
    expect(started).toHaveLength(1);
    const reference = started[0].body.data.reference as string;
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.body.message).toBe(M.schoolInPayment(reference, 'initialised'));
    }
    expect(await finish(started[0].body.data, 'abandon')).toBe('abandoned');
    expect((await startRequest({ fee_id: fee })).status).toBe(200);
  });
});

describe('who owes a fee', () => {
  it("a late-registration fee is owed only by those registered after the school's window closed", async () => {
    const now = Date.now();
    const [diet] = await db()
      .insert(diets)
      .values({
        code: 'LATE-2031',
        name: 'Late test diet',
        firstPaperOn: '2031-06-01',
        lastPaperOn: '2031-06-05',
        registrationOpensAt: new Date(now - 10 * 86_400_000),
        registrationClosesAt: new Date(now + 3 * 86_400_000),
      })
      .returning();
    const ib = await seedPayers(t, 4, 'Late', (i) => `Ibadan${i}`, { dietId: diet.id });
    const late = await adminAddsFee({
      title: 'Late registration fee',
      kind: 'late_registration',
      diet: 'LATE-2031',
    });
    const onTime = await adminAddsFee({
      title: 'Registration fee 2031',
      kind: 'registration',
      diet: 'LATE-2031',
    });

    // Registration is open: nobody owes the late fee, everyone registered owes the registration fee.
    expect(await payable(late)).toMatchObject({ unpaid: 0, paid: 0 });
    expect(await unpaidIds(late)).toEqual([]);
    expect(await payable(onTime)).toMatchObject({ unpaid: 4 });
    const early = await startRequest({ fee_id: late, candidate_ids: [ib[0]] });
    expect(early.status).toBe(422);
    expect(early.body.message).toEqual({ candidate_ids: [M.candidatesInvalid] });
    expect((await startRequest({ fee_id: late, all: true })).status).toBe(409);

    // The window closed an hour ago; two of them were registered after it (by the board).
    await db()
      .update(diets)
      .set({ registrationClosesAt: new Date(now - 3_600_000) })
      .where(eq(diets.id, diet.id));
    await db()
      .update(registrations)
      .set({ createdAt: new Date(now - 2 * 3_600_000) })
      .where(eq(registrations.dietId, diet.id));
    await db()
      .update(registrations)
      .set({ createdAt: new Date(now - 60_000) })
      .where(and(eq(registrations.dietId, diet.id), eq(registrations.candidateId, ib[2])));
    await db()
      .update(registrations)
      .set({ createdAt: new Date(now - 3_600_000) })
      .where(and(eq(registrations.dietId, diet.id), eq(registrations.candidateId, ib[3])));
    expect(await payable(late)).toMatchObject({ unpaid: 2 });
    expect((await unpaidIds(late)).sort()).toEqual([ib[2], ib[3]].sort((a, b) => a - b));
    const quoted = await t.request('POST', PAYMENT_ENDPOINTS.quote.path, {
      token: tokens.school1,
      json: { fee_id: late, all: true },
    });
    expect(quoted.body.data.candidates.map((c: { id: number }) => c.id).sort()).toEqual(
      [ib[2], ib[3]].sort((a, b) => a - b),
    );
    const notLate = await startRequest({ fee_id: late, candidate_ids: [ib[0]] });
    expect(notLate.status).toBe(422);

    // The school's extension runs two hours more: registering within it is not late.
    await db()
      .insert(dietExtensions)
      .values({
        dietId: diet.id,
        trainingSchoolId: await schoolIdOf(t, 'SHT-IB'),
        until: new Date(now + 2 * 3_600_000),
        reason: 'Flooding',
      });
    expect(await payable(late)).toMatchObject({ unpaid: 0 });
    expect(await payable(onTime)).toMatchObject({ unpaid: 4 });
  });

  it('a resit fee is owed only by candidates entered as resits for its diet', async () => {
    const fee = await adminAddsFee({ title: 'Resit fee', kind: 'resit' });
    expect(await payable(fee)).toMatchObject({ unpaid: 0 });
    const diet = await currentDietOf(t);
    await db()
      .insert(resits)
      .values({
        candidateId: people[5],
        dietId: diet.id,
        papers: [],
        createdBy: await userIdOf(t, 'admin@example.org'),
      });
    expect(await payable(fee)).toMatchObject({ unpaid: 1 });
    expect(await unpaidIds(fee)).toEqual([people[5]]);
    const other = await startRequest({ fee_id: fee, candidate_ids: [people[6]] });
    expect(other.status).toBe(422);
  });
});
