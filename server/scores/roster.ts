import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { candidates, registrations, scoreSheets, trainingSchools } from '../db/schema';

/**
 * A sheet as stored, and its roster: the lookups the sheets' life (sheets.ts), the marks (marks.ts), the
 * agreement of the markers (agreement.ts) and the import of marks from paper (import.ts) share. It
 * imports none of them, so none of them imports another through it.
 */

export type StoredSheet = typeof scoreSheets.$inferSelect;

/** The sheet's candidates: registered for its diet, of its course header (and its school, if it has one). */
export const rosterOf = (sheet: StoredSheet): SQL =>
  and(
    eq(registrations.dietId, sheet.dietId),
    eq(registrations.regStatus, 'registered'),
    eq(candidates.courseHeaderId, sheet.courseHeaderId),
    sheet.trainingSchoolId === null ? undefined : eq(candidates.trainingSchoolId, sheet.trainingSchoolId),
  )!;

/**
 * The same rule on the sheet's own columns, for a statement that reads sheets and their candidates
 * together (each sheet's count, a row's save): what a registration must be, and what its candidate.
 */
export const rosterOfSheet = {
  registration: and(eq(registrations.dietId, scoreSheets.dietId), eq(registrations.regStatus, 'registered'))!,
  candidate: and(
    eq(candidates.courseHeaderId, scoreSheets.courseHeaderId),
    or(isNull(scoreSheets.trainingSchoolId), eq(candidates.trainingSchoolId, scoreSheets.trainingSchoolId)),
  )!,
};

export const selectRoster = <T extends Record<string, unknown>>(db: Database, columns: T) =>
  db
    .select(columns as never)
    .from(registrations)
    .innerJoin(candidates, eq(candidates.id, registrations.candidateId))
    .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
    .$dynamic();

export async function rosterCount(db: Database, sheet: StoredSheet): Promise<number> {
  const [row] = (await selectRoster(db, { total: sql<number>`count(*)::int` }).where(rosterOf(sheet))) as {
    total: number;
  }[];
  return row.total;
}
