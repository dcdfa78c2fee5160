import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { ListedCandidate } from '../contract/listed';
import { audit } from './audit';
import type { Database } from './db/client';
import { candidates, courseHeaders, examOffences, resits, trainingSchools } from './db/schema';
import { auditActor, callerOf, type AppContext } from './http/context';

/**
 * What the exam offenders and resit candidates lists share: each row is about one indexed candidate,
 * found by index number; the list is searched by the candidate's name or number, newest first; and a
 * removed row is kept (`removed_at`, `removed_by`) with an audit entry.
 */

type ListedTable = typeof examOffences | typeof resits;

/** An indexed candidate by index number as typed: exactly, or in capitals (index numbers are). */
export async function findIndexedCandidate(db: Database, typed: string) {
  const [row] = await db
    .select({
      id: candidates.id,
      candidateIndex: candidates.candidateIndex,
      trainingSchoolId: candidates.trainingSchoolId,
      schoolStatus: trainingSchools.status,
      registrationStatus: courseHeaders.registrationStatus,
    })
    .from(candidates)
    .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
    .where(or(eq(candidates.candidateIndex, typed), eq(candidates.candidateIndex, typed.toUpperCase())))
    .limit(1);
  return row ?? null;
}

const candidateColumns = {
  candidateIndex: candidates.candidateIndex,
  firstName: candidates.first_name,
  middleName: candidates.middle_name,
  lastName: candidates.last_name,
  schoolCode: trainingSchools.code,
  schoolName: trainingSchools.name,
  courseHeader: courseHeaders.code,
};

/** `fields` of the table's rows beside their candidate's, school's and course header's (`toListedCandidate`). */
export const selectListed = <F extends SelectedFields>(db: Database, table: ListedTable, fields: F) =>
  db
    .select({ ...fields, ...candidateColumns })
    .from(table)
    .innerJoin(candidates, eq(candidates.id, table.candidateId))
    .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
    .$dynamic();

type CandidateValues = Awaited<ReturnType<typeof selectListed<Record<never, never>>>>[number];

export const toListedCandidate = (candidateId: number, row: CandidateValues): ListedCandidate => ({
  id: candidateId,
  first_name: row.firstName,
  middle_name: row.middleName,
  last_name: row.lastName,
  school: { code: row.schoolCode, name: row.schoolName },
  course_header: row.courseHeader,
});

/**
 * Takes row `id` off its list, kept with who removed it and when, and audits it with what it was. False
 * when the row is not listed (unknown, or removed already).
 */
export async function removeFromList(
  tx: Database,
  c: AppContext,
  table: ListedTable,
  id: number,
  entry: { action: string; entity: string; before: Record<string, unknown> },
): Promise<boolean> {
  const caller = callerOf(c);
  const [row] = await tx
    .update(table)
    .set({ removedAt: sql`now()`, removedBy: caller.userId })
    .where(and(eq(table.id, id), isNull(table.removedAt)))
    .returning({ removedAt: table.removedAt });
  if (!row) return false;
  await audit(tx, auditActor(c), {
    action: entry.action,
    entity: entry.entity,
    entityId: id,
    before: { ...entry.before, removed_at: null },
    after: { removed_at: row.removedAt!.toISOString(), removed_by: caller.userId },
  });
  return true;
}
