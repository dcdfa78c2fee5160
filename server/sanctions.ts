import { and, desc, eq, gte, isNull, lte, or, sql } from 'drizzle-orm';
import { boardToday } from './boardDate';
import type { Database } from './db/client';
import { examOffences } from './db/schema';

/** The SQL of "this offence's sanction runs on `day`" (from and until inclusive; no until: indefinitely). */
export const sanctionRunsOn = (day: string) =>
  and(
    isNull(examOffences.removedAt),
    lte(examOffences.sanctionFrom, day),
    or(isNull(examOffences.sanctionUntil), gte(examOffences.sanctionUntil, day)),
  );

/**
 * The sanction that keeps a candidate from being registered today, if any: of several, the one that
 * runs longest (an indefinite one first), since that is the date the board will be asked about. A
 * removed offence does not count (docs/decisions.md: removal is for offences recorded in error).
 */
export async function activeSanction(
  db: Database,
  candidateId: number,
): Promise<{ offence: string; sanction_until: string | null } | null> {
  const [row] = await db
    .select({ offence: examOffences.offence, sanction_until: examOffences.sanctionUntil })
    .from(examOffences)
    .where(and(eq(examOffences.candidateId, candidateId), sanctionRunsOn(boardToday())))
    .orderBy(sql`${examOffences.sanctionUntil} desc nulls first`, desc(examOffences.id))
    .limit(1);
  return row ?? null;
}
