import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app';
import { startControl, type Control } from './backup/control';
import type { Config } from './config';
import { openDatabase, type DatabaseHandle, type DatabaseTarget } from './db/client';
import { startCheckpoints } from './db/durability';
import { ensureReferenceData } from './db/reference';
import { isEmpty, seedDemo, seedSignIns } from './demo';
import { createLogger, type Logger } from './log';
import { createMailer, type Mailer } from './mail/mailer';
import { createLocalStorage } from './storage/local';
import { createS3Storage } from './storage/s3';
import type { Storage } from './storage/storage';
import { startJobs, type Jobs, type JobsOptions } from './jobs/queue';
import { whenStarted } from './jobs/starting';
import { providerHealthRecorder } from './payments/health';
import { createPaymentProvider, type PaymentProvider, type ProviderTransport } from './payments/provider';
import { sandboxRoutes } from './payments/sandbox';
import { someoneLacksPrintPhoto } from './candidates/printPhotos';
import { someoneLacksPhotoPrint } from './integrity/photoPrints';
import { watchCallers } from './auth/callerCache';

export interface Portal {
  url: string;
  database: DatabaseHandle;
  mailer: Mailer;
  storage: Storage;
  seeded: boolean;
  /**
   * The job queue: a job sent before it runs waits for it (server/jobs/starting.ts); its `boss` exists
   * once `started` has resolved.
   */
  jobs: Jobs;
  /**
   * Resolves once the job queue runs and the start's own jobs are queued (the first upkeep, print photos
   * and photo prints when some lack them), which happens after the portal listens; rejects when the queue
   * cannot start (`npm start` then stops with the reason, as when the database fails before listening).
   */
  started: Promise<void>;
  payments: PaymentProvider;
  close(): Promise<void>;
}

export interface StartOptions {
  log?: Logger;
  database?: DatabaseTarget;
  /**
   * What an empty database is seeded with (when it is seeded at all): the living demo (the default), or
   * only the schools, course headers and sign-ins, which the test suites build their own rows on.
   */
  demo?: 'living' | 'sign-ins';
  /** The server's clock (tests set it to decide registration windows to the second). */
  clock?: () => Date;
  /** The job queue's polling and scheduling (tests poll faster). */
  jobs?: JobsOptions;
  /** Paystack's API at another address, and the calls' timeout (tests: a local fake that fails on cue). */
  paystack?: { url?: string; timeoutMs?: number };
}

/**
 * Opens the database, migrates, seeds what is needed, and listens; then starts the job queue and queues
 * the start's own jobs (`Portal.started`).
 */
export async function startPortal(config: Config, options: StartOptions = {}): Promise<Portal> {
  const log = options.log ?? createLogger(config.logRequests);
  const target: DatabaseTarget =
    options.database ??
    (config.databaseUrl
      ? { driver: 'postgres', url: config.databaseUrl, poolSize: config.databasePoolSize }
      : { driver: 'pglite', dataDir: config.dataDir });
  const database = await openDatabase(target);
  let server: ServerType | null = null;
  // Until the portal listens the queue is not started, and there is nothing to stop.
  let stopQueue = async () => {};
  let closeStorage = () => {};
  let unwatchCallers = async () => {};
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
    log,
  });
  try {
    await database.migrate();
    await ensureReferenceData(database.db);
    // Who each token belongs to, kept in memory while this process hears of every change to it.
    unwatchCallers = await watchCallers(
      database,
      target.driver === 'postgres' ? { driver: 'postgres', url: target.url } : { driver: 'pglite' },
      log,
    );
    // Object storage when S3_BUCKET is set (checked now, so a wrong bucket or key stops the start);
    // local disk under DATA_DIR otherwise. Made before the seed, which stores the demo's files.
    let storage: Storage;
    if (config.s3) {
      const s3 = await createS3Storage(config.s3);
      closeStorage = () => s3.close();
      log.info('storage.s3', { where: s3.description });
      storage = s3;
    } else {
      storage = createLocalStorage(path.join(config.dataDir, 'uploads'));
    }

    // A real PostgreSQL is never filled with demo data unless asked to.
    const mayseed = database.driver === 'pglite' || config.seedDemo;
    const seeded = mayseed && (await isEmpty(database.db));
    if (seeded && options.demo === 'sign-ins') await seedSignIns(database.db);
    else if (seeded) log.info('demo.seeded', { ...(await seedDemo(database.db, { storage, log })) });
    // Background jobs (server/jobs/): the upkeep, the registration reminders. Closing stops the queue
    // and waits for a job in progress, which must not meet a closed database.
    const clock = options.clock ?? (() => new Date());
    // This process's own address, once it listens: where the sandbox provider is asked and delivers
    // its webhooks (server/payments/sandbox.ts).
    let selfUrl = '';
    const self = () => selfUrl;
    // The sandbox's API, called in this process by the provider's client (made once the queue it
    // sends its webhooks with is running; nothing calls the provider before).
    let sandbox: ProviderTransport | null = null;
    const health = providerHealthRecorder({
      db: () => database.db,
      provider: config.paystack ? 'paystack' : 'sandbox',
      now: clock,
      log,
    });
    const payments = createPaymentProvider(config, {
      sandbox: () => sandbox ?? (() => Promise.reject(new Error('The sandbox is not ready'))),
      log,
      onOutcome: health.record,
      paystackUrl: options.paystack?.url,
      timeoutMs: options.paystack?.timeoutMs,
    });
    // Background jobs (server/jobs/): started once the portal listens, so that a restart answers
    // /api/health and the SPA without waiting for pg-boss's start (its queues, workers and schedules: a
    // few hundred queries on PGlite). Meanwhile a route's job waits for the queue (server/jobs/starting.ts)
    // and /api/health/ready says not ready. Closing stops the queue and waits for a job in progress,
    // which must not meet a closed database.
    let startQueue: () => void = () => {};
    const queueStarting = new Promise<void>((resolve) => (startQueue = resolve)).then(() =>
      startJobs(
        target.driver === 'postgres'
          ? { driver: 'postgres', url: target.url }
          : { driver: 'pglite', pglite: database.pglite! },
        { database, storage, mailer, log, clock, payments, selfUrl: self, publicUrl: config.publicUrl },
        options.jobs,
      ),
    );
    const queue = whenStarted(queueStarting);
    const startDuties = queueStarting.then(async (running) => {
      // The first upkeep soon after the start (one, however many processes start at once).
      await running.send(
        'upkeep',
        {},
        { startAfter: 1, singletonKey: 'upkeep-at-start', singletonSeconds: 300 },
      );
      // Print photos for photos uploaded before they were made at upload (server/candidates/printPhotos.ts),
      // queued only when one lacks its print photo: a start costs one indexed query, not a job. Two
      // processes starting at once queue one ('short' policy, one singletonKey).
      if (await someoneLacksPrintPhoto(database.db)) {
        await running.send('print-photos', {}, { singletonKey: 'print-photos' });
      }
      // The duplicate finder's prints of photos stored before it (server/integrity/photoPrints.ts), likewise.
      if (await someoneLacksPhotoPrint(database.db)) {
        await running.send('photo-hashes', {}, { singletonKey: 'photo-hashes' });
      }
    });
    // Not left unhandled while nobody awaits it yet (`started` below hands it on).
    startDuties.catch(() => {});

    if (!config.paystack) {
      const sandboxApp = sandboxRoutes({ config, database, jobs: queue, clock, payments });
      sandbox = (request) => Promise.resolve(sandboxApp.fetch(request));
    }
    const app = createApp({ config, database, mailer, storage, log, clock, jobs: queue, payments });
    const address = await new Promise<{ port: number }>((resolve, reject) => {
      server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => resolve(info));
      server.once('error', reject);
    });
    startQueue();
    // A close waits for the start's own jobs to be queued before it stops the queue.
    stopQueue = () => startDuties.then(queue.stop, queue.stop);
    // `npm run backup` reaches the embedded database through this process (server/backup/control.ts).
    const control: Control | null =
      target.driver === 'pglite'
        ? await startControl({ dataDir: target.dataDir, pglite: database.pglite!, db: database.db, log })
        : null;
    // Synced checkpoints of our own, since PGlite cannot sync the ones PostgreSQL makes (server/db/durability.ts).
    const checkpoints =
      target.driver === 'pglite'
        ? startCheckpoints({ pglite: database.pglite!, dir: path.join(target.dataDir, 'pglite'), log })
        : null;
    const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    const loopback = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '[::1]' : config.host;
    selfUrl = `http://${loopback.includes(':') && !loopback.startsWith('[') ? `[${loopback}]` : loopback}:${address.port}`;
    let closing: Promise<void> | null = null;
    const started = startDuties.then(() => {});
    return {
      url: `http://${host}:${address.port}`,
      database,
      mailer,
      storage,
      seeded,
      jobs: queue,
      started,
      payments,
      close() {
        closing ??= (async () => {
          // No new connection from here on (a close may wait a second for the queue's start, and a
          // process on its way out must not answer /api/health meanwhile); requests under way finish.
          const serverClosed = new Promise<void>((resolve) =>
            server ? server.close(() => resolve()) : resolve(),
          );
          await control?.close();
          await checkpoints?.stop();
          await stopQueue();
          await serverClosed;
          mailer.close();
          closeStorage();
          await unwatchCallers();
          await database.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await stopQueue();
    (server as ServerType | null)?.close();
    closeStorage();
    await unwatchCallers();
    await database.close();
    throw error;
  }
}
