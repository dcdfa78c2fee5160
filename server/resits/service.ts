import { and, eq, isNull } from 'drizzle-orm';
import { sanctionBlocksMessage } from '../../contract/offenders';
import { RESIT_MESSAGES as M, type ResitRow } from '../../contract/resits';
import { inPaperOrder, type resitValidator } from '../../contract/resits.validators';
import { audit, userOf, type Actor } from '../audit';
import type { ListScope } from '../candidates/list';
import type { Database } from '../db/client';
import { candidates, courseHeaders, resits, trainingSchools } from '../db/schema';
import { Invalid, NotFound, Refused } from '../errors';
import { findIndexedCandidate, removeFromList, selectListed, toListedCandidate } from '../listed';
import { activeSanction } from '../sanctions';

/**
 * Resit entries: the board's (any school's, at any time) and a school admin's (their own school's
 * candidates, while the school may register: not suspended, the course header's registration open).
 */

type ResitInput = Awaited<ReturnType<typeof resitValidator.validate>>;

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

/** Why a school admin may not change this candidate's resit entries now, or null when they may. */
function schoolRefusal(
  scope: ListScope,
  candidate: { schoolStatus: string; registrationStatus: string },
): string | null {
  if (scope.kind !== 'school') return null;
  if (candidate.schoolStatus === 'suspended') return M.schoolSuspended;
  if (candidate.registrationStatus !== 'open') return M.registrationClosed;
  return null;
}

/** A resit entry for an indexed candidate, found by index number. */
export async function addResit(tx: Database, actor: Actor, scope: ListScope, input: ResitInput) {
  const candidate = await findIndexedCandidate(tx, input.candidate_index);
  // Another school's candidate reads as no candidate at all, so index numbers cannot be probed.
  if (!candidate || (scope.kind === 'school' && candidate.trainingSchoolId !== scope.schoolId)) {
    throw new Invalid({ candidate_index: [M.candidateUnknown] });
  }
  const refusal = schoolRefusal(scope, candidate);
  if (refusal) throw new Refused(403, refusal);
  const sanction = await activeSanction(tx, candidate.id);
  if (sanction) throw new Refused(403, sanctionBlocksMessage(sanction, 'entered for a resit'));

  // The partial unique index (one listed entry per candidate and exam) settles two adds racing.
  const [inserted] = await tx
    .insert(resits)
    .values({
      candidateId: candidate.id,
      exam: input.exam,
      papers: inPaperOrder(input.papers),
      createdBy: userOf(actor),
    })
    .onConflictDoNothing()
    .returning({ id: resits.id });
  if (!inserted) throw new Invalid({ exam: [M.duplicate] });
  const row = (await loadResit(tx, inserted.id))!;
  await audit(tx, actor, { action: 'resit.added', entityId: inserted.id, after: auditSnapshot(row) });
  return row;
}

/** The entry leaves the list (removed_at, removed_by), kept for the audit trail. */
export async function removeResit(tx: Database, actor: Actor, scope: ListScope, id: number) {
  // The entry as the list shows it, with what decides whether this caller may remove it.
  const [row] = await selectListed(tx, resits, {
    resit: resits,
    registrationStatus: courseHeaders.registrationStatus,
    schoolId: candidates.trainingSchoolId,
    schoolStatus: trainingSchools.status,
  }).where(and(eq(resits.id, id), isNull(resits.removedAt)));
  if (!row || (scope.kind === 'school' && row.schoolId !== scope.schoolId)) throw new NotFound(M.notFound);
  await removeFromList(tx, actor, resits, id, {
    action: 'resit.removed',
    notFound: M.notFound,
    about: auditSnapshot(toResitRow(row)),
    check: async () => {
      const refusal = schoolRefusal(scope, row);
      if (refusal) throw new Refused(403, refusal);
    },
  });
}
