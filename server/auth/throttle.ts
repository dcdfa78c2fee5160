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

/**
 * Takes one hit of the limit if it has room, and answers whether it did. The check and the record are
 * one statement, behind a lock on the bucket held to the end of the caller's transaction (call it in
 * one), so requests sent all at once cannot each count the same free place: under READ COMMITTED each
 * statement sees what the ones before it committed. A refused request records nothing.
 */
export async function takeHit(tx: Database, limit: Limit): Promise<boolean> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${limit.bucket}, 0))`);
  const taken = (await tx.execute(sql`
    insert into ${throttleHits} (bucket)
    select ${limit.bucket}
    where (
      select count(*) from ${throttleHits}
      where ${throttleHits.bucket} = ${limit.bucket}
        and ${throttleHits.at} > now() - make_interval(mins => ${limit.windowMinutes})
    ) < ${limit.max}
    returning ${throttleHits.id}`)) as unknown as { rows: unknown[] };
  return taken.rows.length > 0;
}

export async function recordHit(db: Database, buckets: string[]): Promise<void> {
  if (buckets.length === 0) return;
  await db.insert(throttleHits).values(buckets.map((bucket) => ({ bucket })));
}

/** Old hits count for nothing; dropped now and then so the table stays small. */
export async function pruneHits(db: Database): Promise<void> {
  await db.delete(throttleHits).where(lt(throttleHits.at, sql`now() - interval '1 day'`));
}
