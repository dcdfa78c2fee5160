import { and, eq, gte, ilike, isNotNull, isNull, or, sql } from 'drizzle-orm';
import {
  PAYMENT_MESSAGES as M,
  type PaymentIssueKind,
  type PaidWhen,
  type PaymentIssueRow,
  type PaymentStatus,
} from '../../contract/payments';
import { boardPeriodStart } from '../boardDate';
import { changeAudited, userOf, type Actor } from '../audit';
import type { Database } from '../db/client';
import { diets, fees, paymentIssues, payments, trainingSchools, users } from '../db/schema';
import { dietCodeIs } from '../diets/byCode';
import { Refused } from '../errors';
import { containsPattern } from '../http/paging';
import { selectPayments, toPaymentRow } from './service';

/**
 * The reconciliation queue (admin) and the list sources of the payments area: the fees, the payment
 * histories (both roles) and the queue, each read by the list helper (server/lists/route.ts).
 */

const one = (db: Database) => db.select({ one: sql`1` });

const selectIssues = (db: Database) =>
  db
    .select({
      issue: paymentIssues,
      school: { code: trainingSchools.code },
      resolver: users.name,
    })
    .from(paymentIssues)
    .leftJoin(payments, eq(payments.id, paymentIssues.paymentId))
    .leftJoin(trainingSchools, eq(trainingSchools.id, payments.trainingSchoolId))
    .leftJoin(users, eq(users.id, paymentIssues.resolvedBy))
    .$dynamic();

const toIssueRow = ({
  issue,
  school,
  resolver,
}: Awaited<ReturnType<typeof selectIssues>>[number]): PaymentIssueRow => ({
  id: issue.id,
  kind: issue.kind,
  transaction_ref: issue.reference,
  payment_id: issue.paymentId,
  school: school?.code ? school : null,
  detail: issue.detail,
  created_at: issue.createdAt.toISOString(),
  resolved_at: issue.resolvedAt?.toISOString() ?? null,
  resolved_by: resolver,
  resolution: issue.resolution,
});

export const paymentIssueSource = {
  rows: selectIssues,
  matching: (db: Database) => one(db).from(paymentIssues).$dynamic(),
  key: paymentIssues.id,
  search: (text: string) => [ilike(paymentIssues.reference, containsPattern(text))],
  filters: {
    state: (state: string) =>
      state === 'open' ? isNull(paymentIssues.resolvedAt) : isNotNull(paymentIssues.resolvedAt),
    kind: (kind: string) => eq(paymentIssues.kind, kind as PaymentIssueKind),
  },
  sorts: { opened: [] },
  toRow: toIssueRow,
};

/** Payment histories: newest first; a school admin's are their school's (the helper scopes them). */
export const paymentHistorySource = {
  rows: selectPayments,
  matching: (db: Database) =>
    one(db)
      .from(payments)
      .innerJoin(fees, eq(fees.id, payments.feeId))
      .innerJoin(diets, eq(diets.id, fees.dietId))
      .innerJoin(trainingSchools, eq(trainingSchools.id, payments.trainingSchoolId))
      .$dynamic(),
  key: payments.id,
  school: payments.trainingSchoolId,
  search: (text: string) => {
    const pattern = containsPattern(text);
    return [or(ilike(payments.reference, pattern), ilike(payments.receiptNumber, pattern))!];
  },
  filters: {
    status: (status: string) => eq(payments.status, status as PaymentStatus),
    // Paid today or this week, Lagos time: what the Dashboard's money links count.
    paid: (when: string) =>
      and(eq(payments.status, 'paid'), gte(payments.paidAt, boardPeriodStart(when as PaidWhen)))!,
    diet: dietCodeIs,
    school: (code: string) => eq(trainingSchools.code, code.toUpperCase()),
  },
  sorts: { started: [], amount: [payments.amountKobo] },
  toRow: toPaymentRow,
};

/** Marks an item resolved, with the note that says how; audited. An item resolves once. */
export async function resolveIssue(tx: Database, actor: Actor, id: number, note: string) {
  await changeAudited(tx, actor, {
    table: paymentIssues,
    id,
    notFound: M.issueNotFound,
    action: 'payment_issue.resolved',
    snapshot: (issue) => ({
      kind: issue.kind,
      reference: issue.reference,
      resolved_at: issue.resolvedAt,
      resolution: issue.resolution,
    }),
    set: (issue) => {
      if (issue.resolvedAt) throw new Refused(409, M.issueAlreadyResolved);
      return { resolvedAt: new Date(), resolvedBy: userOf(actor), resolution: note };
    },
  });
  const [row] = await selectIssues(tx).where(and(eq(paymentIssues.id, id)));
  return toIssueRow(row);
}
