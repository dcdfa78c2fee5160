import { and, asc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import {
  CERTIFICATE_FIELDS,
  IDENTITY_FIELDS,
  SUBJECT_FIELDS,
  UPLOAD_FIELDS,
  type CandidateRecord,
  type CandidateRow,
  type RegStatus,
  type TextField,
  type UploadField,
} from '../../contract/candidates';
import type { Database } from '../db/client';
import { candidates, courseHeaders, diets, files, registrations, trainingSchools } from '../db/schema';
import { fileUrl } from '../storage/uploads';
import { timestamptzIso } from '../db/timestamps';

/**
 * Reading candidates back: the list row, the whole record, and what the audit log keeps of them. One
 * query for the rows with their school and course header, one for the uploads of all of them.
 */

/** The text fields stored under their own names; school_code and course_header come from the joins. */
export const STORED_TEXT_FIELDS = [
  ...IDENTITY_FIELDS.filter((field) => field !== 'school_code' && field !== 'course_header'),
  ...CERTIFICATE_FIELDS,
  ...SUBJECT_FIELDS,
] as const satisfies readonly TextField[];
type StoredTextField = (typeof STORED_TEXT_FIELDS)[number];

/** The id of the diet current for registration, as SQL (null when there is none). */
export const CURRENT_DIET_ID = sql`(select ${diets.id} from ${diets} where ${diets.current})`;

/** This candidate's registration for a diet: a row of `registrations` (one per diet and candidate). */
export const registrationOf = (dietId: SQL, regStatus?: 'registered' | 'unregistered') =>
  sql`select 1 from ${registrations} where ${registrations.dietId} = ${dietId}
    and ${registrations.candidateId} = ${CANDIDATE_ID}${regStatus ? sql` and ${registrations.regStatus} = ${regStatus}` : sql``}`;

/**
 * "candidates"."id" spelt out: in a query of one table Drizzle writes its columns unqualified, and inside
 * a subquery of `registrations` a bare name would be that table's own.
 */
const CANDIDATE_ID = sql.raw('"candidates"."id"');

/**
 * A candidate's status for a diet (no registration row: unregistered), read for the rows a page shows
 * only: a subquery on the registrations' primary key a row, not a join the planner could make of the
 * whole table.
 */
export const regStatusFor = (dietId: SQL) =>
  sql<RegStatus>`coalesce((select ${registrations.regStatus} from ${registrations}
    where ${registrations.dietId} = ${dietId} and ${registrations.candidateId} = ${CANDIDATE_ID}), 'unregistered')`;

/** The row's columns, its registration status for `dietId`. */
const rowColumnsFor = (dietId: SQL) => ({
  id: candidates.id,
  candidateIndex: candidates.candidateIndex,
  first_name: candidates.first_name,
  middle_name: candidates.middle_name,
  last_name: candidates.last_name,
  schoolId: trainingSchools.id,
  schoolCode: trainingSchools.code,
  schoolName: trainingSchools.name,
  courseHeaderCode: courseHeaders.code,
  courseHeaderTitle: courseHeaders.title,
  registrationStatus: courseHeaders.registrationStatus,
  year: candidates.year,
  regStatus: regStatusFor(dietId),
  verified: candidates.verified,
  // As toISOString's text, cut from PostgreSQL's (timestamptzIso), not through a Date.
  createdAt: sql<string>`${candidates.createdAt}`.mapWith(timestamptzIso),
});
const rowColumns = rowColumnsFor(CURRENT_DIET_ID);

export type RowResult = Awaited<ReturnType<typeof selectRows>>[number];

export function toRow(row: RowResult): CandidateRow {
  return {
    id: row.id,
    candidate_index: row.candidateIndex,
    first_name: row.first_name,
    middle_name: row.middle_name,
    last_name: row.last_name,
    school: { id: row.schoolId, code: row.schoolCode, name: row.schoolName },
    course_header: {
      code: row.courseHeaderCode,
      title: row.courseHeaderTitle,
      registration_status: row.registrationStatus,
    },
    year: row.year,
    // Written only by this server, from REG_STATUSES.
    reg_status: row.regStatus,
    verified: row.verified,
    created_at: row.createdAt,
  };
}

const recordColumns = {
  ...rowColumns,
  ...Object.fromEntries(STORED_TEXT_FIELDS.map((field) => [field, candidates[field]])),
} as typeof rowColumns & { [F in StoredTextField]: (typeof candidates)[F] };

/**
 * The candidates with their school and course header, from the joins every read shares, and their
 * registration for a diet (`dietId`; unless told, the current one).
 */
export const selectRows = (db: Database, dietId: SQL = CURRENT_DIET_ID) => selectRowsWith(db, dietId, {});

/** The same with `more` columns, for a list that shows more (Registered Candidates' fee). */
export const selectRowsWith = <More extends Record<string, SQL>>(db: Database, dietId: SQL, more: More) =>
  db
    .select({ ...rowColumnsFor(dietId), ...more })
    .from(candidates)
    .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId));

export async function loadRow(db: Database, id: number): Promise<CandidateRow | null> {
  const [row] = await selectRows(db).where(eq(candidates.id, id));
  return row ? toRow(row) : null;
}

interface StoredUpload {
  key: string;
  contentType: string;
  size: number;
}

/** The stored uploads of some candidates, by candidate and field. */
async function loadUploads(
  db: Database,
  ids: number[],
): Promise<Map<number, Partial<Record<UploadField, StoredUpload>>>> {
  const byCandidate = new Map<number, Partial<Record<UploadField, StoredUpload>>>();
  if (!ids.length) return byCandidate;
  const rows = await db
    .select({
      candidateId: files.candidateId,
      field: files.field,
      key: files.key,
      contentType: files.contentType,
      size: files.size,
    })
    .from(files)
    .where(and(inArray(files.candidateId, ids), isNotNull(files.field)))
    .orderBy(asc(files.id));
  for (const row of rows) {
    if (!(UPLOAD_FIELDS as readonly string[]).includes(row.field!)) continue;
    const uploads = byCandidate.get(row.candidateId!) ?? {};
    uploads[row.field as UploadField] = { key: row.key, contentType: row.contentType, size: row.size };
    byCandidate.set(row.candidateId!, uploads);
  }
  return byCandidate;
}

/** A whole record as the API answers it, plus the stored keys (for the audit log and for edits). */
export interface LoadedRecord {
  record: CandidateRecord;
  trainingSchoolId: number;
  courseHeaderId: number;
  uploads: Partial<Record<UploadField, StoredUpload>>;
}

export async function loadRecord(db: Database, id: number): Promise<LoadedRecord | null> {
  const [row] = await db
    .select({
      ...recordColumns,
      trainingSchoolId: candidates.trainingSchoolId,
      courseHeaderId: candidates.courseHeaderId,
    })
    .from(candidates)
    .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
    .where(eq(candidates.id, id));
  if (!row) return null;
  const uploads = (await loadUploads(db, [id])).get(id) ?? {};
  const fields = {} as Record<TextField, string | null>;
  for (const field of IDENTITY_FIELDS) fields[field] = null;
  for (const field of STORED_TEXT_FIELDS) fields[field] = row[field] ?? null;
  fields.school_code = row.schoolCode;
  fields.course_header = row.courseHeaderCode;
  const record: CandidateRecord = {
    ...toRow(row),
    fields,
    uploads: Object.fromEntries(
      Object.entries(uploads).map(([field, upload]) => [
        field,
        { url: fileUrl(upload.key), content_type: upload.contentType, size: upload.size },
      ]),
    ),
  };
  return { record, trainingSchoolId: row.trainingSchoolId, courseHeaderId: row.courseHeaderId, uploads };
}

/** What the audit log keeps of a candidate: the index number, every text field, and the upload keys. */
export const auditSnapshot = (loaded: LoadedRecord) => ({
  candidate_index: loaded.record.candidate_index,
  fields: loaded.record.fields,
  uploads: Object.fromEntries(Object.entries(loaded.uploads).map(([field, upload]) => [field, upload.key])),
});
