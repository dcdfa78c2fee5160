import { count, eq, inArray, like, or } from 'drizzle-orm';
import {
  COURSE_MESSAGES as M,
  type CourseHeaderRow,
  type CourseStatus,
  type CourseStatusField,
} from '../../contract/courses';
import type { AuditAction } from '../../contract/audit';
import type { courseHeaderValidator } from '../../contract/courses.validators';
import { audit, changeAudited, type Actor } from '../audit';
import type { Database } from '../db/client';
import { duplicateAs } from '../db/errors';
import { candidates, courseHeaders } from '../db/schema';
import { Invalid } from '../errors';

/** The board's course headers as it changes them: create, edit, and each row's two statuses, audited. */

type CourseHeaderInput = Awaited<ReturnType<typeof courseHeaderValidator.validate>>;

export const columns = {
  id: courseHeaders.id,
  code: courseHeaders.code,
  title: courseHeaders.title,
  indexing_status: courseHeaders.indexingStatus,
  registration_status: courseHeaders.registrationStatus,
};

/** A row as stored (the statuses typed by the schema). */
export type StoredRow = Omit<CourseHeaderRow, 'indexed_candidates'>;

/** Candidates indexed under each of these course headers (an index walk: candidates_course_header_idx). */
async function indexedCounts(db: Database, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: candidates.courseHeaderId, total: count() })
    .from(candidates)
    .where(inArray(candidates.courseHeaderId, ids))
    .groupBy(candidates.courseHeaderId);
  return new Map(rows.map((row) => [row.id, row.total]));
}

export async function withCounts(db: Database, rows: StoredRow[]): Promise<CourseHeaderRow[]> {
  const counts = await indexedCounts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, indexed_candidates: counts.get(row.id) ?? 0 }));
}

const toStored = (row: typeof courseHeaders.$inferSelect): StoredRow => ({
  id: row.id,
  code: row.code,
  title: row.title,
  indexing_status: row.indexingStatus,
  registration_status: row.registrationStatus,
});

/** The row as the list shows it, with its count. */
const answer = async (db: Database, row: typeof courseHeaders.$inferSelect) =>
  (await withCounts(db, [toStored(row)]))[0];

/**
 * Whether any candidate's index number carries this code: those indexed under the course header now,
 * and those moved to another one since, whose numbers kept the code (WHB/<yy>/<code>/<sequence>).
 */
async function codeInUse(db: Database, id: number, code: string): Promise<boolean> {
  const [row] = await db
    .select({ id: candidates.id })
    .from(candidates)
    .where(or(eq(candidates.courseHeaderId, id), like(candidates.candidateIndex, `WHB/%/${code}/%`)))
    .limit(1);
  return !!row;
}

/** A code another course header has (or was given meanwhile): the unique index decides. */
const codeTaken = duplicateAs('course_headers_code_key', { code: [M.codeTaken] });

/** Codes are kept in capitals (the validator), so uniqueness is case-blind. */
export async function createCourseHeader(tx: Database, actor: Actor, input: CourseHeaderInput) {
  const [created] = await tx
    .insert(courseHeaders)
    .values({ code: input.code, title: input.title })
    .returning()
    .catch(codeTaken);
  await audit(tx, actor, { action: 'course_header.created', entityId: created.id, after: toStored(created) });
  return answer(tx, created);
}

/**
 * The title may always change; the code only while no candidate's index number carries it, since
 * printed documents and photocards already show it.
 */
export async function updateCourseHeader(tx: Database, actor: Actor, id: number, input: CourseHeaderInput) {
  const { row } = await changeAudited(tx, actor, {
    table: courseHeaders,
    id,
    notFound: M.notFound,
    action: 'course_header.updated',
    snapshot: (header) => ({ code: header.code, title: header.title }),
    set: async (before) => {
      if (before.code !== input.code && (await codeInUse(tx, id, before.code))) {
        throw new Invalid({ code: [M.codeLocked] });
      }
      return { code: input.code, title: input.title };
    },
  }).catch(codeTaken);
  return answer(tx, row);
}

/** Each status field's column, as Drizzle names it, and the audit action its change is filed under. */
const statusFields = {
  indexing_status: { key: 'indexingStatus', action: 'course_header.indexing_status_changed' },
  registration_status: { key: 'registrationStatus', action: 'course_header.registration_status_changed' },
} as const satisfies Record<
  CourseStatusField,
  { key: keyof typeof courseHeaders.$inferSelect; action: AuditAction }
>;

/**
 * Opens or closes indexing or registration. Takes effect at once: the candidate form and the school
 * admins' registration read the row on every call.
 */
export async function setCourseStatus(
  tx: Database,
  actor: Actor,
  id: number,
  field: CourseStatusField,
  value: CourseStatus,
) {
  const { row } = await changeAudited(tx, actor, {
    table: courseHeaders,
    id,
    notFound: M.notFound,
    action: statusFields[field].action,
    snapshot: (header) => ({ code: header.code, [field]: header[statusFields[field].key] }),
    set: () => ({ [statusFields[field].key]: value }),
  });
  return answer(tx, row);
}
