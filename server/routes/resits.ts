import { and, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { Hono } from 'hono';
import { sanctionBlocksMessage } from '../../contract/offenders';
import type { Role } from '../../contract/roles';
import { RESIT_LIMITS, RESIT_MESSAGES as M, type ResitPaper, type ResitRow } from '../../contract/resits';
import { inPaperOrder, resitValidator } from '../../contract/resits.validators';
import { audit } from '../audit';
import { searchConditions } from '../candidates/list';
import type { Database } from '../db/client';
import { candidates, courseHeaders, resits, trainingSchools } from '../db/schema';
import { auditActor, callerOf, type AppContext, type AppEnv, type Caller } from '../http/context';
import { pageOf, readPaging } from '../http/paging';
import { idParam } from '../http/params';
import { invalid, ok, refuse } from '../http/respond';
import { readBody } from '../http/validate';
import { activeSanction } from '../sanctions';
import { findIndexedCandidate } from './offenders';

const selectResits = (db: Database) =>
  db
    .select({
      resit: resits,
      candidateIndex: candidates.candidateIndex,
      firstName: candidates.first_name,
      middleName: candidates.middle_name,
      lastName: candidates.last_name,
      schoolCode: trainingSchools.code,
      schoolName: trainingSchools.name,
      courseHeader: courseHeaders.code,
      registrationStatus: courseHeaders.registrationStatus,
    })
    .from(resits)
    .innerJoin(candidates, eq(candidates.id, resits.candidateId))
    .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId));

function toResitRow(row: Awaited<ReturnType<typeof selectResits>>[number]): ResitRow {
  const r = row.resit;
  return {
    id: r.id,
    candidate_index: row.candidateIndex,
    candidate: {
      id: r.candidateId,
      first_name: row.firstName,
      middle_name: row.middleName,
      last_name: row.lastName,
      school: { code: row.schoolCode, name: row.schoolName },
      course_header: row.courseHeader,
      registration_status: row.registrationStatus,
    },
    exam: r.exam,
    papers: r.papers as ResitPaper[],
    created_at: r.createdAt.toISOString(),
  };
}

/** What the audit log keeps of a resit entry. */
const auditSnapshot = (row: ResitRow) => ({
  candidate_id: row.candidate.id,
  candidate_index: row.candidate_index,
  exam: row.exam,
  papers: row.papers,
});

async function loadResit(db: Database, id: number): Promise<ResitRow | null> {
  const [row] = await selectResits(db).where(eq(resits.id, id));
  return row ? toResitRow(row) : null;
}

/** A school admin may change their school's resit entries only while it may register candidates. */
function schoolRefusal(
  caller: Caller,
  candidate: { schoolStatus: string; registrationStatus: string },
): string | null {
  if (caller.role !== 'school_admin') return null;
  if (candidate.schoolStatus === 'suspended') return M.schoolSuspended;
  if (candidate.registrationStatus !== 'open') return M.registrationClosed;
  return null;
}

/** GET ?search=&page=&per_page=: listed entries, newest first; a school admin's, their school's only. */
async function listResits(c: AppContext, role: Role) {
  const search = (c.req.query('search') ?? '').trim();
  if (search.length > RESIT_LIMITS.searchMax) return invalid(c, { search: [M.tooLong] });
  const paging = readPaging(c);
  const caller = callerOf(c);
  const db = c.get('deps').database.db;
  const conditions: SQL[] = [isNull(resits.removedAt)];
  if (role === 'school_admin') {
    if (caller.trainingSchoolId === null) return ok(c, pageOf([], paging, 0));
    conditions.push(eq(candidates.trainingSchoolId, caller.trainingSchoolId));
  }
  if (search) conditions.push(...searchConditions(search));
  const where = and(...conditions);
  const rows = await selectResits(db)
    .where(where)
    .orderBy(desc(resits.id))
    .limit(paging.perPage)
    .offset(paging.offset);
  const [{ total }] = await db
    .select({ total: count() })
    .from(resits)
    .innerJoin(candidates, eq(candidates.id, resits.candidateId))
    .where(where);
  return ok(c, pageOf(rows.map(toResitRow), paging, total));
}

/** POST: a resit entry for an indexed candidate (a school admin: their own school's only). */
async function addResit(c: AppContext, role: Role) {
  const input = await readBody(c, resitValidator);
  if (input instanceof Response) return input;
  const caller = callerOf(c);
  const db = c.get('deps').database.db;
  const candidate = await findIndexedCandidate(db, input.candidate_index);
  // Another school's candidate reads as no candidate at all, so index numbers cannot be probed.
  if (!candidate || (role === 'school_admin' && candidate.trainingSchoolId !== caller.trainingSchoolId)) {
    return invalid(c, { candidate_index: [M.candidateUnknown] });
  }
  const refusal = schoolRefusal(caller, candidate);
  if (refusal) return refuse(c, 403, refusal);
  const sanction = await activeSanction(db, candidate.id);
  if (sanction) return refuse(c, 403, sanctionBlocksMessage(sanction, 'entered for a resit'));

  const id = await db.transaction(async (tx) => {
    // The partial unique index (one listed entry per candidate and exam) settles two adds racing.
    const [inserted] = await tx
      .insert(resits)
      .values({
        candidateId: candidate.id,
        exam: input.exam,
        papers: inPaperOrder(input.papers),
        createdBy: caller.userId,
      })
      .onConflictDoNothing()
      .returning({ id: resits.id });
    if (!inserted) return null;
    const row = (await loadResit(tx, inserted.id))!;
    await audit(tx, auditActor(c), {
      action: 'resit.added',
      entity: 'resit',
      entityId: inserted.id,
      after: auditSnapshot(row),
    });
    return inserted.id;
  });
  if (id === null) return invalid(c, { exam: [M.duplicate] });
  return ok(c, await loadResit(db, id), M.added);
}

type Removal = { status: 'done' } | { status: 404 } | { status: 403; message: string };

/** POST /:id/remove: the entry leaves the list (removed_at, removed_by), kept for the audit trail. */
async function removeResit(c: AppContext, role: Role) {
  const id = idParam(c);
  if (!id) return refuse(c, 404, M.notFound);
  const caller = callerOf(c);
  const db = c.get('deps').database.db;
  const outcome = await db.transaction(async (tx): Promise<Removal> => {
    const [row] = await tx
      .select({
        schoolId: candidates.trainingSchoolId,
        schoolStatus: trainingSchools.status,
        registrationStatus: courseHeaders.registrationStatus,
      })
      .from(resits)
      .innerJoin(candidates, eq(candidates.id, resits.candidateId))
      .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
      .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
      .where(and(eq(resits.id, id), isNull(resits.removedAt)))
      .for('update', { of: resits });
    if (!row || (role === 'school_admin' && row.schoolId !== caller.trainingSchoolId)) return { status: 404 };
    const refusal = schoolRefusal(caller, row);
    if (refusal) return { status: 403, message: refusal };
    const before = (await loadResit(tx, id))!;
    const [removed] = await tx
      .update(resits)
      .set({ removedAt: sql`now()`, removedBy: caller.userId })
      .where(and(eq(resits.id, id), isNull(resits.removedAt)))
      .returning({ removedAt: resits.removedAt });
    await audit(tx, auditActor(c), {
      action: 'resit.removed',
      entity: 'resit',
      entityId: id,
      before: { ...auditSnapshot(before), removed_at: null },
      after: { removed_at: removed.removedAt!.toISOString(), removed_by: caller.userId },
    });
    return { status: 'done' };
  });
  if (outcome.status === 404) return refuse(c, 404, M.notFound);
  if (outcome.status === 403) return refuse(c, 403, outcome.message);
  return ok(c, undefined, M.removed);
}

/** Resit candidates: the board's (every school's) and a school admin's (their own school's). */
export const boardResitRoutes = new Hono<AppEnv>()
  .get('/resit-candidates', (c) => listResits(c, 'admin'))
  .post('/resit-candidates', (c) => addResit(c, 'admin'))
  .post('/resit-candidates/:id/remove', (c) => removeResit(c, 'admin'));

export const schoolResitRoutes = new Hono<AppEnv>()
  .get('/resit-candidates', (c) => listResits(c, 'school_admin'))
  .post('/resit-candidates', (c) => addResit(c, 'school_admin'))
  .post('/resit-candidates/:id/remove', (c) => removeResit(c, 'school_admin'));
