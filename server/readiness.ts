import { sql } from 'drizzle-orm';
import type { PartState, Readiness, ReadyPart } from '../contract/health';
import type { DatabaseHandle } from './db/client';
import type { Jobs } from './jobs/handle';
import { QueueStarting } from './jobs/starting';
import type { Logger } from './log';
import { describeError } from './log';
import type { Storage } from './storage/storage';

/**
 * Whether this process can serve (GET /api/health/ready, for a load balancer): its database answers
 * and its migrations are the ones this code expects, its storage can be written, and its job queue
 * runs and reaches its tables. Each part is asked with a short time limit, all at once; the answer is
 * kept for READY_CACHE_MS (not while the job queue is still starting, which lasts a second or two after
 * the portal listens) and one asking is shared by every request meanwhile, so a balancer polling
 * every second from several places costs one round of checks every few seconds. The answer names the
 * parts and says 'ok' or 'failing', nothing more: why a part fails (an error's text can carry a host,
 * a bucket, a path) goes to the log, once per change.
 */
export const READY_CACHE_MS = 3_000;
const CHECK_TIMEOUT_MS = 2_000;

export interface ReadinessParts {
  database: DatabaseHandle;
  storage: Storage;
  jobs?: Jobs;
  log: Logger;
}

class TimedOut extends Error {
  constructor() {
    super(`no answer within ${CHECK_TIMEOUT_MS} ms`);
    this.name = 'TimedOut';
  }
}

function within<T>(work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work(),
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new TimedOut()), CHECK_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

export function createReadiness({ database, storage, jobs, log }: ReadinessParts): () => Promise<Readiness> {
  let kept: { at: number; answer: Readiness } | null = null;
  let asking: Promise<Readiness> | null = null;
  const lastState = new Map<ReadyPart, PartState>();
  let starting = false;

  const outcome = async (part: ReadyPart, check: () => Promise<boolean>): Promise<PartState> => {
    let state: PartState;
    let failure: unknown = null;
    try {
      state = (await within(check)) ? 'ok' : 'failing';
    } catch (error) {
      // A queue still starting (the first second or two after listening) is not ready, but nothing
      // failed: no log, and an answer the next asking does not reuse.
      if (error instanceof QueueStarting) {
        starting = true;
        return 'failing';
      }
      state = 'failing';
      failure = error;
    }
    // The log hears of a part that starts or stops failing, with why; the answer never says why.
    if (lastState.get(part) !== state && (state === 'failing' || lastState.has(part))) {
      if (state === 'failing')
        log.error('ready.failing', { part, ...(failure ? describeError(failure) : {}) });
      else log.info('ready.ok', { part });
    }
    lastState.set(part, state);
    return state;
  };

  const ask = async (): Promise<Readiness> => {
    starting = false;
    const [databaseState, storageState, jobsState] = await Promise.all([
      outcome('database', async () => {
        await database.db.execute(sql`select 1`);
        return true;
      }),
      outcome('storage', async () => {
        await storage.check();
        return true;
      }),
      outcome('jobs', async () => {
        if (!jobs) return false;
        await jobs.check();
        return true;
      }),
    ]);
    // Another process of a newer version may have migrated the database past what this code knows.
    const migrationsState =
      databaseState === 'ok'
        ? await outcome('migrations', async () => (await database.migrationState()).current)
        : 'failing';
    const checks = {
      database: databaseState,
      migrations: migrationsState,
      storage: storageState,
      jobs: jobsState,
    };
    return { ready: Object.values(checks).every((state) => state === 'ok'), checks };
  };

  return () => {
    if (kept && performance.now() - kept.at < READY_CACHE_MS) return Promise.resolve(kept.answer);
    asking ??= ask()
      .then((answer) => {
        kept = starting ? null : { at: performance.now(), answer };
        return answer;
      })
      .finally(() => {
        asking = null;
      });
    return asking;
  };
}
