import { and, count, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { throttleHits } from '../db/schema';

/**
 * Rate limits kept in the database, so that every API process behind a load balancer counts the same
 * attempts. A bucket is a key such as `login:ip:203.0.113.9` or `login:email:a@b.c`.
 */
export interface Limit {
  bucket: string;
  max: number;
  windowMinutes: number;
}

export async function isLimited(db: Database, limits: Limit[]): Promise<boolean> {
  for (const limit of limits) {
    const [row] = await db
      .select({ hits: count() })
      .from(throttleHits)
      .where(
        and(
          eq(throttleHits.bucket, limit.bucket),
          gt(throttleHits.at, sql`now() - make_interval(mins => ${limit.windowMinutes})`),
        ),
      );
    if (row.hits >= limit.max) return true;
  }
  return false;
}

export async function recordHit(db: Database, buckets: string[]): Promise<void> {
  if (buckets.length === 0) return;
  await db.insert(throttleHits).values(buckets.map((bucket) => ({ bucket })));
}

/** Old hits count for nothing; dropped now and then so the table stays small. */
export async function pruneHits(db: Database): Promise<void> {
  await db.delete(throttleHits).where(lt(throttleHits.at, sql`now() - interval '1 day'`));
}

/**
 * Takes one try from every limit's bucket, or none when any of them is spent; true when taken. The
 * check and the record are one statement, and the transaction first takes an advisory lock on each
 * bucket (in one order, so two callers never wait on each other in a circle): a statement sees only
 * what was committed when it began, so without the lock a burst of parallel requests could all count
 * "not yet spent" before any of them had written. Called inside a transaction, it runs in a savepoint
 * and the locks are held to the end of the caller's transaction. Counting happens before anything
 * else is looked up, so a limit answers the same whether or not the account exists.
 */
export async function takeHit(db: Database, limits: Limit[]): Promise<boolean> {
  if (limits.length === 0) return true;
  const buckets = [...new Set(limits.map((limit) => limit.bucket))].sort();
  const bucketArray = sql`array[${sql.join(
    buckets.map((bucket) => sql`${bucket}`),
    sql`, `,
  )}]::text[]`;
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(b)) from unnest(${bucketArray}) as b order by b`,
    );
    const spent = sql.join(
      limits.map(
        (limit) =>
          sql`(select count(*) from ${throttleHits} where ${throttleHits.bucket} = ${limit.bucket} and ${throttleHits.at} > now() - make_interval(mins => ${limit.windowMinutes})) >= ${limit.max}`,
      ),
      sql` or `,
    );
    const { rows } = (await tx.execute(
      sql`insert into ${throttleHits} (bucket) select b from unnest(${bucketArray}) as b where not (${spent}) returning bucket`,
    )) as unknown as { rows: unknown[] };
    return rows.length > 0;
  });
}
