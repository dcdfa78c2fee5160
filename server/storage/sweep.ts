import { inArray } from 'drizzle-orm';
import { files } from '../db/schema';
import type { WithStorage } from './storage';

/**
 * How old a stored file must be before the sweep may judge it. A file is stored before its row is
 * written (a transaction cannot span the storage), so a young file without a row may be one whose
 * request is still running; an hour is far beyond any request.
 */
export const SWEEP_GRACE_MINUTES = 60;

const BATCH = 500;

/**
 * The upkeep's sweep of the storage: what writes cut short left behind (a process killed mid-upload),
 * and stored files that no `files` row names (a process killed between storing a file and committing
 * its row, or a removal that failed). Every file the portal keeps has a row in `files`, so a file
 * without one, past the grace period, is nobody's. Safe with two processes sweeping at once: removing
 * what is already gone is not an error, and a key, being random, never gains a row late.
 */
export async function sweepStorage(
  { db, storage, log }: WithStorage,
  now = new Date(),
): Promise<{ leftovers: number; orphans: number }> {
  const before = new Date(now.getTime() - SWEEP_GRACE_MINUTES * 60_000);
  const leftovers = await storage.removeLeftovers(before);
  let orphans = 0;
  const judge = async (keys: string[]) => {
    const rows = await db.select({ key: files.key }).from(files).where(inArray(files.key, keys));
    const known = new Set(rows.map((row) => row.key));
    for (const key of keys.filter((key) => !known.has(key))) {
      await storage.remove(key);
      orphans += 1;
    }
  };
  let batch: string[] = [];
  for await (const key of storage.keysWrittenBefore(before)) {
    batch.push(key);
    if (batch.length === BATCH) {
      await judge(batch);
      batch = [];
    }
  }
  if (batch.length) await judge(batch);
  if (leftovers || orphans) log.info('storage.swept', { leftovers, orphans });
  return { leftovers, orphans };
}
