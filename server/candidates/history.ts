import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type {
  DossierOffence,
  DossierPayment,
  DossierRegistration,
  DossierResult,
} from '../../contract/candidateDossier';
import { sanctionTerm } from '../../contract/offenders';
import { formatMark } from '../../contract/scores';
import type { Database } from '../db/client';
import {
  courseHeaders,
  diets,
  examOffences,
  fees,
  paymentItems,
  payments,
  publishedResults,
  registrations,
  resultPublications,
} from '../db/schema';
import { selectOffenders, toOffenderRow } from '../offenders/service';

/**
 * A candidate's history, one reader a concept: registration per diet, payments, offences and their
 * sanctions, published results. The record page (server/candidates/dossier.ts) and the printed record
 * (server/documents/builders/candidateInfo.ts) both read them here, in the contract's shapes, so the
 * page and the paper cannot disagree. Each takes the handle it runs on (a transaction or the pool), as
 * the services do, and reads on an index of its table by candidate.
 */

/** A row a diet the candidate has been registered or unregistered for, newest diet first. */
export async function registrationsOf(db: Database, id: number): Promise<DossierRegistration[]> {
  const rows = await db
    .select({
      code: diets.code,
      name: diets.name,
      current: diets.current,
      regStatus: registrations.regStatus,
      changedAt: registrations.updatedAt,
    })
    .from(registrations)
    .innerJoin(diets, eq(diets.id, registrations.dietId))
    .where(eq(registrations.candidateId, id))
    .orderBy(desc(diets.firstPaperOn), desc(diets.id));
  return rows.map((row) => ({
    diet: { code: row.code, name: row.name },
    reg_status: row.regStatus,
    current: row.current,
    changed_at: row.changedAt.toISOString(),
  }));
}

/** Every payment that lists the candidate, newest first, whatever its status. */
export async function paymentsOf(db: Database, id: number): Promise<DossierPayment[]> {
  const rows = await db
    .select({
      reference: payments.reference,
      feeTitle: fees.title,
      feeKind: fees.kind,
      dietCode: diets.code,
      amountKobo: paymentItems.amountKobo,
      paymentKobo: payments.amountKobo,
      status: payments.status,
      credited: paymentItems.credited,
      receiptNumber: payments.receiptNumber,
      paidAt: payments.paidAt,
      startedAt: payments.createdAt,
    })
    .from(paymentItems)
    .innerJoin(payments, eq(payments.id, paymentItems.paymentId))
    .innerJoin(fees, eq(fees.id, paymentItems.feeId))
    .innerJoin(diets, eq(diets.id, fees.dietId))
    .where(eq(paymentItems.candidateId, id))
    .orderBy(desc(payments.id));
  return rows.map((row) => ({
    reference: row.reference,
    fee: { title: row.feeTitle, kind: row.feeKind, diet: row.dietCode },
    amount_kobo: row.amountKobo,
    payment_kobo: row.paymentKobo,
    status: row.status,
    credited: row.credited,
    receipt_number: row.receiptNumber,
    date: (row.paidAt ?? row.startedAt).toISOString(),
  }));
}

/**
 * The offences recorded against the candidate and still on the list (a removed one was recorded in
 * error, docs/decisions.md), newest first; `in_force` as the offenders list says it on `today`.
 */
export async function offencesOf(db: Database, id: number, today: string): Promise<DossierOffence[]> {
  const rows = await selectOffenders(db, today)
    .where(and(eq(examOffences.candidateId, id), isNull(examOffences.removedAt)))
    .orderBy(desc(examOffences.id));
  return rows.map((row) => {
    const offence = toOffenderRow(row);
    return {
      id: offence.id,
      diet: offence.diet,
      offence: offence.offence,
      sanction: offence.sanction,
      term: sanctionTerm(offence),
      in_force: offence.active,
      recorded_at: offence.created_at,
    };
  });
}

/**
 * What was published about the candidate: the rows of each publication, live or withdrawn, newest diet
 * first and by course header within it. Results never published are not the candidate's to read yet.
 */
export async function resultsOf(db: Database, id: number): Promise<DossierResult[]> {
  const rows = await db
    .select({
      dietCode: diets.code,
      dietName: diets.name,
      courseHeader: courseHeaders.code,
      examMark: publishedResults.examMark,
      inCourseMark: publishedResults.inCourseMark,
      finalMark: publishedResults.finalMark,
      grade: publishedResults.grade,
      outcome: publishedResults.outcome,
      publishedAt: publishedResults.publishedAt,
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
    .innerJoin(diets, eq(diets.id, publishedResults.dietId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, publishedResults.courseHeaderId))
    .where(eq(publishedResults.candidateId, id))
    .orderBy(desc(diets.firstPaperOn), desc(diets.id), asc(courseHeaders.code));
  return rows.map((row): DossierResult => {
    const diet = { code: row.dietCode, name: row.dietName };
    // A withdrawn publication's marks are the board's to correct, not anyone's to read any more.
    if (row.withdrawnAt) {
      return {
        status: 'withdrawn',
        diet,
        course_header: row.courseHeader,
        withdrawn_at: row.withdrawnAt.toISOString(),
      };
    }
    return {
      status: 'published',
      diet,
      course_header: row.courseHeader,
      exam_mark: formatMark(row.examMark),
      in_course_mark: formatMark(row.inCourseMark),
      final_mark: formatMark(row.finalMark),
      grade: row.grade ?? '',
      outcome: row.outcome,
      published_at: row.publishedAt.toISOString(),
    };
  });
}
