import { eq, inArray, lt, sql } from 'drizzle-orm';
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

/** Old hits count for nothing; dropped now and then so the table stays small. */
export async function pruneHits(db: Database): Promise<void> {
  await db.delete(throttleHits).where(lt(throttleHits.at, sql`now() - interval '1 day'`));
}

/** The hits one call took, to give back when what they counted turns out not to count (a success). */
export type TakenHits = number[];

/**
 * Takes one try from every limit's bucket, or none when any of them is spent; answers the hits taken,
 * or null when refused. The
 * check and the record are one statement, and the transaction first takes an advisory lock on each
 * bucket (in one order, so two callers never wait on each other in a circle): a statement sees only
 * what was committed when it began, so without the lock a burst of parallel requests could all count
 * "not yet spent" before any of them had written. Called inside a transaction, it runs in a savepoint
 * and the locks are held to the end of the caller's transaction. Counting happens before anything
 * else is looked up, so a limit answers the same whether or not the account exists.
 */
export async function takeHit(db: Database, limits: Limit[]): Promise<TakenHits | null> {
  if (limits.length === 0) return [];
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
      sql`insert into ${throttleHits} (bucket) select b from unnest(${bucketArray}) as b where not (${spent}) returning id`,
    )) as unknown as { rows: { id: number | string }[] };
    return rows.length > 0 ? rows.map((row) => Number(row.id)) : null;
  });
}

/**
 * Gives taken hits back. A limit that counts failures only (wrong passwords, wrong codes) takes its hit
 * before the check, so that a burst cannot all be checked before any is counted, and gives it back when
 * the attempt succeeds.
 */
export async function giveBack(db: Database, hits: TakenHits): Promise<void> {
  if (hits.length) await db.delete(throttleHits).where(inArray(throttleHits.id, hits));
}

/** Empties a bucket: a success that ends a run of failures (NIST's "consecutive" failed attempts). */
export async function clearBucket(db: Database, bucket: string): Promise<void> {
  await db.delete(throttleHits).where(eq(throttleHits.bucket, bucket));
}
