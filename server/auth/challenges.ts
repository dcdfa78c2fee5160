import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { signInChallenges } from '../db/schema';

/** Voids the account's unfinished sign-ins (unused, not voided yet): their codes no longer work. */
export async function voidOpenChallenges(db: Database, userId: number): Promise<void> {
  await db
    .update(signInChallenges)
    .set({ voidedAt: sql`now()` })
    .where(
      and(
        eq(signInChallenges.userId, userId),
        isNull(signInChallenges.usedAt),
        isNull(signInChallenges.voidedAt),
      ),
    );
}
