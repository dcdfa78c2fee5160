import { eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { OFFENDER_MESSAGES as M, type OffenderRow } from '../../contract/offenders';
import { offenceValidator } from '../../contract/offenders.validators';
import { audit } from '../audit';
import type { Database } from '../db/client';
import { examOffences } from '../db/schema';
import { auditActor, callerOf, type AppContext, type AppEnv } from '../http/context';
import { idParam } from '../http/params';
import { invalid, ok, refuse } from '../http/respond';
import { readBody } from '../http/validate';
import { findIndexedCandidate, removeFromList, selectListed, toListedCandidate } from '../listed';
import { boardToday } from '../boardDate';
import { sanctionRunsOn } from '../sanctions';

/** The list's rows with their candidate, school and course header; `active` as of `today`. */
export const selectOffenders = (db: Database, today: string) =>
  selectListed(db, examOffences, {
    offence: examOffences,
    active: sql<boolean>`coalesce(${sanctionRunsOn(today)}, false)`,
  });

export function toOffenderRow(row: Awaited<ReturnType<typeof selectOffenders>>[number]): OffenderRow {
  const o = row.offence;
  return {
    id: o.id,
    candidate_index: row.candidateIndex,
    candidate: toListedCandidate(o.candidateId, row),
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

/** POST: record an offence against an indexed candidate, by index number. */
async function recordOffence(c: AppContext) {
  const input = await readBody(c, offenceValidator);
  if (input instanceof Response) return input;
  const caller = callerOf(c);
  const db = c.get('deps').database.db;
  const candidate = await findIndexedCandidate(db, input.candidate_index);
  if (!candidate) return invalid(c, { candidate_index: [M.candidateUnknown] });

  const recorded = await db.transaction(async (tx) => {
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
    return row;
  });
  return ok(c, recorded, M.recorded);
}

/** POST /:id/remove: the row leaves the list (removed_at, removed_by) and its sanction no longer applies. */
async function removeOffence(c: AppContext) {
  const id = idParam(c);
  if (!id) return refuse(c, 404, M.notFound);
  const removed = await c.get('deps').database.db.transaction(async (tx) => {
    const before = await loadOffender(tx, id);
    if (!before) return false;
    return removeFromList(tx, c, examOffences, id, {
      action: 'exam_offence.removed',
      entity: 'exam_offence',
      before: auditSnapshot(before),
    });
  });
  if (!removed) return refuse(c, 404, M.notFound);
  return ok(c, undefined, M.removed);
}

/** Exam offenders: board admins only (server/access.ts). */
export const offenderRoutes = new Hono<AppEnv>()
  .post('/exam-offenders', recordOffence)
  .post('/exam-offenders/:id/remove', removeOffence);
