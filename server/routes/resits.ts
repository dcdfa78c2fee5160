import { and, eq, isNull } from 'drizzle-orm';
import { Hono } from 'hono';
import { sanctionBlocksMessage } from '../../contract/offenders';
import type { Role } from '../../contract/roles';
import { RESIT_MESSAGES as M, type ResitRow } from '../../contract/resits';
import { inPaperOrder, resitValidator } from '../../contract/resits.validators';
import { audit } from '../audit';
import type { Database } from '../db/client';
import { candidates, courseHeaders, resits, trainingSchools } from '../db/schema';
import { auditActor, callerOf, type AppContext, type AppEnv, type Caller } from '../http/context';
import { idParam } from '../http/params';
import { invalid, ok, refuse } from '../http/respond';
import { readBody } from '../http/validate';
import { findIndexedCandidate, removeFromList, selectListed, toListedCandidate } from '../listed';
import { activeSanction } from '../sanctions';

/** The list's rows with their candidate, school and course header (whose registration may lock them). */
export const selectResits = (db: Database) =>
  selectListed(db, resits, { resit: resits, registrationStatus: courseHeaders.registrationStatus });

export function toResitRow(row: Awaited<ReturnType<typeof selectResits>>[number]): ResitRow {
  const r = row.resit;
  return {
    id: r.id,
    candidate_index: row.candidateIndex,
    candidate: { ...toListedCandidate(r.candidateId, row), registration_status: row.registrationStatus },
    exam: r.exam,
    papers: r.papers,
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

  const added = await db.transaction(async (tx) => {
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
    return row;
  });
  if (added === null) return invalid(c, { exam: [M.duplicate] });
  return ok(c, added, M.added);
}

type Removal = { status: 'done' } | { status: 404 } | { status: 403; message: string };

/** POST /:id/remove: the entry leaves the list (removed_at, removed_by), kept for the audit trail. */
async function removeResit(c: AppContext, role: Role) {
  const id = idParam(c);
  if (!id) return refuse(c, 404, M.notFound);
  const caller = callerOf(c);
  const db = c.get('deps').database.db;
  const outcome = await db.transaction(async (tx): Promise<Removal> => {
    // The entry as the list shows it, with what decides whether this caller may remove it, in one read.
    const [row] = await selectListed(tx, resits, {
      resit: resits,
      registrationStatus: courseHeaders.registrationStatus,
      schoolId: candidates.trainingSchoolId,
      schoolStatus: trainingSchools.status,
    })
      .where(and(eq(resits.id, id), isNull(resits.removedAt)))
      .for('update', { of: resits });
    if (!row || (role === 'school_admin' && row.schoolId !== caller.trainingSchoolId)) return { status: 404 };
    const refusal = schoolRefusal(caller, row);
    if (refusal) return { status: 403, message: refusal };
    await removeFromList(tx, c, resits, id, {
      action: 'resit.removed',
      entity: 'resit',
      before: auditSnapshot(toResitRow(row)),
    });
    return { status: 'done' };
  });
  if (outcome.status === 404) return refuse(c, 404, M.notFound);
  if (outcome.status === 403) return refuse(c, 403, outcome.message);
  return ok(c, undefined, M.removed);
}

/** Resit candidates: the board's (every school's) and a school admin's (their own school's). */
export const boardResitRoutes = new Hono<AppEnv>()
  .post('/resit-candidates', (c) => addResit(c, 'admin'))
  .post('/resit-candidates/:id/remove', (c) => removeResit(c, 'admin'));

export const schoolResitRoutes = new Hono<AppEnv>()
  .post('/resit-candidates', (c) => addResit(c, 'school_admin'))
  .post('/resit-candidates/:id/remove', (c) => removeResit(c, 'school_admin'));
