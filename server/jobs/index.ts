import type { DatabaseHandle } from '../db/client';
import { sendRegistrationReminders } from '../diets/reminders';
import type { Logger } from '../http/log';
import type { Mailer } from '../mail/mailer';
import type { Storage } from '../storage/storage';
import { runUpkeep } from '../upkeep';

/**
 * Every kind of background job, in one place: its name (the pg-boss queue), what it runs, and when, if
 * on a schedule (cron, Lagos time). A later area (payment re-queries, mail, bulk PDFs) adds one entry.
 * Every job must be safe to run twice, at once on two processes, and again after a crash: pg-boss
 * delivers at least once, and retries a failure.
 */

/** What a job can reach: the portal's parts, and its clock. */
export interface JobContext {
  database: DatabaseHandle;
  storage: Storage;
  mailer: Mailer;
  log: Logger;
  clock: () => Date;
}

interface JobDefinition<Data = null> {
  /** pg-boss cron, in Lagos time. */
  cron?: string;
  run(context: JobContext, data: Data): Promise<unknown>;
}

export const JOBS = {
  /** Hourly upkeep (server/upkeep.ts): old throttle hits, old browsers, the storage sweep, ANALYZE on PGlite. */
  upkeep: {
    cron: '7 * * * *',
    run: (context) => runUpkeep(context),
  },
  /** Registration closing reminders (server/diets/reminders.ts), each quarter of an hour. */
  'registration-reminders': {
    cron: '*/15 * * * *',
    run: ({ database, mailer, log, clock }) =>
      sendRegistrationReminders({ db: database.db, mailer, log }, clock()),
  },
} as const satisfies Record<string, JobDefinition>;

export type JobName = keyof typeof JOBS;
