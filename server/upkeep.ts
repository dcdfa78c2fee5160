import { sql } from 'drizzle-orm';
import { forgetOldBrowsers } from './auth/knownBrowsers';
import { pruneHits } from './auth/throttle';
import type { DatabaseHandle } from './db/client';
import { describeError, type Logger } from './log';
import type { Storage } from './storage/storage';
import { sweepStorage } from './storage/sweep';
import { removeOldDocumentJobs } from './documents/jobs';

/**
 * The hourly upkeep: old rate-limit hits count for nothing and are dropped, as are browsers not seen
 * for a year (server/auth/knownBrowsers.ts); bulk PDFs built by jobs go with their jobs after
 * DOCUMENT_JOB_DAYS (server/documents/jobs.ts); the storage is swept of
 * what crashed writes left behind (server/storage/sweep.ts); and PGlite, which has no autovacuum, gets
 * an ANALYZE, without which its planner guesses row counts and short searches on a large table get slow
 * (docs/performance.md). Each part runs even when another fails; a failure is logged, never thrown.
 */
export async function runUpkeep({
  database,
  storage,
  log,
}: {
  database: DatabaseHandle;
  storage: Storage;
  log: Logger;
}): Promise<void> {
  const parts: [string, () => Promise<unknown>][] = [
    ['throttle', () => pruneHits(database.db)],
    ['known browsers', () => forgetOldBrowsers(database.db)],
    ['document jobs', () => removeOldDocumentJobs({ db: database.db, storage, log })],
    ['storage', () => sweepStorage({ db: database.db, storage, log })],
    ['analyze', async () => (database.driver === 'pglite' ? database.db.execute(sql`analyze`) : null)],
  ];
  for (const [part, run] of parts) {
    try {
      await run();
    } catch (error) {
      log.error('upkeep.failed', { part, ...describeError(error) });
    }
  }
}
