import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { BOARD_TIME_ZONE } from '../../contract/format';
import { describeError } from '../log';
import { RunLater, type JobName, type Jobs } from './handle';
import { JOBS, SHORT_JOB_SECONDS, type JobContext, type JobDefinition } from './index';

/**
 * Background work on pg-boss (docs/decisions.md "Background jobs"): a queue per job kind in JOBS, its
 * worker, and its cron schedule, in the database the portal already has. On PostgreSQL pg-boss keeps its
 * own small pool; on the embedded PGlite it runs its SQL through the portal's PGlite (`executeSql`
 * below), so `npm start` needs nothing more. Two API processes on one PostgreSQL share the queue: a job
 * is fetched by one of them (`skip locked`), a cron fires once a minute across both.
 */

export type { Jobs } from './handle';

export type JobsConnection = { driver: 'postgres'; url: string } | { driver: 'pglite'; pglite: PGlite };

export interface JobsOptions {
  /** How often an idle worker asks for work (seconds). */
  pollingIntervalSeconds?: number;
  /** Whether this process runs the cron schedules (every process may; pg-boss keeps it to one a minute). */
  schedule?: boolean;
  /** Whether this process runs pg-boss's maintenance (expiry, archiving; every process may). */
  supervise?: boolean;
}

const SCHEMA = 'pgboss';

/**
 * How a job caught by a crash (`kill -9`, a lost machine) comes back: it stays 'active' until its expiry
 * (JobDefinition.expireInSeconds), pg-boss's maintenance, which runs this often on one of the processes,
 * then counts it failed and queues its retry, which waits RETRY_DELAY_SECONDS (doubling, with jitter:
 * 5-10 s, 10-20 s, ... up to 80-160 s for the fifth) before a worker's next poll takes it. A short job
 * thus runs again within 30 + 10 + 10 + 2 s of its start. The maintenance also archives and drops old
 * jobs: a few milliseconds each time (docs/performance.md).
 */
const MAINTENANCE_SECONDS = 10;
const RETRY_DELAY_SECONDS = 5;
const RETRY_LIMIT = 5;

/**
 * pg-boss's `db` option over PGlite: statements with parameters as one prepared statement; pg-boss's own
 * scripts (its schema, its locked maintenance) are several statements in one text, which only PGlite's
 * `exec` runs. The answer is the last statement's that returned rows, as pg's would be for one.
 */
function pgliteExecutor(pglite: PGlite) {
  const run = async (text: string, values?: unknown[]) => {
    // PGlite answers within the same turn of the event loop (its file system is synchronous), so the
    // queue's start (a few hundred statements) would otherwise run as one chain of promises and hold
    // back every request until it ends; a turn between statements lets a request in.
    await new Promise((resolve) => setImmediate(resolve));
    if (values?.length) return pglite.query(text, values);
    const results = await pglite.exec(text);
    return [...results].reverse().find((result) => result.fields.length > 0) ?? { rows: [], fields: [] };
  };
  // pg-boss marks a finished job complete without awaiting it, so its stop can end with that statement
  // still on its way; the queue's stop waits for these before the portal closes the database.
  const running = new Set<Promise<unknown>>();
  return {
    executeSql(text: string, values?: unknown[]) {
      const statement = run(text, values);
      running.add(statement);
      statement.then(
        () => running.delete(statement),
        () => running.delete(statement),
      );
      return statement;
    },
    drained: () => Promise.allSettled([...running]).then(() => {}),
  };
}

/** The advisory lock two processes take in turn to set up the queues (any fixed number would do). */
const SET_UP_LOCK = "hashtext('portal.jobs.set-up')";

/**
 * On PostgreSQL, holds a session advisory lock on a connection of its own until the answer is called:
 * pg-boss creates each queue's table as a partition of its job table, and two processes doing it at
 * once on a fresh database deadlock (PostgreSQL then ends one of them, and its portal does not start).
 * One process sets up while the other waits, then finds the queues there. PGlite has one process.
 */
async function setUpAlone(connection: JobsConnection): Promise<() => Promise<void>> {
  if (connection.driver !== 'postgres') return async () => {};
  const client = new pg.Client({ connectionString: connection.url, application_name: 'portal-jobs-set-up' });
  await client.connect();
  try {
    await client.query(`select pg_advisory_lock(${SET_UP_LOCK})`);
  } catch (error) {
    await client.end();
    throw error;
  }
  // Ending the session releases its lock too, even if the unlock fails.
  return () =>
    client.query(`select pg_advisory_unlock(${SET_UP_LOCK})`).then(
      () => client.end(),
      () => client.end(),
    );
}

interface QueueSettings {
  policy: string;
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  expireInSeconds: number;
}

/** Whether a queue as pg-boss keeps it has these settings, and none other than updateQueue would leave. */
function sameQueue(queue: PgBoss.QueueResult | undefined, settings: QueueSettings): boolean {
  return (
    !!queue &&
    queue.policy === settings.policy &&
    queue.retryLimit === settings.retryLimit &&
    queue.retryDelay === settings.retryDelay &&
    queue.retryBackoff === settings.retryBackoff &&
    queue.expireInSeconds === settings.expireInSeconds &&
    queue.retentionMinutes == null &&
    queue.deadLetter == null
  );
}

/** Whether a stored schedule is the one startJobs writes for this job. */
function sameSchedule(row: PgBoss.Schedule | undefined, cron: string, name: string): boolean {
  const stored = row as (PgBoss.Schedule & { timezone?: string }) | undefined;
  return (
    !!stored &&
    stored.cron === cron &&
    stored.timezone === BOARD_TIME_ZONE &&
    stored.data == null &&
    stored.options?.tz === BOARD_TIME_ZONE &&
    stored.options?.singletonKey === name &&
    Object.keys(stored.options).length === 2
  );
}

export async function startJobs(
  connection: JobsConnection,
  context: JobContext,
  { pollingIntervalSeconds = 2, schedule = true, supervise = true }: JobsOptions = {},
): Promise<Jobs> {
  const { log } = context;
  const executor = connection.driver === 'pglite' ? pgliteExecutor(connection.pglite) : null;
  const boss = new PgBoss({
    ...(connection.driver === 'postgres'
      ? { connectionString: connection.url, max: 3, application_name: 'portal-jobs' }
      : { db: executor! }),
    schema: SCHEMA,
    schedule,
    supervise,
    maintenanceIntervalSeconds: MAINTENANCE_SECONDS,
    // Finished jobs are kept a week for whoever looks into one, then dropped.
    archiveCompletedAfterSeconds: 24 * 3600,
    deleteAfterDays: 7,
  });
  boss.on('error', (error) => log.error('jobs.error', describeError(error)));
  await boss.start();

  const jobs = Object.entries(JOBS) as [JobName, JobDefinition<unknown>][];
  const release = await setUpAlone(connection);
  try {
    // A restart finds its queues as it left them: one read, and only a queue that is missing or whose
    // settings changed is made or updated (two statements a queue each time cost a restart 0.3-0.6 s on
    // PGlite: docs/performance.md "Start").
    const existing = new Map((await boss.getQueues()).map((queue) => [queue.name, queue]));
    for (const [name, job] of jobs) {
      const settings = {
        name,
        policy: job.policy ?? 'standard',
        retryLimit: RETRY_LIMIT,
        retryDelay: RETRY_DELAY_SECONDS,
        retryBackoff: true,
        expireInSeconds: job.expireInSeconds ?? SHORT_JOB_SECONDS,
      };
      if (sameQueue(existing.get(name), settings)) continue;
      // createQueue leaves a queue that exists as it is: a database made by an earlier version gets
      // today's settings too (each new job takes its expiry and retries from its queue when it is sent).
      // updateQueue sets every option, the policy included: one left out goes back to pg-boss's default.
      await boss.createQueue(name, settings);
      await boss.updateQueue(name, settings);
    }
  } finally {
    await release();
  }

  // The cron schedules, likewise: one read, and a schedule written only when it is missing or changed.
  const schedules = schedule ? new Map((await boss.getSchedules()).map((row) => [row.name, row])) : new Map();
  const workers = new Map<JobName, string>();
  for (const [name, job] of jobs) {
    // A worker takes up to `batchSize` jobs a fetch and runs them at once; between fetches it waits the
    // polling interval unless woken (a job this process just queued wakes it: `send` below).
    const worker = await boss.work(
      name,
      { pollingIntervalSeconds, batchSize: job.batchSize ?? 1 },
      async (received) => {
        const outcomes = await Promise.allSettled(
          received.map(async ({ id, data }) => {
            const started = performance.now();
            try {
              await job.run(context, data);
              log.info('job.done', { name, id, ms: Math.round(performance.now() - started) });
            } catch (error) {
              if (error instanceof RunLater) {
                await boss.send(name, error.data, { ...error.options, startAfter: error.seconds });
                log.info('job.later', { name, id, seconds: error.seconds });
                return;
              }
              log.error('job.failed', { name, id, ...describeError(error) });
              throw error;
            }
          }),
        );
        // Thrown on, so pg-boss retries the batch (retryLimit); every job is safe to run again, and those
        // of the batch that succeeded find nothing left to do.
        const failed = outcomes.find((outcome) => outcome.status === 'rejected');
        if (failed) throw failed.reason;
      },
    );
    workers.set(name, worker);
    if (schedule && job.cron && !sameSchedule(schedules.get(name), job.cron, name)) {
      await boss.schedule(name, job.cron, undefined, { tz: BOARD_TIME_ZONE, singletonKey: name });
    }
  }

  let stopped = false;
  const wake = (name: JobName) => {
    const worker = workers.get(name);
    if (worker) boss.notifyWorker(worker);
  };
  return {
    boss,
    async send(name, data = {}, { wake: now = true, ...options } = {}) {
      const id = await boss.send(name, data, options);
      // Run now, here, rather than at this process's next poll (another process may take it first).
      if (id && now && !options.startAfter) wake(name);
      return id;
    },
    wake,
    async stop() {
      stopped = true;
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
      await executor?.drained();
    },
    async check() {
      if (stopped) throw new Error('the job queue is stopped');
      // Through pg-boss's own connections (its pool on PostgreSQL): one row of its queue table.
      if (!(await boss.getQueue('upkeep'))) throw new Error('the job queue has lost its queues');
    },
  };
}
