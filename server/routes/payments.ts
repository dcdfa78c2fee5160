import { PAYMENT_MESSAGES as M, PAYMENT_REFERENCE_PATTERN, SETTLED_MESSAGE } from '../../contract/payments';
import { PAYMENT_ENDPOINTS as E } from '../../contract/payments.endpoints';
import type { Role } from '../../contract/roles';
import { systemActor } from '../audit';
import { withReceiptCode } from '../documents/receipts';
import { NotFound } from '../errors';
import { actorOf, callerOf, dbOf, nowOf, transact, type AppContext } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';
import { createFee, deleteFee, setFeeStatus, updateFee } from '../payments/fees';
import { readProviderHealth } from '../payments/health';
import { resolveIssue } from '../payments/issues';
import { settle } from '../payments/settle';
import { settleKey } from '../payments/settleJob';
import {
  payableFee,
  payableFees,
  isSchoolPayment,
  paymentDetail,
  quote,
  startPayment,
  unpaidCandidates,
} from '../payments/service';

/**
 * Fees and payments (server/payments/): the board's fees and reconciliation queue, a school's payable
 * fees, quote and payment start, both roles' verify and receipt, and the provider's webhook. The lists
 * (fees, payment histories, the queue) are made from their definitions (server/lists/).
 */

const feeId = (c: AppContext) => idOf(c, M.feeNotFound);

/** The `:reference` of the path, or the 404 any unknown reference gets. */
function referenceOf(c: AppContext): string {
  const reference = c.req.param('reference') ?? '';
  if (!PAYMENT_REFERENCE_PATTERN.test(reference)) throw new NotFound(M.notFound);
  return reference;
}

/** The school a school admin pays for (the access matrix let only school admins here). */
const schoolOf = (c: AppContext): number => {
  const school = callerOf(c).trainingSchoolId;
  if (school === null) throw new NotFound(M.notFound);
  return school;
};

/** The caller's scope for one payment: every school's for the board, their own for a school admin. */
const scopeSchool = (c: AppContext) => (callerOf(c).role === 'admin' ? null : schoolOf(c));

const feeRoutes: Route[] = [
  serve(E.createFee, async (c) => {
    const fee = await transact(c, (tx, actor) => createFee(tx, actor, c.req.valid('json')));
    return ok(c, fee, M.feeCreated);
  }),
  serve(E.updateFee, async (c) => {
    const id = feeId(c);
    const fee = await transact(c, (tx, actor) => updateFee(tx, actor, id, c.req.valid('json')));
    return ok(c, fee, M.feeUpdated);
  }),
  serve(E.feeStatus, async (c) => {
    const { status } = c.req.valid('json');
    const id = feeId(c);
    const fee = await transact(c, (tx, actor) => setFeeStatus(tx, actor, id, status));
    return ok(c, fee, M.feeStatusChanged(fee.title, status));
  }),
  serve(E.deleteFee, async (c) => {
    const id = feeId(c);
    await transact(c, (tx, actor) => deleteFee(tx, actor, id));
    return ok(c, undefined, M.feeDeleted);
  }),
];

const schoolPaymentRoutes: Route[] = [
  serve(E.payableFees, async (c) => {
    const fees = await payableFees(dbOf(c), schoolOf(c));
    return ok(c, { fees, provider: c.get('deps').payments.info });
  }),
  serve(E.unpaid, async (c) => {
    const fee = await payableFee(dbOf(c), feeId(c)).catch(() => {
      throw new NotFound(M.feeNotFound);
    });
    return ok(c, fee.basis === 'school' ? [] : await unpaidCandidates(dbOf(c), fee, schoolOf(c)));
  }),
  serve(E.quote, async (c) => ok(c, await quote(dbOf(c), schoolOf(c), c.req.valid('json')))),
  serve(E.start, async (c) => {
    const { payments } = c.get('deps');
    const started = await startPayment(dbOf(c), payments, actorOf(c), schoolOf(c), c.req.valid('json'));
    return ok(c, started, M.started);
  }),
];

/** One payment as its receipt shows it, with the receipt's verification code (server/documents/receipts.ts). */
async function receiptOf(c: AppContext, reference: string) {
  const detail = await paymentDetail(dbOf(c), reference, scopeSchool(c));
  return withReceiptCode(dbOf(c), c.get('deps').config.publicUrl, actorOf(c), detail);
}

/** Both roles: one payment (the receipt), and its verification by reference. */
const paymentRoutes = (role: Role): Route[] => [
  serve(E.payment[role], async (c) => ok(c, await receiptOf(c, referenceOf(c)))),
  // The browser's verify (and the board's verify by hand): the same settle as the webhook's.
  serve(E.verify[role], async (c) => {
    const reference = referenceOf(c);
    const school = scopeSchool(c);
    // A school admin may verify only their own school's payment: the same 404 as for no payment.
    if (school !== null && !(await isSchoolPayment(dbOf(c), reference, school)))
      throw new NotFound(M.notFound);
    const { database, payments, log } = c.get('deps');
    const status = await settle(
      { db: database.db, provider: payments, log, now: () => nowOf(c) },
      actorOf(c),
      reference,
    );
    if (status === null) throw new NotFound(M.notFound);
    return ok(c, await receiptOf(c, reference), SETTLED_MESSAGE[status]);
  }),
];

const reconciliationRoutes: Route[] = [
  // The banner of the board's payments pages: the provider failing now, why and since when.
  serve(E.providerHealth, async (c) =>
    ok(c, await readProviderHealth(dbOf(c), c.get('deps').payments.info.name, nowOf(c))),
  ),
  serve(E.resolveIssue, async (c) => {
    const id = idOf(c, M.issueNotFound);
    const { note } = c.req.valid('json');
    const issue = await transact(c, (tx, actor) => resolveIssue(tx, actor, id, note));
    return ok(c, issue, M.issueResolved);
  }),
];

const SETTLE_AFTER_SECONDS = 1;

/**
 * The provider's webhook: public, believed only when its signature is the HMAC-SHA512 of the raw body
 * under our secret key (compared in constant time), answered 200 at once. It never credits on its own
 * word: it queues the same settle the browser's verify runs, which asks the provider.
 */
const webhookRoutes: Route[] = [
  serve(E.webhook, async (c) => {
    const { payments, jobs, database, log } = c.get('deps');
    const raw = await c.req.text();
    if (!payments.signatureValid(raw, c.req.header('x-paystack-signature'))) {
      return c.json({ success: false, message: M.webhookRefused }, 400);
    }
    let event: { event?: unknown; data?: { reference?: unknown; transaction_reference?: unknown } } | null;
    try {
      event = JSON.parse(raw);
    } catch {
      event = null;
    }
    const data = event?.data;
    const reference =
      event?.event === 'refund.processed' ? data?.transaction_reference : (data?.reference ?? null);
    if (
      typeof reference === 'string' &&
      PAYMENT_REFERENCE_PATTERN.test(reference) &&
      (event?.event === 'charge.success' || event?.event === 'refund.processed')
    ) {
      if (jobs) {
        // One settle queued per reference (the queue's 'short' policy), due a second from now, so a
        // burst of deliveries naming it (Paystack's retries, a replay) makes one job, not one each.
        await jobs.send(
          'payment-settle',
          { reference },
          { singletonKey: settleKey(reference), startAfter: SETTLE_AFTER_SECONDS },
        );
      } else {
        await settle(
          { db: database.db, provider: payments, log },
          systemActor(c.get('requestId')),
          reference,
        );
      }
    }
    // Every signed delivery is acknowledged, even an event we do not act on, so it is not sent again.
    return ok(c);
  }),
];

export const paymentsRoutes: Route[] = [
  ...feeRoutes,
  ...schoolPaymentRoutes,
  ...paymentRoutes('admin'),
  ...paymentRoutes('school_admin'),
  ...reconciliationRoutes,
  ...webhookRoutes,
];
