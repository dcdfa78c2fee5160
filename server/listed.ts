import { eq, isNull, or, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { type ListedCandidate } from '../contract/listed';
import type { AuditAction } from '../contract/audit';
import { changeAudited, userOf, type Actor } from './audit';
import type { Database } from './db/client';
import { candidates, courseHeaders, diets, examOffences, resits, trainingSchools } from './db/schema';

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
  dietCode: diets.code,
  dietName: diets.name,
};

/**
 * `fields` of the table's rows beside their candidate's, school's and course header's
 * (`toListedCandidate`) and their diet's (`dietOf`).
 */
export const selectListed = <F extends SelectedFields>(db: Database, table: ListedTable, fields: F) =>
  db
    .select({ ...fields, ...candidateColumns })
    .from(table)
    .innerJoin(candidates, eq(candidates.id, table.candidateId))
    .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
    .innerJoin(diets, eq(diets.id, table.dietId))
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

export const dietOf = (row: CandidateValues) => ({ code: row.dietCode, name: row.dietName });

/**
 * Takes row `id` off its list, kept with who removed it and when, and audits it with what it was
 * (`about`) and its removal. NotFound when the row is not listed (unknown, or removed already); `check`
 * may refuse, once the row is locked.
 */
export async function removeFromList<T extends ListedTable>(
  tx: Database,
  actor: Actor,
  table: T,
  id: number,
  entry: {
    action: AuditAction;
    notFound: string;
    about: Record<string, unknown>;
    check?: () => Promise<void>;
  },
): Promise<void> {
  await changeAudited<ListedTable>(tx, actor, {
    table,
    id,
    where: isNull(table.removedAt),
    notFound: entry.notFound,
    action: entry.action,
    snapshot: (row) => ({
      ...entry.about,
      removed_at: row.removedAt?.toISOString() ?? null,
      removed_by: row.removedBy,
    }),
    set: async () => {
      await entry.check?.();
      return { removedAt: sql`now()`, removedBy: userOf(actor) };
    },
  });
}
