import type { Jobs } from './handle';

/** The queue has not started yet: not ready, but not a failure either (server/readiness.ts). */
export class QueueStarting extends Error {
  constructor() {
    super('the job queue is starting');
    this.name = 'QueueStarting';
  }
}

/**
 * The job queue's handle while it starts: the portal listens before pg-boss has started (its start is a
 * few hundred queries on PGlite, docs/performance.md "Start"), so a request in that moment holds this.
 * A job sent meanwhile waits for the queue and is then queued as it would have been; the readiness
 * answer's check throws until the queue runs (so /api/health/ready says not ready); `boss` exists only
 * once it runs (tests await `portal.started` first).
 */
export function whenStarted(starting: Promise<Jobs>): Jobs {
  let running: Jobs | null = null;
  let failed = false;
  starting.then(
    (jobs) => (running = jobs),
    () => (failed = true),
  );
  return {
    async send(name, data, options) {
      return (await starting).send(name, data, options);
    },
    // Before the start there is nothing to wake: a worker's first fetch takes what is queued.
    wake: (name) => running?.wake(name),
    async stop() {
      const jobs = await starting.catch(() => null);
      await jobs?.stop();
    },
    async check() {
      if (!running) throw failed ? new Error('the job queue failed to start') : new QueueStarting();
      await running.check();
    },
    get boss() {
      if (!running) throw new Error('the job queue is starting: await portal.started first');
      return running.boss;
    },
  };
}
