import { and, count, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { Hono } from 'hono';
import { OFFENCE_LIMITS, OFFENDER_MESSAGES as M, type OffenderRow } from '../../contract/offenders';
import { offenceValidator } from '../../contract/offenders.validators';
import { audit } from '../audit';
import { searchConditions } from '../candidates/list';
import type { Database } from '../db/client';
import { candidates, courseHeaders, examOffences, trainingSchools } from '../db/schema';
import { auditActor, callerOf, type AppContext, type AppEnv } from '../http/context';
import { pageOf, readPaging } from '../http/paging';
import { idParam } from '../http/params';
import { invalid, ok, refuse } from '../http/respond';
import { readBody } from '../http/validate';
import { boardToday, sanctionRunsOn } from '../sanctions';

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

/** The list's rows with their candidate, school and course header; `active` as of `today`. */
const selectOffenders = (db: Database, today: string) =>
  db
    .select({
      offence: examOffences,
      active: sql<boolean>`coalesce(${sanctionRunsOn(today)}, false)`,
      candidateIndex: candidates.candidateIndex,
      firstName: candidates.first_name,
      middleName: candidates.middle_name,
      lastName: candidates.last_name,
      schoolCode: trainingSchools.code,
      schoolName: trainingSchools.name,
      courseHeader: courseHeaders.code,
    })
    .from(examOffences)
    .innerJoin(candidates, eq(candidates.id, examOffences.candidateId))
    .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId));

function toOffenderRow(row: Awaited<ReturnType<typeof selectOffenders>>[number]): OffenderRow {
  const o = row.offence;
  return {
    id: o.id,
    candidate_index: row.candidateIndex,
    candidate: {
      id: o.candidateId,
      first_name: row.firstName,
      middle_name: row.middleName,
      last_name: row.lastName,
      school: { code: row.schoolCode, name: row.schoolName },
      course_header: row.courseHeader,
    },
    exam: o.exam,
    offence: o.offence,
    sanction: o.sanction,
    sanction_from: o.sanctionFrom,
    sanction_until: o.sanctionUntil,
    active: Boolean(row.active),
    created_at: o.createdAt.toISOString(),
  };
}

/** What the audit log keeps of an offence. */
const auditSnapshot = (row: OffenderRow) => ({
  candidate_id: row.candidate.id,
  candidate_index: row.candidate_index,
  exam: row.exam,
  offence: row.offence,
  sanction: row.sanction,
  sanction_from: row.sanction_from,
  sanction_until: row.sanction_until,
});

async function loadOffender(db: Database, id: number): Promise<OffenderRow | null> {
  const [row] = await selectOffenders(db, boardToday()).where(eq(examOffences.id, id));
  return row ? toOffenderRow(row) : null;
}

/** GET ?search=&page=&per_page=: the listed offences (not removed), newest first. */
async function listOffenders(c: AppContext) {
  const search = (c.req.query('search') ?? '').trim();
  if (search.length > OFFENCE_LIMITS.searchMax) return invalid(c, { search: [M.tooLong] });
  const paging = readPaging(c);
  const db = c.get('deps').database.db;
  const conditions: SQL[] = [isNull(examOffences.removedAt)];
  if (search) conditions.push(...searchConditions(search));
  const where = and(...conditions);
  const rows = await selectOffenders(db, boardToday())
    .where(where)
    .orderBy(desc(examOffences.id))
    .limit(paging.perPage)
    .offset(paging.offset);
  const [{ total }] = await db
    .select({ total: count() })
    .from(examOffences)
    .innerJoin(candidates, eq(candidates.id, examOffences.candidateId))
    .where(where);
  return ok(c, pageOf(rows.map(toOffenderRow), paging, total));
}

/** POST: record an offence against an indexed candidate, by index number. */
async function recordOffence(c: AppContext) {
  const input = await readBody(c, offenceValidator);
  if (input instanceof Response) return input;
  const caller = callerOf(c);
  const db = c.get('deps').database.db;
  const candidate = await findIndexedCandidate(db, input.candidate_index);
  if (!candidate) return invalid(c, { candidate_index: [M.candidateUnknown] });

  const id = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(examOffences)
      .values({
        candidateId: candidate.id,
        exam: input.exam,
        offence: input.offence,
        sanction: input.sanction,
        sanctionFrom: input.sanction_from,
        sanctionUntil: input.sanction_until ?? null,
        createdBy: caller.userId,
      })
      .returning({ id: examOffences.id });
    const row = (await loadOffender(tx, inserted.id))!;
    await audit(tx, auditActor(c), {
      action: 'exam_offence.recorded',
      entity: 'exam_offence',
      entityId: inserted.id,
      after: auditSnapshot(row),
    });
    return inserted.id;
  });
  return ok(c, await loadOffender(db, id), M.recorded);
}

/** POST /:id/remove: the row leaves the list (removed_at, removed_by) and its sanction no longer applies. */
async function removeOffence(c: AppContext) {
  const id = idParam(c);
  if (!id) return refuse(c, 404, M.notFound);
  const caller = callerOf(c);
  const db = c.get('deps').database.db;
  const removed = await db.transaction(async (tx) => {
    const before = await loadOffender(tx, id);
    const [row] = await tx
      .update(examOffences)
      .set({ removedAt: sql`now()`, removedBy: caller.userId })
      .where(and(eq(examOffences.id, id), isNull(examOffences.removedAt)))
      .returning({ removedAt: examOffences.removedAt });
    if (!row || !before) return false;
    await audit(tx, auditActor(c), {
      action: 'exam_offence.removed',
      entity: 'exam_offence',
      entityId: id,
      before: { ...auditSnapshot(before), removed_at: null },
      after: { removed_at: row.removedAt!.toISOString(), removed_by: caller.userId },
    });
    return true;
  });
  if (!removed) return refuse(c, 404, M.notFound);
  return ok(c, undefined, M.removed);
}

/** Exam offenders: board admins only (server/access.ts). */
export const offenderRoutes = new Hono<AppEnv>()
  .get('/exam-offenders', listOffenders)
  .post('/exam-offenders', recordOffence)
  .post('/exam-offenders/:id/remove', removeOffence);
