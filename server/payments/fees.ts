import { and, count, eq, ilike, inArray, sql } from 'drizzle-orm';
import { PAYMENT_MESSAGES as M, type FeeRow, type FeeStatus } from '../../contract/payments';
import type { feeValidator } from '../../contract/payments.validators';
import { audit, changeAudited, userOf, type Actor } from '../audit';
import type { Database } from '../db/client';
import { courseHeaders, diets, fees, payments } from '../db/schema';
import { dietByCode, unknownDiet } from '../diets/byCode';
import { Invalid, NotFound, Refused } from '../errors';
import { containsPattern } from '../http/paging';

/**
 * The board's fees (admin, /payments): add, edit, make active or inactive, delete. Once a payment has
 * been credited against a fee its amount, basis and diet are what that money paid for: they cannot
 * change and the fee cannot be deleted (made inactive, it stops being collected; a new fee replaces it).
 */

type FeeInput = Awaited<ReturnType<typeof feeValidator.validate>>;
type StoredFee = typeof fees.$inferSelect;

export const selectFees = (db: Database) =>
  db
    .select({ fee: fees, diet: { id: diets.id, code: diets.code, name: diets.name } })
    .from(fees)
    .innerJoin(diets, eq(diets.id, fees.dietId))
    .$dynamic();

export const toFeeRow = ({
  fee,
  diet,
}: {
  fee: StoredFee;
  diet: { id: number; code: string; name: string };
}): FeeRow => ({
  id: fee.id,
  title: fee.title,
  kind: fee.kind,
  basis: fee.basis,
  amount_kobo: fee.amountKobo,
  status: fee.status,
  diet,
  course_headers: fee.courseHeaderIds.map((id) => ({ id, code: '' })),
  paid_payments: 0,
  created_at: fee.createdAt.toISOString(),
});

/** A page's course header codes and credited payments, in two queries. */
export async function completeFees(db: Database, rows: FeeRow[]): Promise<FeeRow[]> {
  if (!rows.length) return rows;
  const headerIds = [...new Set(rows.flatMap((row) => row.course_headers.map((h) => h.id)))];
  const codes = headerIds.length
    ? new Map(
        (
          await db
            .select({ id: courseHeaders.id, code: courseHeaders.code })
            .from(courseHeaders)
            .where(inArray(courseHeaders.id, headerIds))
        ).map((h) => [h.id, h.code]),
      )
    : new Map<number, string>();
  const paid = new Map(
    (
      await db
        .select({ feeId: payments.feeId, total: count() })
        .from(payments)
        .where(
          and(
            inArray(
              payments.feeId,
              rows.map((row) => row.id),
            ),
            eq(payments.status, 'paid'),
          ),
        )
        .groupBy(payments.feeId)
    ).map((row) => [row.feeId, row.total]),
  );
  return rows.map((row) => ({
    ...row,
    course_headers: row.course_headers
      .map((h) => ({ id: h.id, code: codes.get(h.id) ?? '' }))
      .sort((a, b) => a.code.localeCompare(b.code)),
    paid_payments: paid.get(row.id) ?? 0,
  }));
}

async function readFee(db: Database, id: number): Promise<FeeRow> {
  const [row] = await selectFees(db).where(eq(fees.id, id));
  if (!row) throw new NotFound(M.feeNotFound);
  return (await completeFees(db, [toFeeRow(row)]))[0];
}

/** The list's search: the fee's title. */
export const feeSearch = (text: string) => [ilike(fees.title, containsPattern(text))];

/** The diet (by code) and the course headers (by code) a fee form names, or its fields' messages. */
async function resolveChoices(db: Database, input: FeeInput) {
  const diet = await dietByCode(db, input.diet);
  const codes = input.course_headers ?? [];
  const headers = codes.length
    ? await db.select({ id: courseHeaders.id }).from(courseHeaders).where(inArray(courseHeaders.code, codes))
    : [];
  const problems: Record<string, string[]> = {};
  if (!diet) Object.assign(problems, unknownDiet());
  if (headers.length !== codes.length) problems.course_headers = [M.courseHeadersInvalid];
  if (Object.keys(problems).length) throw new Invalid(problems);
  return { dietId: diet!.id, courseHeaderIds: headers.map((h) => h.id).sort((a, b) => a - b) };
}

const snapshotOf = (fee: StoredFee) => ({
  title: fee.title,
  kind: fee.kind,
  basis: fee.basis,
  amount_kobo: fee.amountKobo,
  diet_id: fee.dietId,
  course_header_ids: fee.courseHeaderIds,
  status: fee.status,
});

/** Whether any payment against the fee was credited (its money paid for what the fee said). */
async function paidCount(db: Database, feeId: number): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(payments)
    .where(and(eq(payments.feeId, feeId), eq(payments.status, 'paid')));
  return row.total;
}

export async function createFee(tx: Database, actor: Actor, input: FeeInput): Promise<FeeRow> {
  const choices = await resolveChoices(tx, input);
  const [created] = await tx
    .insert(fees)
    .values({
      title: input.title,
      kind: input.kind,
      basis: input.basis,
      amountKobo: input.amount,
      ...choices,
      createdBy: userOf(actor),
    })
    .returning();
  await audit(tx, actor, { action: 'fee.created', entityId: created.id, after: snapshotOf(created) });
  return readFee(tx, created.id);
}

export async function updateFee(tx: Database, actor: Actor, id: number, input: FeeInput): Promise<FeeRow> {
  const choices = await resolveChoices(tx, input);
  await changeAudited(tx, actor, {
    table: fees,
    id,
    notFound: M.feeNotFound,
    action: 'fee.updated',
    snapshot: snapshotOf,
    set: async (before) => {
      const changesMoney =
        before.amountKobo !== input.amount ||
        before.basis !== input.basis ||
        before.dietId !== choices.dietId;
      if (changesMoney && (await paidCount(tx, id)) > 0) throw new Refused(409, M.feePaidLocked);
      return {
        title: input.title,
        kind: input.kind,
        basis: input.basis,
        amountKobo: input.amount,
        ...choices,
      };
    },
  });
  return readFee(tx, id);
}

export async function setFeeStatus(tx: Database, actor: Actor, id: number, status: FeeStatus) {
  await changeAudited(tx, actor, {
    table: fees,
    id,
    notFound: M.feeNotFound,
    action: 'fee.status_changed',
    snapshot: (fee) => ({ title: fee.title, status: fee.status }),
    set: () => ({ status }),
  });
  return readFee(tx, id);
}

/**
 * Deletes a fee nobody has paid. One with payments started but not credited is refused too: the payer
 * may still complete one at the provider, and its money must find its fee.
 */
export async function deleteFee(tx: Database, actor: Actor, id: number): Promise<void> {
  const [fee] = await tx.select().from(fees).where(eq(fees.id, id)).for('update');
  if (!fee) throw new NotFound(M.feeNotFound);
  const [started] = await tx
    .select({ paid: sql<number>`count(*) filter (where ${payments.status} = 'paid')`, all: count() })
    .from(payments)
    .where(eq(payments.feeId, id));
  if (Number(started.paid) > 0) throw new Refused(409, M.feePaidLocked);
  if (started.all > 0) throw new Refused(409, M.feeStartedLocked);
  await tx.delete(fees).where(eq(fees.id, id));
  await audit(tx, actor, { action: 'fee.deleted', entityId: id, before: snapshotOf(fee) });
}
