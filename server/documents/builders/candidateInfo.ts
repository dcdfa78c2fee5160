import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { DocumentCell } from '../../../contract/documents';
import { formatDateTime } from '../../../contract/format';
import { sanctionTerm } from '../../../contract/offenders';
import { FEE_KIND_LABELS, formatNaira, PAYMENT_STATUS_LABELS } from '../../../contract/payments';
import { RESULT_OUTCOME_LABELS, formatMark } from '../../../contract/scores';
import type { Database } from '../../db/client';
import {
  courseHeaders,
  diets,
  examOffences,
  fees,
  paymentItems,
  payments,
  publishedResults,
  registrations,
  resits,
  resultPublications,
} from '../../db/schema';
import { activeSanction } from '../../sanctions';
import type { BuiltBlock, DocumentBuilder } from '../builder';
import { headingOf } from '../common';
import { identityBlocks, identityFacts, plainRows, recordOf } from './candidateRecord';

/**
 * The candidate information sheet: who the candidate is, then each diet they have anything at
 * (registration, a resit entry, a payment, an offence, a published result), oldest first: whether
 * they were registered or barred, what was paid for them, the offences recorded and their sanctions,
 * and their results as published (a withdrawn publication shows as withdrawn; results never published
 * are not shown), so the board can answer a candidate's or an employer's question from one paper.
 */

/** A candidate's rows of each kind, each with its diet. */
async function historyOf(db: Database, candidateId: number) {
  const [registered, resitEntries, paid, offences, published] = await Promise.all([
    db
      .select({ dietId: registrations.dietId, status: registrations.regStatus })
      .from(registrations)
      .where(eq(registrations.candidateId, candidateId)),
    db
      .select({ dietId: resits.dietId, papers: resits.papers })
      .from(resits)
      .where(and(eq(resits.candidateId, candidateId), isNull(resits.removedAt))),
    db
      .select({
        dietId: fees.dietId,
        fee: fees.title,
        kind: fees.kind,
        reference: payments.reference,
        amountKobo: paymentItems.amountKobo,
        status: payments.status,
        paidAt: payments.paidAt,
        createdAt: payments.createdAt,
      })
      .from(paymentItems)
      .innerJoin(payments, eq(payments.id, paymentItems.paymentId))
      .innerJoin(fees, eq(fees.id, paymentItems.feeId))
      .where(eq(paymentItems.candidateId, candidateId))
      .orderBy(asc(payments.createdAt), asc(payments.id)),
    // A removed offence was recorded in error (docs/decisions.md), so it is not the candidate's history.
    db
      .select({
        dietId: examOffences.dietId,
        offence: examOffences.offence,
        sanction: examOffences.sanction,
        sanction_diets: examOffences.sanctionDiets,
        sanction_from: examOffences.sanctionFrom,
        sanction_until: examOffences.sanctionUntil,
        dietName: diets.name,
      })
      .from(examOffences)
      .innerJoin(diets, eq(diets.id, examOffences.dietId))
      .where(and(eq(examOffences.candidateId, candidateId), isNull(examOffences.removedAt)))
      .orderBy(asc(examOffences.id)),
    db
      .select({
        dietId: publishedResults.dietId,
        courseHeader: courseHeaders.code,
        examMark: publishedResults.examMark,
        inCourseMark: publishedResults.inCourseMark,
        finalMark: publishedResults.finalMark,
        grade: publishedResults.grade,
        outcome: publishedResults.outcome,
        withdrawnAt: resultPublications.withdrawnAt,
      })
      .from(publishedResults)
      .innerJoin(
        resultPublications,
        and(
          eq(resultPublications.dietId, publishedResults.dietId),
          eq(resultPublications.courseHeaderId, publishedResults.courseHeaderId),
        ),
      )
      .innerJoin(courseHeaders, eq(courseHeaders.id, publishedResults.courseHeaderId))
      .where(eq(publishedResults.candidateId, candidateId))
      .orderBy(asc(courseHeaders.code)),
  ]);
  const dietIds = [
    ...new Set([...registered, ...resitEntries, ...paid, ...offences, ...published].map((row) => row.dietId)),
  ];
  const dietRows = dietIds.length
    ? await db
        .select({ id: diets.id, code: diets.code, name: diets.name })
        .from(diets)
        .where(inArray(diets.id, dietIds))
        .orderBy(asc(diets.firstPaperOn))
    : [];
  return { dietRows, registered, resitEntries, paid, offences, published };
}

type History = Awaited<ReturnType<typeof historyOf>>;
type PublishedRow = History['published'][number];

/** A published result as the sheet prints it: withdrawn when the board withdrew its publication. */
const resultCells = (row: PublishedRow): string[] =>
  row.withdrawnAt
    ? [row.courseHeader, '', '', '', '', 'Withdrawn']
    : [
        row.courseHeader,
        formatMark(row.examMark),
        formatMark(row.inCourseMark),
        formatMark(row.finalMark),
        row.grade ?? '',
        RESULT_OUTCOME_LABELS[row.outcome],
      ];

const REGISTRATION_WORDS = { registered: 'Registered', unregistered: 'Unregistered' } as const;

export const candidateInfoBuilder: DocumentBuilder = {
  ending: 'candidate-info',
  count: async () => 1,
  async build(db, scope) {
    const printed = await recordOf(db, scope);
    const candidateId = printed.loaded.record.id;
    const history = await historyOf(db, candidateId);
    const blocks: BuiltBlock[] = [...identityBlocks(printed)];
    const facts: Record<string, string> = { ...identityFacts(printed) };
    if (!history.dietRows.length) {
      blocks.push({ kind: 'text', text: 'No registration, resit entry, payment, offence or published result at any diet.' });
    }
    for (const diet of history.dietRows) {
      const title = `${diet.name} (${diet.code})`;
      const registration = history.registered.find((row) => row.dietId === diet.id);
      const resit = history.resitEntries.find((row) => row.dietId === diet.id);
      const barring = await activeSanction(db, candidateId, diet.id);
      const registrationText = registration ? REGISTRATION_WORDS[registration.status] : 'Not registered';
      const sanctionText = barring ? `Barred: ${barring.offence}` : 'None';
      blocks.push({
        kind: 'fields',
        title,
        fields: [
          { label: 'Registration', value: registrationText },
          { label: 'Resit entry', value: resit ? resit.papers.join(', ') : 'None' },
          { label: 'Sanction in force', value: sanctionText },
        ],
      });
      facts[`Registration, ${diet.code}`] = registrationText;
      facts[`Sanction, ${diet.code}`] = sanctionText;

      const paid = history.paid.filter((row) => row.dietId === diet.id);
      if (paid.length) {
        blocks.push({
          kind: 'table',
          title: `Payments, ${diet.code}`,
          columns: [
            { label: 'Paid for', width: 2 },
            { label: 'Reference', width: 2 },
            { label: 'Amount', align: 'right' },
            { label: 'Date', width: 1.3 },
            { label: 'Status' },
          ],
          rows: plainRows(
            paid.map((row): DocumentCell[] => [
              `${row.fee} (${FEE_KIND_LABELS[row.kind]})`,
              row.reference,
              formatNaira(row.amountKobo),
              formatDateTime(row.paidAt ?? row.createdAt),
              PAYMENT_STATUS_LABELS[row.status],
            ]),
          ),
        });
      }

      const offences = history.offences.filter((row) => row.dietId === diet.id);
      if (offences.length) {
        blocks.push({
          kind: 'table',
          title: `Offences at ${diet.code}`,
          columns: [{ label: 'Offence', width: 2 }, { label: 'Sanction', width: 2 }, { label: 'Runs', width: 1.5 }],
          rows: plainRows(
            offences.map((row) => [row.offence, row.sanction, sanctionTerm({ ...row, diet: { name: row.dietName } })]),
          ),
        });
      }

      const published = history.published.filter((row) => row.dietId === diet.id);
      if (published.length) {
        blocks.push({
          kind: 'table',
          title: `Results, ${diet.code}`,
          columns: [
            { label: 'Course header' },
            { label: 'Exam mark', align: 'right' },
            { label: 'In-course mark', align: 'right' },
            { label: 'Final mark', align: 'right' },
            { label: 'Grade' },
            { label: 'Outcome' },
          ],
          rows: plainRows(published.map(resultCells)),
        });
        for (const row of published) {
          const cells = resultCells(row);
          facts[`Result, ${diet.code} ${row.courseHeader}`] = cells[5] + (cells[4] ? ` (${cells[4]})` : '');
        }
      }
    }
    blocks.push({ kind: 'text', text: 'Results are shown as the board published them; results not yet published are not shown.' });
    return { heading: headingOf(scope), blocks, facts };
  },
};
