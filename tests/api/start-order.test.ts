import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ENDPOINTS } from '../../contract/auth.endpoints';
import { loadConfig } from '../../server/config';
import { DEMO_SIGN_INS } from '../../server/demo';
import { startPortal, type Portal } from '../../server/portal';
import { until } from './fixtures';
import { createPostgresDatabase } from './portal';

/**
 * The portal listens before its job queue has started (server/portal.ts): a request in that moment is
 * answered, the readiness answer says not ready until the queue runs, a job a route sends meanwhile runs
 * once it does, and the start's own jobs (the first upkeep) are still queued and run.
 */

let dataDir: string;
let postgres: { url: string; drop(): Promise<void> } | null = null;
let portal: Portal;
const folders: string[] = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-start-order-'));
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) postgres = await createPostgresDatabase(serverUrl);
});
afterAll(async () => {
  await portal?.close();
  await postgres?.drop();
  for (const folder of [dataDir, ...folders]) fs.rmSync(folder, { recursive: true, force: true });
});

const mailsTo = (email: string) =>
  fs.existsSync(path.join(dataDir, 'mail'))
    ? fs.readdirSync(path.join(dataDir, 'mail')).filter((name) => name.endsWith(`-${email}.eml`)).length
    : 0;

/** The first answer of `path` from a portal that is starting on `port` (asked every 5 ms until it answers). */
async function firstAnswer(port: number, path: string) {
  for (;;) {
    try {
      return await fetch(`http://127.0.0.1:${port}${path}`);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

describe('a request while the job queue starts', () => {
  it(
    'is answered, and its job and the start’s own run once the queue does',
    { timeout: 120_000 },
    async () => {
      const port = 20_000 + Math.floor(Math.random() * 40_000);
      const config = loadConfig({
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        QUIET: '1',
        SEED_DEMO: '1',
        ...(postgres ? { DATABASE_URL: postgres.url } : {}),
      });
      let queueRunning = false;
      const errors: string[] = [];
      const log = { info: () => {}, error: (event: string) => void errors.push(event) };
      const starting = startPortal(config, {
        log,
        demo: 'sign-ins',
        jobs: { pollingIntervalSeconds: 0.5, schedule: false },
      }).then((started) => {
        portal = started;
        void started.started.then(() => (queueRunning = true));
        return started;
      });

      // As soon as it listens, before the queue runs: live, and not ready (its jobs part).
      const live = await firstAnswer(port, '/api/health');
      const runningAtLive = queueRunning;
      // Its answer may leave after the queue runs (the database check waits behind the queue's start on
      // PGlite), but it was decided before.
      const ready = await fetch(`http://127.0.0.1:${port}/api/health/ready`);
      expect(live.status).toBe(200);
      expect(runningAtLive).toBe(false);
      expect(ready.status).toBe(503);
      expect((await ready.json()).data.checks.jobs).toBe('failing');
      // Sent while the queue starts, its job waits for the queue (it is queued before the answer leaves).
      const email = DEMO_SIGN_INS[0].email;
      const asked = await fetch(`http://127.0.0.1:${port}${AUTH_ENDPOINTS.forgotPassword.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      expect(asked.status).toBe(200);

      await (
        await starting
      ).started;
      // The job sent while the queue started runs: the reset code is mailed.
      expect(
        await until(
          async () => mailsTo(email),
          (n) => n > 0,
        ),
      ).toBe(1);
      // The start's first upkeep (due a second after it is queued) runs too.
      const upkeep = async () =>
        (
          (await portal.database.db.execute(
            sql`select state from pgboss.job where name = 'upkeep' and singleton_key = 'upkeep-at-start'`,
          )) as unknown as { rows: { state: string }[] }
        ).rows.map((row) => row.state);
      expect(await until(upkeep, (states) => states.includes('completed'))).toEqual(['completed']);
      // Ready as soon as the queue runs: the not-ready answer of its start is not kept (server/readiness.ts),
      // and a queue starting is no failure in the log.
      expect((await fetch(`${portal.url}/api/health/ready`)).status).toBe(200);
      expect(errors).toEqual([]);
    },
  );
});

describe('a close while the job queue starts', () => {
  it('stops answering at once, then waits for the queue and closes', { timeout: 120_000 }, async () => {
    const port = 20_000 + Math.floor(Math.random() * 40_000);
    // A data folder of its own (the first test's portal holds its folder's lock until the end).
    const ownDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-start-close-'));
    folders.push(ownDir);
    const closing = startPortal(
      loadConfig({
        DATA_DIR: ownDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        QUIET: '1',
        ...(postgres ? { DATABASE_URL: postgres.url } : {}),
      }),
      { demo: 'sign-ins', jobs: { pollingIntervalSeconds: 0.5, schedule: false } },
    );
    expect((await firstAnswer(port, '/api/health')).status).toBe(200);
    const started = await closing;
    // A process on its way out (SIGTERM) must not answer /api/health while it waits for the queue: the
    // next process, or a balancer, would take it for live.
    const closed = started.close();
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
    await closed;
  });
});
