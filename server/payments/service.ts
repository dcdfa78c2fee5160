import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { formatPersonName } from '../../contract/format';
import {
  PAYMENT_CURRENCY,
  PAYMENT_MESSAGES as M,
  SANDBOX_NOTICE,
  type PayableFee,
  type PaymentDetail,
  type PaymentQuote,
  type PaymentRow,
  type PaymentStart,
  type UnpaidCandidate,
} from '../../contract/payments';
import type { paymentChoiceValidator } from '../../contract/payments.validators';
import { audit, userOf, type Actor } from '../audit';
import type { Database } from '../db/client';
import {
  candidates,
  courseHeaders,
  dietExtensions,
  diets,
  fees,
  paymentItems,
  payments,
  registrations,
  resits,
  trainingSchools,
  users,
} from '../db/schema';
import { isUniqueViolation } from '../db/errors';
import { Invalid, NotFound, Refused } from '../errors';
import { completeFees, selectFees, toFeeRow } from './fees';
import type { PaymentProvider } from './provider';
import { abandonUnstarted } from './settle';

/**
 * What a school pays (school admin, /payments): the fees it owes, who each covers and who is unpaid,
 * the server's quote, and starting a payment at the provider. Settling is server/payments/settle.ts.
 */

type StoredFee = typeof fees.$inferSelect;
type Choice = Awaited<ReturnType<typeof paymentChoiceValidator.validate>>;

/**
 * Who owes a per-candidate fee: the one place that decides, used by the counts, the unpaid list, the
 * quote and the start. The school's candidates under the fee's course headers (all, when it names none)
 * who, for the fee's diet:
 * - registration, other: are registered;
 * - late registration: are registered, and were registered at or after the school's window closed (the
 *   diet's close, or the school's extension when it runs later): nobody owes it while the window is open;
 * - resit: have a resit entry (not removed);
 * - indexing: every candidate of the school (each has an index number once added).
 */
function owedBy(fee: StoredFee, schoolId: number): SQL {
  const conditions: SQL[] = [eq(candidates.trainingSchoolId, schoolId)];
  if (fee.courseHeaderIds.length) {
    conditions.push(inArray(candidates.courseHeaderId, fee.courseHeaderIds));
  }
  const registered = sql`${registrations.candidateId} = ${candidates.id} and ${registrations.dietId} = ${fee.dietId} and ${registrations.regStatus} = 'registered'`;
  switch (fee.kind) {
    case 'resit':
      conditions.push(
        sql`exists (select 1 from ${resits} where ${resits.candidateId} = ${candidates.id} and ${resits.dietId} = ${fee.dietId} and ${resits.removedAt} is null)`,
      );
      break;
    case 'late_registration':
      conditions.push(
        sql`exists (select 1 from ${registrations} join ${diets} on ${diets.id} = ${registrations.dietId} left join ${dietExtensions} on ${dietExtensions.dietId} = ${registrations.dietId} and ${dietExtensions.trainingSchoolId} = ${candidates.trainingSchoolId} where ${registered} and ${registrations.createdAt} >= greatest(${diets.registrationClosesAt}, ${dietExtensions.until}))`,
      );
      break;
    case 'indexing':
      break;
    default:
      conditions.push(sql`exists (select 1 from ${registrations} where ${registered})`);
  }
  return and(...conditions)!;
}

/** A candidate already credited for this fee. */
const creditedFor = (feeId: number) =>
  sql`exists (select 1 from ${paymentItems} where ${paymentItems.feeId} = ${feeId} and ${paymentItems.candidateId} = ${candidates.id} and ${paymentItems.credited})`;

const candidateColumns = {
  id: candidates.id,
  candidate_index: candidates.candidateIndex,
  first_name: candidates.first_name,
  last_name: candidates.last_name,
  middle_name: candidates.middle_name,
  course_header: courseHeaders.code,
};

const toCandidate = (row: {
  id: number;
  candidate_index: string | null;
  first_name: string;
  last_name: string;
  middle_name: string | null;
  course_header: string;
}): UnpaidCandidate => ({
  id: row.id,
  candidate_index: row.candidate_index,
  name: formatPersonName(row),
  course_header: row.course_header,
});

/**
 * The school's candidates who owe the fee and are not paid for yet, by index number, each with the
 * payment in progress that holds them (its live item), if any.
 */
export async function unpaidCandidates(
  db: Database,
  fee: StoredFee,
  schoolId: number,
): Promise<UnpaidCandidate[]> {
  const rows = await db
    .select({ ...candidateColumns, reference: payments.reference, status: payments.status })
    .from(candidates)
    .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
    .leftJoin(
      paymentItems,
      and(
        eq(paymentItems.feeId, fee.id),
        eq(paymentItems.candidateId, candidates.id),
        eq(paymentItems.live, true),
      ),
    )
    .leftJoin(payments, eq(payments.id, paymentItems.paymentId))
    .where(and(owedBy(fee, schoolId), sql`not ${creditedFor(fee.id)}`))
    .orderBy(asc(candidates.candidateIndex));
  return rows.map((row) => ({
    ...toCandidate(row),
    in_payment: row.reference && row.status ? { reference: row.reference, status: row.status } : null,
  }));
}

/** The school's payment in progress for a per-school fee (its live item not credited), if any. */
async function schoolInPayment(db: Database, feeId: number, schoolId: number) {
  const [row] = await db
    .select({ reference: payments.reference, status: payments.status })
    .from(paymentItems)
    .innerJoin(payments, eq(payments.id, paymentItems.paymentId))
    .where(
      and(
        eq(paymentItems.feeId, feeId),
        eq(paymentItems.trainingSchoolId, schoolId),
        isNull(paymentItems.candidateId),
        eq(paymentItems.live, true),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The refusal for a chosen candidate (or the school) another payment in progress holds. */
const heldRefusal = (held: UnpaidCandidate) =>
  new Refused(409, M.inPayment(held.name, held.in_payment!.reference, held.in_payment!.status));

async function countCovered(db: Database, fee: StoredFee, schoolId: number) {
  const [row] = await db
    .select({
      all: sql<number>`count(*)::int`,
      paid: sql<number>`count(*) filter (where ${creditedFor(fee.id)})::int`,
    })
    .from(candidates)
    .where(owedBy(fee, schoolId));
  return { unpaid: row.all - row.paid, paid: row.paid };
}

/** Whether the school has paid a per-school fee. */
async function schoolPaid(db: Database, feeId: number, schoolId: number) {
  const [row] = await db
    .select({ id: paymentItems.id })
    .from(paymentItems)
    .where(
      and(
        eq(paymentItems.feeId, feeId),
        eq(paymentItems.trainingSchoolId, schoolId),
        isNull(paymentItems.candidateId),
        eq(paymentItems.credited, true),
      ),
    )
    .limit(1);
  return !!row;
}

/** The fees a school can pay now: active, of a diet not closed; each with what it still owes. */
export async function payableFees(db: Database, schoolId: number): Promise<PayableFee[]> {
  const rows = await selectFees(db)
    .where(and(eq(fees.status, 'active'), isNull(diets.closedAt)))
    .orderBy(asc(diets.firstPaperOn), asc(fees.id));
  const listed = await completeFees(db, rows.map(toFeeRow));
  return Promise.all(
    listed.map(async (fee, i) => {
      const stored = rows[i].fee;
      if (stored.basis === 'school') {
        const paid = await schoolPaid(db, stored.id, schoolId);
        return { ...fee, unpaid: paid ? 0 : 1, paid: paid ? 1 : 0 };
      }
      return { ...fee, ...(await countCovered(db, stored, schoolId)) };
    }),
  );
}

/** A fee the school may pay now (active, its diet not closed), or the refusal. */
export async function payableFee(db: Database, feeId: number): Promise<StoredFee> {
  const [row] = await db
    .select({ fee: fees, closedAt: diets.closedAt })
    .from(fees)
    .innerJoin(diets, eq(diets.id, fees.dietId))
    .where(eq(fees.id, feeId));
  if (!row) throw new Invalid({ fee_id: [M.feeChoose] });
  if (row.fee.status !== 'active' || row.closedAt) throw new Invalid({ fee_id: [M.feeInactive] });
  return row.fee;
}

/**
 * What the school would pay: the fee's amount once (per school), or once for each chosen candidate, every
 * one of whom must be covered and unpaid. The server's sum; the browser's is never read.
 */
export async function quote(db: Database, schoolId: number, choice: Choice): Promise<PaymentQuote> {
  const fee = await payableFee(db, choice.fee_id);
  const about = { id: fee.id, title: fee.title, basis: fee.basis };
  if (fee.basis === 'school') {
    if (await schoolPaid(db, fee.id, schoolId)) throw new Refused(409, M.nothingToPay);
    const held = await schoolInPayment(db, fee.id, schoolId);
    if (held) throw new Refused(409, M.schoolInPayment(held.reference, held.status));
    return { fee: about, amount_kobo: fee.amountKobo, candidates: [] };
  }
  const unpaid = await unpaidCandidates(db, fee, schoolId);
  let chosen: UnpaidCandidate[];
  if (choice.all) {
    // All who are free: those in a payment in progress are left to it.
    chosen = unpaid.filter((c) => !c.in_payment);
    if (!chosen.length && unpaid.length) throw heldRefusal(unpaid[0]);
    if (!chosen.length) throw new Refused(409, M.nothingToPay);
  } else {
    const ids = choice.candidate_ids ?? [];
    if (!ids.length) throw new Invalid({ candidate_ids: [M.candidatesRequired] });
    const byId = new Map(unpaid.map((c) => [c.id, c]));
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length) {
      // Paid meanwhile (another tab), or never this school's to pay for: said differently.
      const covered = await db
        .select({ id: candidates.id })
        .from(candidates)
        .where(and(owedBy(fee, schoolId), inArray(candidates.id, missing)));
      if (covered.length === missing.length) throw new Refused(409, M.alreadyPaid);
      throw new Invalid({ candidate_ids: [M.candidatesInvalid] });
    }
    chosen = ids.map((id) => byId.get(id)!);
    const held = chosen.find((c) => c.in_payment);
    if (held) throw heldRefusal(held);
  }
  return {
    fee: about,
    amount_kobo: fee.amountKobo * chosen.length,
    candidates: chosen.map(({ in_payment: _, ...candidate }) => candidate),
  };
}

/** A reference nobody can guess, that Paystack takes (letters, digits, '-'). */
const newReference = () => `WHB-${randomBytes(9).toString('hex').toUpperCase()}`;

/**
 * Starts a payment: the quote again, then the payment and its items recorded in one transaction, then
 * the transaction at the provider (its access code opens the popup), stored on the payment. Recorded
 * before the provider is asked, so a webhook or a re-query that comes before the provider has answered
 * finds the payment and settles it (never an 'unknown reference'). A provider that fails leaves the
 * payment abandoned and its candidates free, so the school can start again.
 */
export async function startPayment(
  db: Database,
  provider: PaymentProvider,
  actor: Actor,
  schoolId: number,
  choice: Choice,
): Promise<PaymentStart> {
  const [school] = await db.select().from(trainingSchools).where(eq(trainingSchools.id, schoolId));
  if (!school || school.status === 'suspended') throw new Refused(403, M.schoolSuspended);
  const quoted = await quote(db, schoolId, choice);
  const [payer] = await db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, userOf(actor)));
  const fee = await payableFee(db, choice.fee_id);
  const reference = newReference();
  // Recorded with its items live in one transaction: the partial unique indexes on live items refuse a
  // second payment in progress for a candidate (or school) and fee, however many starts race.
  const payment = await db
    .transaction(async (tx) => {
      const [row] = await tx
        .insert(payments)
        .values({
          reference,
          provider: provider.info.name,
          feeId: fee.id,
          trainingSchoolId: schoolId,
          amountKobo: quoted.amount_kobo,
          currency: PAYMENT_CURRENCY,
          status: 'initialised',
          email: payer.email,
          initiatedBy: userOf(actor),
          // Asked again by the re-query job if nobody verifies it (server/payments/settle.ts).
          nextCheckAt: sql`now() + interval '5 minutes'`,
        })
        .returning();
      const items = quoted.candidates.length
        ? quoted.candidates.map((c) => ({ candidateId: c.id }))
        : [{ candidateId: null }];
      await tx.insert(paymentItems).values(
        items.map((item) => ({
          paymentId: row.id,
          feeId: fee.id,
          trainingSchoolId: schoolId,
          candidateId: item.candidateId,
          amountKobo: fee.amountKobo,
          live: true,
        })),
      );
      await audit(tx, actor, {
        action: 'payment.started',
        entityId: row.id,
        after: {
          reference,
          fee_id: fee.id,
          amount_kobo: quoted.amount_kobo,
          candidates: quoted.candidates.map((c) => c.id),
        },
      });
      return row;
    })
    .catch(async (error: unknown) => {
      // Another start took a candidate meanwhile (it has committed): say which payment holds whom.
      if (!isUniqueViolation(error)) throw error;
      await quote(db, schoolId, choice);
      throw new Refused(409, M.inPaymentMeanwhile);
    });

  let accessCode: string;
  try {
    ({ accessCode } = await provider.initialize({
      reference,
      email: payer.email,
      amountKobo: quoted.amount_kobo,
      currency: PAYMENT_CURRENCY,
      metadata: { school: school.code, fee_id: quoted.fee.id, candidates: quoted.candidates.length },
    }));
  } catch (error) {
    await db.transaction((tx) => abandonUnstarted(tx, actor, payment, 'provider_failed'));
    throw error;
  }
  await db.update(payments).set({ accessCode, updatedAt: new Date() }).where(eq(payments.id, payment.id));
  return { reference, access_code: accessCode, amount_kobo: quoted.amount_kobo };
}

// ---------------------------------------------------------------------------------------------------
// Reading payments.

export const selectPayments = (db: Database) =>
  db
    .select({
      payment: payments,
      fee: { id: fees.id, title: fees.title, kind: fees.kind },
      diet: { code: diets.code },
      school: { id: trainingSchools.id, code: trainingSchools.code, name: trainingSchools.name },
      candidates: sql<number>`(select count(${paymentItems.candidateId})::int from ${paymentItems} where ${paymentItems.paymentId} = ${payments.id})`,
    })
    .from(payments)
    .innerJoin(fees, eq(fees.id, payments.feeId))
    .innerJoin(diets, eq(diets.id, fees.dietId))
    .innerJoin(trainingSchools, eq(trainingSchools.id, payments.trainingSchoolId))
    .$dynamic();

type SelectedPayment = Awaited<ReturnType<typeof selectPayments>>[number];

export const toPaymentRow = (row: SelectedPayment): PaymentRow => ({
  id: row.payment.id,
  transaction_ref: row.payment.reference,
  status: row.payment.status,
  amount_kobo: row.payment.amountKobo,
  fee: row.fee,
  diet: row.diet,
  school: row.school,
  candidates: row.candidates,
  receipt_number: row.payment.receiptNumber,
  paid_at: row.payment.paidAt?.toISOString() ?? null,
  gateway_response: row.payment.gatewayResponse,
  provider: row.payment.provider,
  created_at: row.payment.createdAt.toISOString(),
});

/** One payment with what it covers; a school admin's only if it is their school's (else 404). */
/**
 * Whether a payment of this reference is the school's: one indexed row, where the whole detail
 * (`paymentDetail`: three statements) would be read only to be thrown away (a verify checks first,
 * then answers the receipt as it is after the settle).
 */
export async function isSchoolPayment(db: Database, reference: string, schoolId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.reference, reference), eq(payments.trainingSchoolId, schoolId)));
  return row !== undefined;
}

export async function paymentDetail(
  db: Database,
  reference: string,
  schoolId: number | null,
): Promise<Omit<PaymentDetail, 'verification'>> {
  const where =
    schoolId === null
      ? eq(payments.reference, reference)
      : and(eq(payments.reference, reference), eq(payments.trainingSchoolId, schoolId));
  const [row] = await selectPayments(db).where(where);
  if (!row) throw new NotFound(M.notFound);
  // The candidates and the payer's name at once (two connections of PostgreSQL's pool: one wait, not two).
  const [covered, [payer]] = await Promise.all([
    db
      .select(candidateColumns)
      .from(paymentItems)
      .innerJoin(candidates, eq(candidates.id, paymentItems.candidateId))
      .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
      .where(eq(paymentItems.paymentId, row.payment.id))
      .orderBy(asc(candidates.candidateIndex)),
    row.payment.initiatedBy
      ? db.select({ name: users.name }).from(users).where(eq(users.id, row.payment.initiatedBy))
      : [],
  ]);
  const simulated = row.payment.provider === 'sandbox';
  return {
    ...toPaymentRow(row),
    charged_kobo: row.payment.paidAmountKobo,
    fees_kobo: row.payment.feesKobo,
    covered: covered.map(toCandidate),
    paid_by: payer?.name ?? null,
    channel: row.payment.channel,
    simulated,
    notice: simulated ? SANDBOX_NOTICE : null,
  };
}
