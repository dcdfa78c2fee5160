import { and, eq, isNotNull, lte, sql } from 'drizzle-orm';
import {
  PAYMENT_ISSUE_LABELS,
  PAYMENT_LIVE_STATUSES,
  PAYMENT_PENDING_HOURS,
  formatNaira,
  type PaymentIssueKind,
  type PaymentStatus,
} from '../../contract/payments';
import { audit, type Actor } from '../audit';
import type { Database } from '../db/client';
import { paymentIssues, paymentItems, paymentReceiptSeq, payments, trainingSchools } from '../db/schema';
import { notifyBoard } from '../notifications/sources';
import { ProviderFailure } from '../errors';
import { describeError, type Logger } from '../log';
import type { PaymentProvider, ProviderTransaction } from './provider';

/**
 * The one settle path. The browser's verify, the provider's webhook and the re-query job all call
 * `settle(reference)`: it asks the provider's verify (never the caller's word), then, in one transaction
 * holding the payment's row lock, moves the payment to what the provider says. Crediting is an update
 * `where status <> 'paid'` under that lock, so of any number of callers at once exactly one credits,
 * issues the receipt number and writes the audit entry; the rest find it paid and answer so. Each
 * candidate (or school, for a per-school fee) is credited once per fee by the partial unique indexes;
 * what was paid twice lands in the reconciliation queue, as do a wrong amount, an unknown reference,
 * a reversal after credit and a payment pending past 72 hours.
 */

type StoredPayment = typeof payments.$inferSelect;

/** What the provider's words mean for a payment not yet credited. */
function statusFrom(transaction: ProviderTransaction): PaymentStatus {
  switch (transaction.status) {
    case 'success':
      return 'paid';
    case 'failed':
    case 'reversed':
      return 'failed';
    case 'abandoned':
      return 'abandoned';
    default:
      // ongoing, pending, processing, queued: the money is on its way (a transfer).
      return 'pending';
  }
}

/** An amount the provider reports, in naira when it is naira. */
const money = (kobo: number, currency: string) =>
  currency === 'NGN' ? formatNaira(kobo) : `${kobo / 100} ${currency}`;

/** When to ask the provider again: 5 minutes, doubling each time up to an hour. */
const nextCheckAfter = (checks: number, now: Date) =>
  new Date(now.getTime() + Math.min(5 * 2 ** checks, 60) * 60_000);

/** Opens a reconciliation item (one open item a reference and kind: a replay opens nothing more). */
async function openIssue(
  tx: Database,
  actor: Actor,
  issue: { kind: PaymentIssueKind; reference: string; paymentId: number | null; detail: string },
) {
  const [opened] = await tx
    .insert(paymentIssues)
    .values(issue)
    .onConflictDoNothing({
      target: [paymentIssues.reference, paymentIssues.kind],
      where: sql`${paymentIssues.resolvedAt} is null`,
    })
    .returning({ id: paymentIssues.id });
  if (opened) {
    await audit(tx, actor, { action: 'payment_issue.opened', entityId: opened.id, after: issue });
  }
}

/**
 * Credits the payment's items; those already credited for their fee by another payment are not, and
 * are returned. A lock a school and fee makes two of its payments for one fee credit one after the other.
 */
async function creditItems(tx: Database, payment: StoredPayment) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext('fee-credit'), hashtext(${`${payment.feeId}:${payment.trainingSchoolId}`}))`,
  );
  await tx.execute(sql`
    update ${paymentItems} as item set credited = true
    where item.payment_id = ${payment.id}
      and not exists (
        select 1 from ${paymentItems} other
        where other.fee_id = item.fee_id and other.credited
          and (other.candidate_id = item.candidate_id
            or (item.candidate_id is null and other.candidate_id is null
              and other.training_school_id = item.training_school_id)))`);
  const [left] = await tx
    .select({
      items: sql<number>`count(*)::int`,
      kobo: sql<number>`coalesce(sum(${paymentItems.amountKobo}), 0)::int`,
    })
    .from(paymentItems)
    .where(and(eq(paymentItems.paymentId, payment.id), eq(paymentItems.credited, false)));
  return left;
}

/**
 * Lets a payment's candidates (or school) go for its fee: it failed, was abandoned or went to review,
 * so another payment may start for them. Once let go an item is never held again: if the payer still
 * completes this payment at the provider, it is credited where no other payment was, and what was paid
 * twice goes to the queue as a duplicate (creditItems).
 */
async function release(tx: Database, paymentId: number) {
  await tx
    .update(paymentItems)
    .set({ live: false })
    .where(and(eq(paymentItems.paymentId, paymentId), eq(paymentItems.live, true)));
}

/**
 * How long a payment recorded without the provider's answer may wait for it: far past the client's
 * timeout (server/payments/provider.ts), so a start still asking the provider is never taken for a dead one.
 */
const UNSTARTED_AFTER_MS = 2 * 60_000;

/**
 * A payment the provider never started (its start failed, or stopped before the provider answered):
 * abandoned, asked about no more, and its candidates (or school) let go for their fee, so the school can
 * start again. Nobody holds its access code, so nobody can pay it; were it paid all the same, a webhook
 * or a verify would still settle it (abandoned is not final).
 */
export async function abandonUnstarted(
  tx: Database,
  actor: Actor,
  payment: { id: number; reference: string },
  cause: 'provider_failed' | 'provider_never_started',
) {
  const [changed] = await tx
    .update(payments)
    .set({ status: 'abandoned', nextCheckAt: null, updatedAt: new Date() })
    .where(and(eq(payments.id, payment.id), eq(payments.status, 'initialised')))
    .returning({ id: payments.id });
  if (!changed) return;
  await release(tx, payment.id);
  await audit(tx, actor, {
    action: 'payment.status_changed',
    entityId: payment.id,
    before: { status: 'initialised' },
    after: { status: 'abandoned', reference: payment.reference, provider_status: null, cause },
  });
}

/** Rows of a raw `execute`, from either driver (pg's result has `rows`; PGlite's too). */
const rowsOf = (result: unknown): unknown[] => (result as { rows: unknown[] }).rows;

async function nextReceipt(tx: Database, now: Date): Promise<string> {
  const result = await tx.execute(sql`select nextval(${sql.raw(`'${paymentReceiptSeq.seqName}'`)}) as n`);
  const n = Number((rowsOf(result)[0] as { n: string | number }).n);
  return `RCT/${now.getUTCFullYear()}/${String(n).padStart(6, '0')}`;
}

export interface SettleParts {
  db: Database;
  provider: PaymentProvider;
  log?: Pick<Logger, 'info' | 'error'>;
  now?: () => Date;
}

/**
 * Settles one reference; answers the payment's status now (null for a reference we never issued).
 * Throws ProviderUnavailable when the provider cannot be asked (nothing changes then).
 */
export async function settle(
  { db, provider, now = () => new Date() }: SettleParts,
  actor: Actor,
  reference: string,
): Promise<PaymentStatus | null> {
  const transaction = await provider.verify(reference);
  const at = now();
  return db.transaction(async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.reference, reference)).for('update');

    if (!payment) {
      if (transaction?.status === 'success') {
        await openIssue(tx, actor, {
          kind: 'unknown_reference',
          reference,
          paymentId: null,
          detail: `The provider holds a successful payment of ${formatNaira(transaction.amountKobo)} with this reference, which the portal never issued.`,
        });
      }
      return null;
    }

    if (payment.status === 'paid') {
      if (transaction?.status === 'reversed') {
        await openIssue(tx, actor, {
          kind: 'reversed',
          reference,
          paymentId: payment.id,
          detail: `Payment ${payment.receiptNumber} of ${formatNaira(payment.amountKobo)} was credited, then reversed by the provider (${transaction.gatewayResponse ?? 'no reason given'}). Its candidates are still shown as paid.`,
        });
      }
      return 'paid';
    }
    // What the queue is deciding is not decided again here.
    if (payment.status === 'review') return 'review';

    // Recorded but never started at the provider (the process stopped while asking it): it holds no
    // access code, so nobody can pay it, and the provider does not know it. Its candidates go free.
    if (
      !transaction &&
      payment.status === 'initialised' &&
      payment.accessCode === null &&
      at.getTime() - payment.createdAt.getTime() >= UNSTARTED_AFTER_MS
    ) {
      await abandonUnstarted(tx, actor, payment, 'provider_never_started');
      return 'abandoned';
    }

    const checks = payment.checks + 1;
    const expired = at.getTime() - payment.createdAt.getTime() >= PAYMENT_PENDING_HOURS * 3600_000;
    const base = {
      checks,
      gatewayResponse: transaction?.gatewayResponse ?? payment.gatewayResponse,
      channel: transaction?.channel ?? payment.channel,
      paidAmountKobo: transaction?.amountKobo ?? payment.paidAmountKobo,
      feesKobo: transaction?.feesKobo ?? payment.feesKobo,
      updatedAt: at,
    };

    // The provider does not know it (yet): ask again later, as if it were not paid.
    let status: PaymentStatus = transaction ? statusFrom(transaction) : payment.status;

    if (status === 'paid' && transaction) {
      // Settled on what was ordered: an account that passes Paystack's fees on to the payer is charged
      // amount = requested_amount + fees, which is no mismatch; less than the order always is.
      if (
        transaction.requestedAmountKobo !== payment.amountKobo ||
        transaction.amountKobo < payment.amountKobo ||
        transaction.currency !== payment.currency
      ) {
        await tx
          .update(payments)
          .set({ ...base, status: 'review', nextCheckAt: null })
          .where(eq(payments.id, payment.id));
        await release(tx, payment.id);
        await openIssue(tx, actor, {
          kind: 'amount_mismatch',
          reference,
          paymentId: payment.id,
          detail: `Ordered ${formatNaira(payment.amountKobo)} ${payment.currency}; the provider reports ${money(transaction.requestedAmountKobo, transaction.currency)} requested and ${money(transaction.amountKobo, transaction.currency)} charged. Nothing was credited.`,
        });
        await audit(tx, actor, {
          action: 'payment.status_changed',
          entityId: payment.id,
          before: { status: payment.status },
          after: { status: 'review', reference },
        });
        return 'review';
      }
      const receiptNumber = await nextReceipt(tx, at);
      const paidAt = transaction.paidAt ? new Date(transaction.paidAt) : at;
      await tx
        .update(payments)
        .set({ ...base, status: 'paid', receiptNumber, paidAt, nextCheckAt: null })
        .where(and(eq(payments.id, payment.id), sql`${payments.status} <> 'paid'`));
      const duplicates = await creditItems(tx, payment);
      await audit(tx, actor, {
        action: 'payment.credited',
        entityId: payment.id,
        before: { status: payment.status },
        after: {
          status: 'paid',
          reference,
          receipt_number: receiptNumber,
          amount_kobo: payment.amountKobo,
          charged_kobo: transaction.amountKobo,
          fees_kobo: transaction.feesKobo,
        },
      });
      const [school] = await tx
        .select({ code: trainingSchools.code, name: trainingSchools.name })
        .from(trainingSchools)
        .where(eq(trainingSchools.id, payment.trainingSchoolId));
      await notifyBoard(tx, actor, {
        kind: 'payment.received',
        title: `Payment received from ${school.name}`,
        body: `${school.name} (${school.code}) has paid ${formatNaira(payment.amountKobo)}: receipt ${receiptNumber}, reference ${reference}.`,
        schoolId: payment.trainingSchoolId,
        subject: reference,
      });
      if (duplicates.items > 0) {
        await openIssue(tx, actor, {
          kind: 'duplicate',
          reference,
          paymentId: payment.id,
          detail: `Payment ${receiptNumber} paid again for ${duplicates.items === 1 ? 'one item' : `${duplicates.items} items`} already paid for by another payment: ${formatNaira(duplicates.kobo)} to refund or apply.`,
        });
      }
      return 'paid';
    }

    let nextCheckAt: Date | null = null;
    if (status === 'initialised' || status === 'pending') {
      nextCheckAt = expired ? null : nextCheckAfter(checks, at);
      if (expired && status === 'initialised') status = 'abandoned';
      if (expired && status === 'pending') {
        await openIssue(tx, actor, {
          kind: 'stale_pending',
          reference,
          paymentId: payment.id,
          detail: `${PAYMENT_ISSUE_LABELS.stale_pending}: the provider still says '${transaction?.status ?? 'unknown'}' for ${formatNaira(payment.amountKobo)}. Ask the provider, then resolve.`,
        });
      }
    }
    await tx
      .update(payments)
      .set({ ...base, status, nextCheckAt })
      .where(eq(payments.id, payment.id));
    if (!(PAYMENT_LIVE_STATUSES as readonly PaymentStatus[]).includes(status)) await release(tx, payment.id);
    if (status !== payment.status) {
      await audit(tx, actor, {
        action: 'payment.status_changed',
        entityId: payment.id,
        before: { status: payment.status },
        after: { status, reference, provider_status: transaction?.status ?? null },
      });
    }
    return status;
  });
}

/**
 * The re-query job: every payment whose next check is due (initialised or pending, within 72 hours) is
 * settled again, oldest due first, a hundred a run. Safe on two processes: settle is idempotent.
 */
export async function requeryDue(parts: SettleParts, actor: Actor): Promise<number> {
  const at = (parts.now ?? (() => new Date()))();
  const due = await parts.db
    .select({ reference: payments.reference })
    .from(payments)
    .where(and(isNotNull(payments.nextCheckAt), lte(payments.nextCheckAt, at)))
    .orderBy(payments.nextCheckAt)
    .limit(100);
  let settled = 0;
  for (const { reference } of due) {
    try {
      await settle(parts, actor, reference);
      settled += 1;
    } catch (error) {
      // The provider failing (its key refused, a rate limit, down) fails every call alike: this run
      // stops rather than hammer it, and the next (in 5 minutes) asks again. Anything else is this
      // payment's alone: the rest go on.
      if (error instanceof ProviderFailure) {
        parts.log?.error('payment.requery_stopped', { cause: error.kind, left: due.length - settled });
        break;
      }
      parts.log?.error('payment.requery_failed', describeError(error));
    }
  }
  return settled;
}
