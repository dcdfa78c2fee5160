import type { JobName } from './handle';
import { sendRequestedReset, type ResetRequest } from '../auth/passwordReset';
import type { DatabaseHandle } from '../db/client';
import { sendRegistrationReminders } from '../diets/reminders';
import type { Logger } from '../log';
import type { Mailer } from '../mail/mailer';
import type { Storage } from '../storage/storage';
import { deliverWebhook } from '../payments/sandbox';
import type { PaymentProvider } from '../payments/provider';
import { requeryDue } from '../payments/settle';
import { settleJob, type SettleJobData } from '../payments/settleJob';
import { systemActor } from '../audit';
import { runUpkeep } from '../upkeep';
import { makeMissingPrintPhotos } from '../candidates/printPhotos';
import { buildDocumentJob } from '../documents/jobs';
import { sendBroadcastMails } from '../broadcasts/outbox';
import { mailConversationAnswers } from '../conversations/mail';
import { mailWaitingInvitations } from '../staff/invitations';
import { refreshSummary } from '../dashboard/summary';
import { checkPending, scanAll } from '../integrity/finder';
import { makeMissingPhotoPrints } from '../integrity/photoPrints';

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
  /** The payment provider, and this process's own address (where the sandbox delivers its webhooks). */
  payments: PaymentProvider;
  selfUrl: () => string;
  /** The address users reach the portal at (PUBLIC_URL): links in mail. */
  publicUrl: string;
}

export interface JobDefinition<Data = null> {
  /** pg-boss cron, in Lagos time. */
  cron?: string;
  /** Jobs a worker takes at once (default 1): for short jobs that arrive in bursts. */
  batchSize?: number;
  /**
   * How long one run may take before pg-boss counts it failed and runs it again (default
   * SHORT_JOB_SECONDS). A job caught by a crash stays 'active' this long: short jobs keep it short, so
   * they resume within a minute (server/jobs/queue.ts); a run past it is failed and retried meanwhile.
   */
  expireInSeconds?: number;
  /**
   * pg-boss's queue policy (default 'standard': every send queues a job). 'short': one job queued per
   * `singletonKey`; a send while one waits is a no-op (docs/decisions.md "Background jobs").
   */
  policy?: 'standard' | 'short';
  run(context: JobContext, data: Data): Promise<unknown>;
}

/** The expiry of a job that asks one outside party once (SMTP, the provider: 15 s timeouts) and writes a row. */
export const SHORT_JOB_SECONDS = 30;

export const JOBS = {
  /** Hourly upkeep (server/upkeep.ts): old throttle hits, old browsers, the storage sweep, ANALYZE on PGlite. */
  upkeep: {
    cron: '7 * * * *',
    // The storage sweep lists every stored file: minutes on a large bucket. Caught by a crash, its work
    // is done by the next hour's run anyway.
    expireInSeconds: 15 * 60,
    run: (context) => runUpkeep(context),
  },
  /** Registration closing reminders (server/diets/reminders.ts), each quarter of an hour. */
  'registration-reminders': {
    cron: '*/15 * * * *',
    // Up to 100 reminders mailed one after another; a run cut short by its expiry leaves the rest to the
    // retry, which skips the rows the first still holds (skip locked).
    expireInSeconds: 60,
    run: ({ database, mailer, log, clock }) =>
      sendRegistrationReminders({ db: database.db, mailer, log }, clock()),
  },
  /** Settles one reference the provider's webhook named (server/payments/settle.ts): idempotent. */
  'payment-settle': {
    // Webhooks come in bursts (Paystack's retries after an outage): twenty settled at once, and one
    // job queued per reference however many deliveries name it (sent with `singletonKey`).
    batchSize: 20,
    policy: 'short',
    run: ({ database, payments, log, clock }, data: SettleJobData) =>
      settleJob({ db: database.db, provider: payments, log, now: clock }, data),
  },
  /** Pending and unverified payments asked about again (backing off to hourly), for 72 hours. */
  'payment-requery': {
    cron: '*/5 * * * *',
    // Up to 100 references asked one after another; never longer than its period (the next run asks again).
    expireInSeconds: 5 * 60,
    run: ({ database, payments, log, clock }) =>
      requeryDue({ db: database.db, provider: payments, log, now: clock }, systemActor()),
  },
  /** 'Forgot your password?': the code issued and mailed, or nothing for an unknown address (server/auth/passwordReset.ts). */
  'password-reset-request': {
    batchSize: 5,
    run: ({ database, mailer, publicUrl }, data: ResetRequest) =>
      sendRequestedReset({ db: database.db, mailer, publicUrl }, data),
  },
  /** The sandbox provider's webhook deliveries to this portal (server/payments/sandbox.ts). */
  'sandbox-webhook': {
    run: ({ database, payments, selfUrl }, data: { event: string; reference: string }) =>
      deliverWebhook({ db: database.db, provider: payments, selfUrl }, data),
  },
  /**
   * Print photos for photos stored without one (server/candidates/printPhotos.ts): soon after every
   * start (one, however many processes start) and nightly. Idempotent; a run cut short by its expiry
   * leaves the rest to the retry.
   */
  'print-photos': {
    cron: '40 2 * * *',
    expireInSeconds: 15 * 60,
    policy: 'short',
    run: ({ database, storage, log }) => makeMissingPrintPhotos({ db: database.db, storage, log }),
  },
  /**
   * A PDF too large to stream, built into the storage (server/documents/jobs.ts). 20,000 photocards take
   * under a minute; a run past its expiry is retried, and a retry rebuilds into the same file.
   */
  'document-pdf': {
    expireInSeconds: 15 * 60,
    run: ({ database, storage, log, publicUrl }, data: { id: number }) =>
      buildDocumentJob({ db: database.db, storage, log, publicUrl }, data),
  },
  /**
   * The broadcasts' outbox (server/broadcasts/outbox.ts): woken when a broadcast is sent or reminded,
   * and every five minutes for what a failure left. One job waits at a time ('short'); each row is
   * mailed once, whichever worker takes it.
   */
  'broadcast-mail': {
    cron: '*/5 * * * *',
    policy: 'short',
    // Up to 200 mails one after another; a run cut short leaves the rest to the next.
    expireInSeconds: 5 * 60,
    run: ({ database, mailer, log, publicUrl }) =>
      sendBroadcastMails({ db: database.db, mailer, log, publicUrl }),
  },
  /**
   * The board's answers mailed to the school's admins (server/conversations/mail.ts): the outbox, one
   * row a transaction, skip locked. Woken by each answer; swept every 5 minutes for what a failure left.
   * 'short': one run queued at a time however many answers wake it (a run sends every row due).
   */
  'conversation-mail': {
    cron: '*/5 * * * *',
    expireInSeconds: 5 * 60,
    policy: 'short',
    run: ({ database, mailer, log, publicUrl }) =>
      mailConversationAnswers({ db: database.db, mailer, log, publicUrl }),
  },
  /**
   * Board-staff invitations waiting in their outbox (server/staff/invitations.ts), each mailed once: woken
   * by the route that queues one (one job queued however many sends), and every five minutes for any
   * left by a process that stopped before waking it. Idempotent: a mailed row is never sent again.
   */
  'staff-invitation': {
    cron: '*/5 * * * *',
    policy: 'short',
    run: ({ database, mailer, publicUrl }) => mailWaitingInvitations({ db: database.db, mailer, publicUrl }),
  },
  /**
   * The board dashboard's aggregates over every candidate (server/dashboard/summary.ts), counted each
   * minute: an upsert of the same answer, so a run twice or on two processes at once does no harm.
   */
  'dashboard-summary': {
    cron: '* * * * *',
    expireInSeconds: 60,
    policy: 'short',
    run: ({ database, clock }) => refreshSummary(database.db, clock()),
  },
  /**
   * The duplicate finder's check of the candidates just indexed or changed against everyone
   * (server/integrity/finder.ts checkPending): woken by the indexing route, and every five minutes for
   * any a stopped process left. 'short': one queued however many indexings wake it; rows are taken skip
   * locked, so two processes check different candidates.
   */
  'integrity-check': {
    cron: '*/5 * * * *',
    expireInSeconds: 5 * 60,
    policy: 'short',
    run: ({ database }) => checkPending(database.db),
  },
  /** The duplicate finder over every candidate (scanAll): nightly, and when the board asks for it. */
  'integrity-scan': {
    cron: '20 3 * * *',
    expireInSeconds: 10 * 60,
    policy: 'short',
    run: ({ database, log }) => scanAll(database.db, log),
  },
  /** The finder's prints of photos stored without one (server/integrity/photoPrints.ts): after a start that finds one, and nightly. */
  'photo-hashes': {
    cron: '50 2 * * *',
    expireInSeconds: 15 * 60,
    policy: 'short',
    run: ({ database, storage, log }) => makeMissingPhotoPrints({ db: database.db, storage, log }),
  },
} as const satisfies Record<JobName, JobDefinition<never>>;

// Every kind named in handle.ts is defined above, and nothing else is.
export type { JobName };
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const everyKindDefined: Same<keyof typeof JOBS, JobName> = true;
void everyKindDefined;
