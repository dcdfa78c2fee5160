import { and, desc, eq, sql } from 'drizzle-orm';
import { DOCUMENT_PARAM_LABELS as L } from '../../contract/documents';
import { formatDateTime } from '../../contract/format';
import {
  PAYMENT_STATUS_LABELS,
  formatNaira,
  type PaymentDetail,
  type PaymentRow,
} from '../../contract/payments';
import { userOf, type Actor } from '../audit';
import type { Database } from '../db/client';
import { documentPrints, payments } from '../db/schema';
import { selectPayments, toPaymentRow } from '../payments/service';
import type { Facts } from './builder';
import { codeKey, makeCode } from './codes';
import { verificationOf } from './qr';

/**
 * A payment receipt's code, as a printed document's: a print with ending 'receipt' (document_prints)
 * certifying the reference, the school, the amount, the status, the number of candidates and when it
 * was paid. It is made when the receipt is first shown and the same print is shown again while what it
 * certifies still holds; when the payment changes (paid after pending, sent to review), the next showing
 * gets a new print, and a paper printed before verifies as 'changed' ('Status: was Paid, now Review').
 */

export const RECEIPT_TITLE = 'Payment receipt';

/** What a receipt certifies, as the receipt shows it. */
function receiptFacts(payment: PaymentRow): Facts {
  return {
    Reference: payment.transaction_ref,
    [L.school]: `${payment.school.name} (${payment.school.code})`,
    Amount: formatNaira(payment.amount_kobo),
    Status: PAYMENT_STATUS_LABELS[payment.status],
    Candidates: String(payment.candidates),
    'Paid on': payment.paid_at ? formatDateTime(payment.paid_at) : 'Not paid',
  };
}

/** A payment as a receipt verifies it now; null when there is no such payment any more. */
export async function currentReceiptFacts(db: Database, paymentId: number): Promise<Facts | null> {
  const [row] = await selectPayments(db).where(eq(payments.id, paymentId));
  return row ? receiptFacts(toPaymentRow(row)) : null;
}

/** The same labels with the same values, in any order. */
const sameFacts = (stored: [string, string][], now: Facts) =>
  stored.length === Object.keys(now).length && stored.every(([label, value]) => now[label] === value);

/** The receipt with its code: the payment's newest receipt print if it still holds, else a new one. */
export async function withReceiptCode(
  db: Database,
  publicUrl: string,
  actor: Actor,
  detail: Omit<PaymentDetail, 'verification'>,
): Promise<PaymentDetail> {
  const facts = receiptFacts(detail);
  const key = await codeKey(db);
  const newestPrint = async (reader: Database) => {
    const [newest] = await reader
      .select({ id: documentPrints.id, facts: documentPrints.facts })
      .from(documentPrints)
      .where(and(eq(documentPrints.paymentId, detail.id), eq(documentPrints.ending, 'receipt')))
      .orderBy(desc(documentPrints.id))
      .limit(1);
    return newest && sameFacts(newest.facts, facts) ? newest.id : null;
  };
  // Shown again unchanged (the usual case: a verify of a payment still pending), its print is read
  // without a transaction; a print stored is never changed, so what holds now is the one to show.
  const printId =
    (await newestPrint(db)) ??
    (await db.transaction(async (tx) => {
      // Two showings at once make one print: the second waits for the first's and reuses it.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`receipt:${detail.id}`}))`);
      const held = await newestPrint(tx);
      if (held !== null) return held;
      // Shown to someone signed in (both routes are), who is recorded as its printer.
      const [row] = await tx
        .insert(documentPrints)
        .values({
          ending: 'receipt',
          query: { reference: detail.transaction_ref },
          trainingSchoolId: detail.school.id,
          paymentId: detail.id,
          printedBy: userOf(actor),
          impersonatorId: actor.impersonatorId,
          heading: [
            { label: L.school, value: `${detail.school.name} (${detail.school.code})` },
            { label: L.diet, value: detail.diet.code },
            { label: 'Fee', value: detail.fee.title },
          ],
          facts: Object.entries(facts),
          finishedAt: sql`now()`,
        })
        .returning({ id: documentPrints.id });
      return row.id;
    }));
  return { ...detail, verification: verificationOf(makeCode(key, { printId, row: 0 }), publicUrl) };
}
