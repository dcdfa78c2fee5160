import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { resultCells } from '../../../contract/candidateDossier';
import type { DocumentCell } from '../../../contract/documents';
import { formatDateTime } from '../../../contract/format';
import { FEE_KIND_LABELS, formatNaira, PAYMENT_STATUS_LABELS } from '../../../contract/payments';
import { boardToday } from '../../boardDate';
import { offencesOf, paymentsOf, registrationsOf, resultsOf } from '../../candidates/history';
import type { Database } from '../../db/client';
import { diets, resits } from '../../db/schema';
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
 * Registrations, payments, offences and results are read by the record page's own readers
 * (server/candidates/history.ts), so the page and the paper show the same rows.
 */

/** A candidate's rows of each kind, each with its diet's code, and those diets oldest first. */
async function historyOf(db: Database, candidateId: number) {
  const [registered, resitEntries, paid, offences, published] = await Promise.all([
    registrationsOf(db, candidateId),
    db
      .select({ diet: diets.code, papers: resits.papers })
      .from(resits)
      .innerJoin(diets, eq(diets.id, resits.dietId))
      .where(and(eq(resits.candidateId, candidateId), isNull(resits.removedAt))),
    paymentsOf(db, candidateId),
    // Whether a sanction is in force today is not printed (the sheet says what covers each diet).
    offencesOf(db, candidateId, boardToday()),
    resultsOf(db, candidateId),
  ]);
  const codes = new Set([
    ...registered.map((row) => row.diet.code),
    ...resitEntries.map((row) => row.diet),
    ...paid.map((row) => row.fee.diet),
    ...offences.map((row) => row.diet.code),
    ...published.map((row) => row.diet.code),
  ]);
  const dietRows = codes.size
    ? await db
        .select({ id: diets.id, code: diets.code, name: diets.name })
        .from(diets)
        .where(inArray(diets.code, [...codes]))
        .orderBy(asc(diets.firstPaperOn))
    : [];
  // The readers give the newest first, as the page shows them; the paper lists each diet's oldest first.
  return {
    dietRows,
    registered,
    resitEntries,
    paid: paid.toReversed(),
    offences: offences.toReversed(),
    published,
  };
}

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
      blocks.push({
        kind: 'text',
        text: 'No registration, resit entry, payment, offence or published result at any diet.',
      });
    }
    for (const diet of history.dietRows) {
      const title = `${diet.name} (${diet.code})`;
      const registration = history.registered.find((row) => row.diet.code === diet.code);
      const resit = history.resitEntries.find((row) => row.diet === diet.code);
      const barring = await activeSanction(db, candidateId, diet.id);
      const registrationText = registration ? REGISTRATION_WORDS[registration.reg_status] : 'Not registered';
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

      const paid = history.paid.filter((row) => row.fee.diet === diet.code);
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
              `${row.fee.title} (${FEE_KIND_LABELS[row.fee.kind]})`,
              row.reference,
              formatNaira(row.amount_kobo),
              formatDateTime(row.date),
              PAYMENT_STATUS_LABELS[row.status],
            ]),
          ),
        });
      }

      const offences = history.offences.filter((row) => row.diet.code === diet.code);
      if (offences.length) {
        blocks.push({
          kind: 'table',
          title: `Offences at ${diet.code}`,
          columns: [
            { label: 'Offence', width: 2 },
            { label: 'Sanction', width: 2 },
            { label: 'Runs', width: 1.5 },
          ],
          rows: plainRows(offences.map((row) => [row.offence, row.sanction, row.term])),
        });
      }

      const published = history.published.filter((row) => row.diet.code === diet.code);
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
          rows: plainRows(published.map((row) => resultCells(row))),
        });
        for (const row of published) {
          const cells = resultCells(row);
          facts[`Result, ${diet.code} ${row.course_header}`] = cells[5] + (cells[4] ? ` (${cells[4]})` : '');
        }
      }
    }
    blocks.push({
      kind: 'text',
      text: 'Results are shown as the board published them; results not yet published are not shown.',
    });
    return { heading: headingOf(scope), blocks, facts };
  },
};
