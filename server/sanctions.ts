import { and, desc, eq, gte, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from './db/client';
import { diets, examOffences } from './db/schema';

/**
 * Sanctions (contract/offenders.ts): an offence's sanction runs for a number of diets after the diet it
 * was committed at, counted in paper-date order, or by dates. A removed offence does not count
 * (docs/decisions.md: removal is for offences recorded in error).
 */

/** The SQL of "this offence's sanction by dates runs on `day`" (inclusive; no until: indefinitely). */
export const sanctionRunsOn = (day: string) =>
  and(
    isNull(examOffences.removedAt),
    isNull(examOffences.sanctionDiets),
    lte(examOffences.sanctionFrom, day),
    or(isNull(examOffences.sanctionUntil), gte(examOffences.sanctionUntil, day)),
  );

/**
 * The SQL of "this offence's sanction covers the diet `dietId`": by diets, the diet is one of the
 * `sanction_diets` diets whose first paper comes after the offence's diet's; by dates, the diet's
 * papers fall (at least partly) in the sanction's dates.
 */
export const sanctionCovers = (dietId: SQL | number) => sql`(${examOffences.removedAt} is null and exists (
  select 1 from ${diets} as target, ${diets} as committed
  where target.id = ${dietId} and committed.id = ${examOffences.dietId} and case
    when ${examOffences.sanctionDiets} is not null then
      target.first_paper_on > committed.first_paper_on
      and (select count(*) from ${diets} as since
           where since.first_paper_on > committed.first_paper_on
             and since.first_paper_on <= target.first_paper_on) <= ${examOffences.sanctionDiets}
    else
      ${examOffences.sanctionFrom} <= target.last_paper_on
      and (${examOffences.sanctionUntil} is null or ${examOffences.sanctionUntil} >= target.first_paper_on)
    end))`;

export interface ActiveSanction {
  offence: string;
  sanction_diets: number | null;
  sanction_until: string | null;
  diet: { name: string };
}

/**
 * The sanction that keeps a candidate from the diet `dietId`, if any: of several, the one that runs
 * longest (an indefinite one first), since that is the one the board will be asked about.
 */
export async function activeSanction(
  db: Database,
  candidateId: number,
  dietId: number,
): Promise<ActiveSanction | null> {
  const [row] = await db
    .select({
      offence: examOffences.offence,
      sanction_diets: examOffences.sanctionDiets,
      sanction_until: examOffences.sanctionUntil,
      dietName: diets.name,
    })
    .from(examOffences)
    .innerJoin(diets, eq(diets.id, examOffences.dietId))
    .where(and(eq(examOffences.candidateId, candidateId), sanctionCovers(dietId)))
    .orderBy(
      sql`${examOffences.sanctionDiets} is null and ${examOffences.sanctionUntil} is null desc`,
      sql`${examOffences.sanctionUntil} desc nulls last`,
      desc(examOffences.id),
    )
    .limit(1);
  if (!row) return null;
  const { dietName, ...sanction } = row;
  return { ...sanction, diet: { name: dietName } };
}
