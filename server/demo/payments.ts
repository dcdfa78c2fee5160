import { sql } from 'drizzle-orm';
import {
  fees,
  paymentIssues,
  paymentItems,
  paymentReceiptSeq,
  payments,
  sandboxTransactions,
} from '../db/schema';
import { localCardFee } from '../payments/paystackRules';
import type { DemoAccounts } from './accounts';
import type { DemoCandidate } from './candidates';
import { daysBefore, type DemoSeed } from './context';
import type { DemoDiets } from './diets';

/**
 * Fees and payments mid-year: the current diet's fees (registration, late registration, resit, a
 * per-school practical levy, and an indexing fee the board has stopped collecting), and SHT-IB's and
 * CHT-CA's payments in every state: paid with receipts, a transfer still pending, one declined, one
 * abandoned, and one whose amount the provider reported differently, waiting in the reconciliation
 * queue. Each has its transaction in the sandbox provider's book, so verifying one asks the sandbox and
 * gets the same answer.
 */

type Outcome = 'paid' | 'pending' | 'failed' | 'abandoned' | 'review';

/** What the sandbox's book says for each outcome. */
const SANDBOX: Record<Outcome, { status: string; gateway: string | null }> = {
  paid: { status: 'success', gateway: 'Approved' },
  pending: { status: 'ongoing', gateway: 'Transfer awaiting confirmation' },
  failed: { status: 'failed', gateway: 'Declined by the issuing bank' },
  abandoned: { status: 'abandoned', gateway: 'The customer left the checkout' },
  review: { status: 'success', gateway: 'Approved' },
};

export async function seedPayments(
  { tx, now }: DemoSeed,
  accounts: DemoAccounts,
  candidates: DemoCandidate[],
  diets: DemoDiets,
): Promise<void> {
  const fee = (
    title: string,
    kind: typeof fees.$inferInsert.kind,
    naira: number,
    extra: Partial<typeof fees.$inferInsert> = {},
  ) => ({
    title,
    kind,
    basis: 'candidate' as const,
    amountKobo: naira * 100,
    dietId: diets.current.id,
    createdBy: accounts.adminId,
    createdAt: daysBefore(now, 40),
    updatedAt: daysBefore(now, 40),
    ...extra,
  });
  const [registration] = await tx
    .insert(fees)
    .values([
      fee('Indexing fee', 'indexing', 7_500, { status: 'inactive' }),
      fee('Registration fee', 'registration', 15_000),
      fee('Late registration fee', 'late_registration', 5_000),
      fee('Resit fee', 'resit', 10_000),
      fee('Practical examination levy', 'other', 50_000, { basis: 'school' }),
    ])
    .returning()
    .then((rows) => rows.filter((row) => row.kind === 'registration'));

  const registered = (school: string) =>
    candidates
      .filter((c) => c.schoolCode === school && c.regStatus === 'registered')
      .sort((a, b) => a.candidateIndex.localeCompare(b.candidateIndex));
  const ib = registered('SHT-IB');
  const ca = registered('CHT-CA');
  const schoolId = (code: string) => accounts.schools.find((s) => s.code === code)!.id;

  // Each payment: its school, who it covers, its outcome, and how many days ago it was started.
  const plan: { school: 'SHT-IB' | 'CHT-CA'; covers: DemoCandidate[]; outcome: Outcome; daysAgo: number }[] =
    [
      { school: 'SHT-IB', covers: ib.slice(0, 6), outcome: 'paid', daysAgo: 12 },
      { school: 'SHT-IB', covers: ib.slice(6, 9), outcome: 'paid', daysAgo: 6 },
      { school: 'SHT-IB', covers: ib.slice(9, 11), outcome: 'failed', daysAgo: 3 },
      { school: 'SHT-IB', covers: ib.slice(9, 11), outcome: 'abandoned', daysAgo: 2.9 },
      { school: 'SHT-IB', covers: ib.slice(11, 13), outcome: 'pending', daysAgo: 0.2 },
      { school: 'CHT-CA', covers: ca.slice(0, 4), outcome: 'paid', daysAgo: 9 },
      { school: 'CHT-CA', covers: ca.slice(4, 6), outcome: 'review', daysAgo: 4 },
    ];

  let n = 0;
  for (const { school, covers, outcome, daysAgo } of plan) {
    if (!covers.length) continue;
    n += 1;
    const reference = `WHB-DEMO${String(n).padStart(4, '0')}${school.replace('-', '')}`;
    const startedAt = daysBefore(now, daysAgo);
    const paidAt = new Date(startedAt.getTime() + 3 * 60_000);
    const amountKobo = registration.amountKobo * covers.length;
    // The provider's amount differs for the one under review: the payer's bank took ₦1,000 less.
    const providerAmount = outcome === 'review' ? amountKobo - 100_000 : amountKobo;
    const email = school === 'SHT-IB' ? 'school1@example.org' : 'school2@example.org';
    const accessCode = `demo${n}${school.toLowerCase().replace('-', '')}`;
    await tx.insert(sandboxTransactions).values({
      reference,
      accessCode,
      amountKobo: providerAmount,
      currency: 'NGN',
      email,
      status: SANDBOX[outcome].status,
      gatewayResponse: SANDBOX[outcome].gateway,
      paidAt: SANDBOX[outcome].status === 'success' ? paidAt : null,
      createdAt: startedAt,
      updatedAt: startedAt,
    });
    const receiptNumber =
      outcome === 'paid'
        ? `RCT/${paidAt.getUTCFullYear()}/${String(
            Number(
              (
                (await tx.execute(
                  sql`select nextval(${sql.raw(`'${paymentReceiptSeq.seqName}'`)}) as n`,
                )) as unknown as {
                  rows: { n: string }[];
                }
              ).rows[0].n,
            ),
          ).padStart(6, '0')}`
        : null;
    const [payment] = await tx
      .insert(payments)
      .values({
        reference,
        provider: 'sandbox',
        feeId: registration.id,
        trainingSchoolId: schoolId(school),
        amountKobo,
        currency: 'NGN',
        status: outcome,
        accessCode,
        email,
        receiptNumber,
        paidAmountKobo: outcome === 'paid' || outcome === 'review' ? providerAmount : null,
        // Paystack's local-card fee, borne by the board, as the sandbox's verify reports it.
        feesKobo: outcome === 'paid' || outcome === 'review' ? localCardFee(providerAmount) : null,
        channel: outcome === 'paid' || outcome === 'review' ? 'card' : null,
        gatewayResponse: SANDBOX[outcome].gateway,
        paidAt: outcome === 'paid' ? paidAt : null,
        // The pending transfer is asked about again by the re-query job.
        nextCheckAt: outcome === 'pending' ? new Date(now.getTime() + 5 * 60_000) : null,
        checks: outcome === 'pending' ? 1 : 0,
        initiatedBy: accounts.schoolAdminOf[school] ?? null,
        createdAt: startedAt,
        updatedAt: outcome === 'paid' ? paidAt : startedAt,
      })
      .returning();
    await tx.insert(paymentItems).values(
      covers.map((c) => ({
        paymentId: payment.id,
        feeId: registration.id,
        trainingSchoolId: schoolId(school),
        candidateId: c.id,
        amountKobo: registration.amountKobo,
        credited: outcome === 'paid',
        // Paid and pending payments hold their candidates; a declined, abandoned or reviewed one let go.
        live: outcome === 'paid' || outcome === 'pending',
      })),
    );
    if (outcome === 'review') {
      await tx.insert(paymentIssues).values({
        kind: 'amount_mismatch',
        reference,
        paymentId: payment.id,
        detail: `Ordered ₦${(amountKobo / 100).toLocaleString('en-NG')}.00 NGN; the provider reports ₦${(providerAmount / 100).toLocaleString('en-NG')}.00. Nothing was credited.`,
        createdAt: paidAt,
        updatedAt: paidAt,
      });
    }
  }
}
