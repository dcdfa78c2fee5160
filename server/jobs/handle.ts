import type PgBoss from 'pg-boss';

/**
 * What a request holds of the job queue: the names of the kinds of job and the queue's handle. Kept
 * apart from the jobs themselves (server/jobs/index.ts), so that the request's context, which every
 * module reads, does not import every job's code, and nothing that a job runs imports back.
 */
export type JobName =
  | 'upkeep'
  | 'registration-reminders'
  | 'payment-settle'
  | 'payment-requery'
  | 'password-reset-request'
  | 'sandbox-webhook'
  | 'print-photos'
  | 'document-pdf'
  | 'broadcast-mail'
  | 'conversation-mail'
  | 'staff-invitation'
  | 'dashboard-summary'
  | 'integrity-check'
  | 'integrity-scan'
  | 'photo-hashes';

// The request's context (server/http/context.ts) holds the queue's handle; declared here, so that the
// HTTP layer imports nothing of the jobs.
declare module '../http/context' {
  interface Deps {
    /** The job queue (server/jobs/): a route that starts background work sends it here. */
    jobs?: Jobs;
  }
}

export interface Jobs {
  /**
   * Queues a job, answering its id, or null when none was queued. A `singletonKey` de-duplicates only on
   * a queue whose policy says so (JobDefinition `policy` 'short': a second send while one with that key
   * waits is a no-op); on a 'standard' queue each send queues its own job, key or not. This process's
   * worker is woken to run it now, unless `wake: false` or `startAfter` (the worker fetches it later).
   */
  send(
    name: JobName,
    data?: object,
    options?: PgBoss.SendOptions & { wake?: boolean },
  ): Promise<string | null>;
  /** Wakes this process's worker of the kind, to fetch what is queued now rather than at its next poll. */
  wake(name: JobName): void;
  /** Stops taking jobs and waits for those running (before the database closes). */
  stop(): Promise<void>;
  /** Throws unless the queue runs and reaches its tables (the readiness answer, server/readiness.ts). */
  check(): Promise<void>;
  boss: PgBoss;
}

/**
 * Thrown by a job that should run again later rather than fail (a provider that asks us to wait): the
 * worker queues it again with `data`, due in `seconds`, and counts this run done, so pg-boss's own retries
 * (a fixed backoff) are kept for failures of the portal's own.
 */
export class RunLater extends Error {
  constructor(
    readonly seconds: number,
    readonly data: object,
    readonly options: { singletonKey?: string } = {},
  ) {
    super(`Run again in ${seconds} s`);
  }
}
