import type { PGlite } from '@electric-sql/pglite';
import PgBoss from 'pg-boss';
import { BOARD_TIME_ZONE } from '../../contract/format';
import { describeError } from '../http/log';
import { RunLater, type JobName, type Jobs } from './handle';
import { JOBS, type JobContext, type JobDefinition } from './index';

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
 * pg-boss's `db` option over PGlite: statements with parameters as one prepared statement; pg-boss's own
 * scripts (its schema, its locked maintenance) are several statements in one text, which only PGlite's
 * `exec` runs. The answer is the last statement's that returned rows, as pg's would be for one.
 */
function pgliteExecutor(pglite: PGlite) {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values?.length) return pglite.query(text, values);
      const results = await pglite.exec(text);
      return [...results].reverse().find((result) => result.fields.length > 0) ?? { rows: [], fields: [] };
    },
  };
}

export async function startJobs(
  connection: JobsConnection,
  context: JobContext,
  { pollingIntervalSeconds = 2, schedule = true, supervise = true }: JobsOptions = {},
): Promise<Jobs> {
  const { log } = context;
  const boss = new PgBoss({
    ...(connection.driver === 'postgres'
      ? { connectionString: connection.url, max: 3, application_name: 'portal-jobs' }
      : { db: pgliteExecutor(connection.pglite) }),
    schema: SCHEMA,
    schedule,
    supervise,
    // Finished jobs are kept a week for whoever looks into one, then dropped.
    archiveCompletedAfterSeconds: 24 * 3600,
    deleteAfterDays: 7,
  });
  boss.on('error', (error) => log.error('jobs.error', describeError(error)));
  await boss.start();

  const workers = new Map<JobName, string>();
  for (const [name, job] of Object.entries(JOBS) as [JobName, JobDefinition<unknown>][]) {
    const options = {
      name,
      policy: job.policy ?? 'standard',
      retryLimit: 3,
      retryDelay: 60,
      retryBackoff: true,
    };
    await boss.createQueue(name, options);
    // createQueue leaves a queue that exists as it was: a database made before a kind's policy changed
    // takes the new one here (updateQueue sets every option, policy included, on each start).
    await boss.updateQueue(name, options);
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
    if (schedule && job.cron) {
      await boss.schedule(name, job.cron, undefined, { tz: BOARD_TIME_ZONE, singletonKey: name });
    }
  }

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
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 30_000 }),
  };
}
