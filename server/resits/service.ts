import { and, eq, isNull } from 'drizzle-orm';
import { sanctionBlocksMessage } from '../../contract/offenders';
import { RESIT_MESSAGES as M, type ResitRow } from '../../contract/resits';
import { inPaperOrder, type resitValidator } from '../../contract/resits.validators';
import { audit, userOf, type Actor } from '../audit';
import type { ListScope } from '../candidates/list';
import type { Database } from '../db/client';
import { candidates, courseHeaders, diets, resits, trainingSchools } from '../db/schema';
import { Invalid, NotFound, Refused } from '../errors';
import { dietByCode, unknownDiet } from '../diets/byCode';
import { decideWindow, extensionOf, windowRefusal, type CurrentDiet } from '../diets/window';
import { dietOf, findIndexedCandidate, removeFromList, selectListed, toListedCandidate } from '../listed';
import { notifyBoard } from '../notifications/sources';
import { activeSanction } from '../sanctions';

/**
 * Resit entries, each for a diet: the board's (any school's, for any diet not closed) and a school
 * admin's (their own school's candidates, for the diet current for registration while their window is
 * open, their school not suspended and the course header's registration open).
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
    diet: dietOf(row),
    papers: r.papers,
    created_at: r.createdAt.toISOString(),
  };
}

/** What the audit log keeps of a resit entry. */
const auditSnapshot = (row: ResitRow) => ({
  candidate_id: row.candidate.id,
  candidate_index: row.candidate_index,
  diet: row.diet.code,
  papers: row.papers,
});

async function loadResit(db: Database, id: number): Promise<ResitRow | null> {
  const [row] = await selectResits(db).where(eq(resits.id, id));
  return row ? toResitRow(row) : null;
}

/**
 * Why a school admin may not change this candidate's resit entries for `diet` now, or null when they
 * may: the diet must be the current one and the school's window open (with its extension), the school
 * not suspended and the course header's registration open.
 */
async function schoolRefusal(
  tx: Database,
  scope: ListScope,
  candidate: { trainingSchoolId: number; schoolStatus: string; registrationStatus: string },
  diet: CurrentDiet,
  now: Date,
): Promise<string | null> {
  if (scope.kind !== 'school') return null;
  if (candidate.schoolStatus === 'suspended') return M.schoolSuspended;
  if (candidate.registrationStatus !== 'open') return M.registrationClosed;
  if (!diet.current) return M.dietNotCurrent;
  const extension = await extensionOf(tx, diet.id, candidate.trainingSchoolId);
  return windowRefusal(diet, decideWindow(diet, extension, now), true);
}

/** A resit entry for an indexed candidate, found by index number. */
export async function addResit(tx: Database, actor: Actor, scope: ListScope, input: ResitInput, now: Date) {
  const candidate = await findIndexedCandidate(tx, input.candidate_index);
  const diet = await dietByCode(tx, input.diet);
  // Another school's candidate reads as no candidate at all, so index numbers cannot be probed.
  const unknown = !candidate || (scope.kind === 'school' && candidate.trainingSchoolId !== scope.schoolId);
  if (unknown || !diet) {
    throw new Invalid({
      ...(unknown ? { candidate_index: [M.candidateUnknown] } : {}),
      ...(diet ? {} : unknownDiet()),
    });
  }
  if (diet.closedAt) throw new Invalid({ diet: [M.dietClosed] });
  const refusal = await schoolRefusal(tx, scope, candidate!, diet, now);
  if (refusal) throw new Refused(403, refusal);
  const sanction = await activeSanction(tx, candidate!.id, diet.id);
  if (sanction) throw new Refused(403, sanctionBlocksMessage(sanction, 'entered for a resit'));

  // The partial unique index (one listed entry per candidate and diet) settles two adds racing.
  const [inserted] = await tx
    .insert(resits)
    .values({
      candidateId: candidate!.id,
      dietId: diet.id,
      papers: inPaperOrder(input.papers),
      createdBy: userOf(actor),
    })
    .onConflictDoNothing()
    .returning({ id: resits.id });
  if (!inserted) throw new Invalid({ diet: [M.duplicate] });
  const row = (await loadResit(tx, inserted.id))!;
  await audit(tx, actor, { action: 'resit.added', entityId: inserted.id, after: auditSnapshot(row) });
  // A school's entry tells the board (one a resit entry: they are added one at a time); the board's own do not.
  if (scope.kind === 'school') {
    const [school] = await tx
      .select({ code: trainingSchools.code, name: trainingSchools.name })
      .from(trainingSchools)
      .where(eq(trainingSchools.id, candidate!.trainingSchoolId));
    await notifyBoard(tx, actor, {
      kind: 'resit.added',
      title: `Resit added by ${school.name}`,
      body: `${school.name} (${school.code}) has entered ${candidate!.candidateIndex} for a resit in ${diet.name}: ${row.papers.join(', ')}.`,
      schoolId: candidate!.trainingSchoolId,
      subject: candidate!.candidateIndex,
    });
  }
  return row;
}

/** The entry leaves the list (removed_at, removed_by), kept for the audit trail. */
export async function removeResit(tx: Database, actor: Actor, scope: ListScope, id: number, now: Date) {
  // The entry as the list shows it, with what decides whether this caller may remove it.
  const [row] = await selectListed(tx, resits, {
    resit: resits,
    registrationStatus: courseHeaders.registrationStatus,
    trainingSchoolId: candidates.trainingSchoolId,
    schoolStatus: trainingSchools.status,
    diet: diets,
  }).where(and(eq(resits.id, id), isNull(resits.removedAt)));
  if (!row || (scope.kind === 'school' && row.trainingSchoolId !== scope.schoolId)) {
    throw new NotFound(M.notFound);
  }
  await removeFromList(tx, actor, resits, id, {
    action: 'resit.removed',
    notFound: M.notFound,
    about: auditSnapshot(toResitRow(row)),
    check: async () => {
      const refusal = await schoolRefusal(tx, scope, row, row.diet, now);
      if (refusal) throw new Refused(403, refusal);
    },
  });
}
