import { count, eq, inArray, like, or, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import {
  COURSE_MESSAGES as M,
  statusChangedMessage,
  type CourseHeaderRow,
  type CourseStatus,
  type CourseStatusField,
} from '../../contract/courses';
import {
  courseHeaderValidator,
  indexingStatusValidator,
  registrationStatusValidator,
} from '../../contract/courses.validators';
import { audit } from '../audit';
import type { Database } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { candidates, courseHeaders } from '../db/schema';
import { auditActor, type AppContext, type AppEnv } from '../http/context';
import { idParam } from '../http/params';
import { invalid, ok, refuse } from '../http/respond';
import { readBody } from '../http/validate';

export const columns = {
  id: courseHeaders.id,
  code: courseHeaders.code,
  title: courseHeaders.title,
  indexing_status: courseHeaders.indexingStatus,
  registration_status: courseHeaders.registrationStatus,
};

/** A row as stored (the statuses typed by the schema). */
type StoredRow = Omit<CourseHeaderRow, 'indexed_candidates'>;

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

async function answerRow(c: AppContext, row: StoredRow, message: string) {
  const [withCount] = await withCounts(c.get('deps').database.db, [row]);
  return ok(c, withCount, message);
}

const notFound = (c: AppContext) => refuse(c, 404, M.notFound);

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

/** POST /course-headers `{ code, title }`. Codes are kept in capitals, so uniqueness is case-blind. */
async function createCourseHeader(c: AppContext) {
  const input = await readBody(c, courseHeaderValidator);
  if (input instanceof Response) return input;
  const db = c.get('deps').database.db;
  try {
    const row = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(courseHeaders)
        .values({ code: input.code, title: input.title })
        .returning(columns);
      await audit(tx, auditActor(c), {
        action: 'course_header.created',
        entity: 'course_header',
        entityId: created.id,
        after: created,
      });
      return created;
    });
    return answerRow(c, row, M.created);
  } catch (error) {
    // A code another course header has (or was given meanwhile): the unique index decides.
    if (isUniqueViolation(error, 'course_headers_code_key')) return invalid(c, { code: [M.codeTaken] });
    throw error;
  }
}

type EditOutcome = { row: StoredRow } | { status: 404 } | { fields: Record<string, string[]> };

/**
 * POST /course-headers/:id `{ code, title }`. The title may always change; the code only while no
 * candidate's index number carries it, since printed documents and photocards already show it.
 */
async function updateCourseHeader(c: AppContext) {
  const input = await readBody(c, courseHeaderValidator);
  if (input instanceof Response) return input;
  const id = idParam(c);
  if (!id) return notFound(c);
  const db = c.get('deps').database.db;
  let outcome: EditOutcome;
  try {
    outcome = await db.transaction(async (tx): Promise<EditOutcome> => {
      const [before] = await tx
        .select(columns)
        .from(courseHeaders)
        .where(eq(courseHeaders.id, id))
        .for('update');
      if (!before) return { status: 404 };
      // A code another course header has is refused by the unique index (caught below).
      if (before.code !== input.code && (await codeInUse(tx, id, before.code))) {
        return { fields: { code: [M.codeLocked] } };
      }
      if (before.code === input.code && before.title === input.title) return { row: before };
      const [after] = await tx
        .update(courseHeaders)
        .set({ code: input.code, title: input.title, updatedAt: sql`now()` })
        .where(eq(courseHeaders.id, id))
        .returning(columns);
      await audit(tx, auditActor(c), {
        action: 'course_header.updated',
        entity: 'course_header',
        entityId: id,
        before: { code: before.code, title: before.title },
        after: { code: after.code, title: after.title },
      });
      return { row: after };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'course_headers_code_key')) return invalid(c, { code: [M.codeTaken] });
    throw error;
  }
  if ('status' in outcome) return notFound(c);
  if ('fields' in outcome) return invalid(c, outcome.fields);
  return answerRow(c, outcome.row, M.updated);
}

const statusValidators = {
  indexing_status: indexingStatusValidator,
  registration_status: registrationStatusValidator,
} as const;

/** Each status field's column, as Drizzle names it. */
const statusKey = { indexing_status: 'indexingStatus', registration_status: 'registrationStatus' } as const;

/**
 * POST /course-headers/:id/indexing-status `{ indexing_status }` (or registration-status). Takes effect
 * at once: the candidate form and the school admins' registration read the row on every call.
 */
function updateStatus(field: CourseStatusField) {
  return async (c: AppContext) => {
    const validator = statusValidators[field] as {
      validate(data: unknown): Promise<Partial<Record<CourseStatusField, CourseStatus>>>;
    };
    const input = await readBody(c, validator);
    if (input instanceof Response) return input;
    // The field's own validator ran, so the field is there.
    const value = input[field]!;
    const id = idParam(c);
    if (!id) return notFound(c);
    const db = c.get('deps').database.db;
    const row = await db.transaction(async (tx) => {
      const [before] = await tx
        .select(columns)
        .from(courseHeaders)
        .where(eq(courseHeaders.id, id))
        .for('update');
      if (!before) return null;
      if (before[field] === value) return before;
      const [after] = await tx
        .update(courseHeaders)
        .set({ [statusKey[field]]: value, updatedAt: sql`now()` })
        .where(eq(courseHeaders.id, id))
        .returning(columns);
      await audit(tx, auditActor(c), {
        action: `course_header.${field}_changed`,
        entity: 'course_header',
        entityId: id,
        before: { code: before.code, [field]: before[field] },
        after: { code: after.code, [field]: after[field] },
      });
      return after;
    });
    if (!row) return notFound(c);
    return answerRow(c, row, statusChangedMessage(row.code, field, value));
  };
}

/** The board's course headers: list, create, edit, and each row's two statuses. */
export const courseRoutes = new Hono<AppEnv>()
  .post('/course-headers', createCourseHeader)
  .post('/course-headers/:id', updateCourseHeader)
  .post('/course-headers/:id/indexing-status', updateStatus('indexing_status'))
  .post('/course-headers/:id/registration-status', updateStatus('registration_status'));
