import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { ResitPaper } from '../../../contract/resits';
import { formatDate } from '../../../contract/format';
import { PRINT_PHOTO_FIELD } from '../../candidates/uploads';
import type { Database } from '../../db/client';
import {
  candidates,
  courseHeaders,
  examOffences,
  files,
  registrations,
  resits,
  trainingSchools,
} from '../../db/schema';
import { sanctionCovers } from '../../sanctions';
import type { DocumentScope, Rows } from '../builder';

/**
 * What the documents about candidates share (lists, photocards, the documents checklist): the
 * candidates of a scope with their school, course header and small print photo, in the order a hall
 * reads them (school, course header, index number), counted first and then read in keyset pages, so a
 * print of a whole diet holds one page in memory.
 */

/** Rows a page: a PDF holds one page of rows at a time. */
export const DOCUMENT_BATCH = 500;

/**
 * "candidates"."id" spelt out: inside a subquery of another table (registrations, resits, offences) a
 * bare name would be that table's own.
 */
const CANDIDATE_ID = sql.raw('"candidates"."id"');

/** Registered for the diet (its `registrations` row says so). */
export const registeredAt = (dietId: number) =>
  sql<boolean>`exists (select 1 from ${registrations} where ${registrations.dietId} = ${dietId}
    and ${registrations.candidateId} = ${CANDIDATE_ID} and ${registrations.regStatus} = 'registered')`;

/** Entered to resit papers at the diet (a resit entry still on the list). */
export const resitAt = (dietId: number) =>
  sql`exists (select 1 from ${resits} where ${resits.dietId} = ${dietId}
    and ${resits.candidateId} = ${CANDIDATE_ID} and ${resits.removedAt} is null)`;

/** Sitting the diet: registered for it, or entered to resit papers at it. */
export const sittingAt = (dietId: number) => sql`(${registeredAt(dietId)} or ${resitAt(dietId)})`;

/** Barred from the diet by a sanction now. */
export const barredAt = (dietId: number) =>
  sql`exists (select 1 from ${examOffences}
    where ${examOffences.candidateId} = ${CANDIDATE_ID} and ${sanctionCovers(dietId)})`;

/** The papers of the candidate's resit entry at the diet (null: none). */
const resitPapersAt = (dietId: number) =>
  sql<ResitPaper[] | null>`(select ${resits.papers} from ${resits} where ${resits.dietId} = ${dietId}
    and ${resits.candidateId} = ${CANDIDATE_ID} and ${resits.removedAt} is null limit 1)`;

/**
 * The sanction that bars the candidate from the diet now, in the offence's words (null: none); of
 * several, the one that runs longest, as server/sanctions.ts activeSanction orders them.
 */
const sanctionAt = (dietId: number) =>
  sql<string | null>`(select ${examOffences.sanction} from ${examOffences}
    where ${examOffences.candidateId} = ${CANDIDATE_ID} and ${sanctionCovers(dietId)}
    order by ${examOffences.sanctionDiets} is null and ${examOffences.sanctionUntil} is null desc,
      ${examOffences.sanctionUntil} desc nulls last, ${examOffences.id} desc
    limit 1)`;

const baseColumns = {
  id: candidates.id,
  candidateIndex: candidates.candidateIndex,
  first_name: candidates.first_name,
  middle_name: candidates.middle_name,
  last_name: candidates.last_name,
  gender: candidates.gender,
  dateOfBirth: candidates.date_of_birth,
  verified: candidates.verified,
  verifiedAt: candidates.verifiedAt,
  schoolCode: trainingSchools.code,
  schoolName: trainingSchools.name,
  courseHeaderId: candidates.courseHeaderId,
  courseHeaderCode: courseHeaders.code,
  courseHeaderTitle: courseHeaders.title,
  /** The small print JPEG's key (null: none made, or no photo). */
  photo: files.key,
};

/** A candidate as the documents print them, with what they are at the diet when one is chosen. */
export interface CandidateLine {
  id: number;
  candidateIndex: string;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  gender: string;
  dateOfBirth: string;
  verified: boolean;
  verifiedAt: Date | null;
  schoolCode: string;
  schoolName: string;
  courseHeaderId: number;
  courseHeaderCode: string;
  courseHeaderTitle: string;
  photo: string | null;
  /** At the chosen diet: registered, the resit entry's papers, the sanction barring them. */
  registered: boolean;
  resitPapers: ResitPaper[] | null;
  sanction: string | null;
}

const dietColumns = (
  dietId: number | null,
): { registered: SQL<boolean>; resitPapers: SQL<ResitPaper[] | null>; sanction: SQL<string | null> } =>
  dietId === null
    ? {
        registered: sql<boolean>`false`,
        resitPapers: sql<ResitPaper[] | null>`null`,
        sanction: sql<string | null>`null`,
      }
    : { registered: registeredAt(dietId), resitPapers: resitPapersAt(dietId), sanction: sanctionAt(dietId) };

/** The chosen school and course header, as conditions (the diet's are each document's own). */
export function scopeConditions(scope: DocumentScope): SQL[] {
  const conditions: SQL[] = [];
  if (scope.school) conditions.push(eq(candidates.trainingSchoolId, scope.school.id));
  if (scope.courseHeader) conditions.push(eq(candidates.courseHeaderId, scope.courseHeader.id));
  if (scope.candidate) conditions.push(eq(candidates.id, scope.candidate.id));
  return conditions;
}

/** The hall's order: school, course header, index number (unique, so it is also the keyset). */
const HALL_ORDER = sql`(${trainingSchools.code}, ${courseHeaders.code}, ${candidates.candidateIndex})`;

function selectLines(db: Database, scope: DocumentScope, where: SQL | undefined) {
  return db
    .select({ ...baseColumns, ...dietColumns(scope.diet?.id ?? null) })
    .from(candidates)
    .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
    .leftJoin(files, and(eq(files.candidateId, candidates.id), eq(files.field, PRINT_PHOTO_FIELD)))
    .where(where);
}

/** How many candidates match, without reading them. */
export async function countCandidates(db: Database, where: SQL | undefined): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(candidates)
    .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
    .where(where);
  return row.count;
}

/** One page of candidates after `after` (the last of the page before) in the hall's order. */
function pageOf(
  db: Database,
  scope: DocumentScope,
  where: SQL | undefined,
  after: CandidateLine | null,
  size: number,
): Promise<CandidateLine[]> {
  const keyset = after
    ? sql`${HALL_ORDER} > (${after.schoolCode}, ${after.courseHeaderCode}, ${after.candidateIndex})`
    : undefined;
  return selectLines(db, scope, and(where, keyset))
    .orderBy(asc(trainingSchools.code), asc(courseHeaders.code), asc(candidates.candidateIndex))
    .limit(size);
}

/** Every candidate matching `where`, page by page, each page read when the one before is drawn. */
function candidatePages(
  db: Database,
  scope: DocumentScope,
  where: SQL | undefined,
  size = DOCUMENT_BATCH,
): AsyncIterable<CandidateLine[]> {
  return {
    async *[Symbol.asyncIterator]() {
      let after: CandidateLine | null = null;
      for (;;) {
        const page = await pageOf(db, scope, where, after, size);
        if (page.length) yield page;
        if (page.length < size) return;
        after = page[page.length - 1];
      }
    },
  };
}

/** One candidate by index number, if it matches `where` (a row's or card's facts, now). */
export async function candidateByIndex(
  db: Database,
  scope: DocumentScope,
  where: SQL | undefined,
  candidateIndex: string,
): Promise<CandidateLine | null> {
  const [row] = await selectLines(db, scope, and(where, eq(candidates.candidateIndex, candidateIndex))).limit(
    1,
  );
  return row ?? null;
}

/**
 * Rows made from the candidates matching `where`: counted, then read in pages and turned into rows
 * one page at a time (`toRows` gets each page with the number of rows before it, for the S/N column).
 */
export async function candidateRows<T>(
  db: Database,
  scope: DocumentScope,
  where: SQL | undefined,
  toRows: (page: CandidateLine[], before: number) => T[] | Promise<T[]>,
): Promise<Extract<Rows<T>, { count: number }>> {
  const count = await countCandidates(db, where);
  const pages = candidatePages(db, scope, where);
  return {
    count,
    batches: {
      async *[Symbol.asyncIterator]() {
        let before = 0;
        for await (const page of pages) {
          yield await toRows(page, before);
          before += page.length;
        }
      },
    },
  };
}

/** 'Female', 'Male': the stored value in words. */
export const sexOf = (gender: string) => gender.charAt(0).toUpperCase() + gender.slice(1);

export const courseHeaderOf = (line: Pick<CandidateLine, 'courseHeaderCode' | 'courseHeaderTitle'>) =>
  `${line.courseHeaderCode} ${line.courseHeaderTitle}`;

export const schoolOf = (line: Pick<CandidateLine, 'schoolCode' | 'schoolName'>) =>
  `${line.schoolName} (${line.schoolCode})`;

export const dateOfBirthOf = (line: Pick<CandidateLine, 'dateOfBirth'>) => formatDate(line.dateOfBirth);
