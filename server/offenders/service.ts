import { eq, or, sql } from 'drizzle-orm';
import { OFFENDER_MESSAGES as M, type OffenderRow } from '../../contract/offenders';
import type { offenceValidator } from '../../contract/offenders.validators';
import { audit, userOf, type Actor } from '../audit';
import { boardToday } from '../boardDate';
import type { Database } from '../db/client';
import { examOffences } from '../db/schema';
import { Invalid, NotFound } from '../errors';
import { CURRENT_DIET_ID } from '../candidates/records';
import { dietByCode, unknownDiet } from '../diets/byCode';
import { dietOf, findIndexedCandidate, removeFromList, selectListed, toListedCandidate } from '../listed';
import { sanctionCovers, sanctionRunsOn } from '../sanctions';

/** Exam offences: recorded against an indexed candidate by the board, and taken off its list. */

type OffenceInput = Awaited<ReturnType<typeof offenceValidator.validate>>;

/**
 * The list's rows with their candidate, school, course header and diet; `active`: the sanction covers
 * the diet current for registration, or (by dates) runs `today`.
 */
export const selectOffenders = (db: Database, today: string) =>
  selectListed(db, examOffences, {
    offence: examOffences,
    active: sql<boolean>`coalesce(${or(sanctionCovers(CURRENT_DIET_ID), sanctionRunsOn(today))}, false)`,
  });

export function toOffenderRow(row: Awaited<ReturnType<typeof selectOffenders>>[number]): OffenderRow {
  const o = row.offence;
  return {
    id: o.id,
    candidate_index: row.candidateIndex,
    candidate: toListedCandidate(o.candidateId, row),
    diet: dietOf(row),
    offence: o.offence,
    sanction: o.sanction,
    sanction_diets: o.sanctionDiets,
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
  diet: row.diet.code,
  offence: row.offence,
  sanction: row.sanction,
  sanction_diets: row.sanction_diets,
  sanction_from: row.sanction_from,
  sanction_until: row.sanction_until,
});

async function loadOffender(db: Database, id: number): Promise<OffenderRow | null> {
  const [row] = await selectOffenders(db, boardToday()).where(eq(examOffences.id, id));
  return row ? toOffenderRow(row) : null;
}

/** Records an offence against an indexed candidate, found by index number. */
export async function recordOffence(tx: Database, actor: Actor, input: OffenceInput): Promise<OffenderRow> {
  const candidate = await findIndexedCandidate(tx, input.candidate_index);
  const diet = await dietByCode(tx, input.diet);
  if (!candidate || !diet) {
    throw new Invalid({
      ...(candidate ? {} : { candidate_index: [M.candidateUnknown] }),
      ...(diet ? {} : unknownDiet()),
    });
  }
  // By diets, or by dates: never both.
  const byDiets = input.sanction_diets ?? null;
  const [inserted] = await tx
    .insert(examOffences)
    .values({
      candidateId: candidate.id,
      dietId: diet.id,
      offence: input.offence,
      sanction: input.sanction,
      sanctionDiets: byDiets,
      sanctionFrom: byDiets ? null : (input.sanction_from ?? null),
      sanctionUntil: byDiets ? null : (input.sanction_until ?? null),
      createdBy: userOf(actor),
    })
    .returning({ id: examOffences.id });
  const row = (await loadOffender(tx, inserted.id))!;
  await audit(tx, actor, {
    action: 'exam_offence.recorded',
    entityId: inserted.id,
    after: auditSnapshot(row),
  });
  return row;
}

/** The row leaves the list (removed_at, removed_by) and its sanction no longer applies. */
export async function removeOffence(tx: Database, actor: Actor, id: number): Promise<void> {
  const offence = await loadOffender(tx, id);
  if (!offence) throw new NotFound(M.notFound);
  await removeFromList(tx, actor, examOffences, id, {
    action: 'exam_offence.removed',
    notFound: M.notFound,
    about: auditSnapshot(offence),
  });
}
