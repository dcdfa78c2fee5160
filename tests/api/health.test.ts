import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, type DatabaseHandle } from '../../server/db/client';
import { READY_CACHE_MS } from '../../server/readiness';
import { startTestPortal, type TestPortal } from './portal';

/** Every migration in the folder, as the journal lists them. */
const migrationCount = (): number =>
  JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')).entries.length;

let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal();
});
afterAll(() => t?.close());

const ALL_OK = { database: 'ok', migrations: 'ok', storage: 'ok', jobs: 'ok' };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Before the body-limit test below, whose refused upload leaves its connection closed.
describe('GET /api/health/ready', () => {
  it('is 200 with every part ok, says nothing of the settings, and is kept a few seconds', async () => {
    const response = await t.request('GET', '/api/health/ready');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { ready: true, checks: ALL_OK } });
    // Twenty at once, as balancers polling together: answered from one round of checks, quickly.
    const started = performance.now();
    const many = await Promise.all(Array.from({ length: 20 }, () => t.request('GET', '/api/health/ready')));
    expect(many.every((answer) => answer.status === 200)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('GET /api/health', () => {
  it('answers live, naming the driver, and asks nothing of the database', async () => {
    expect(migrationCount()).toBeGreaterThanOrEqual(2);
    const response = await t.request('GET', '/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: { status: 'live', driver: process.env.DATABASE_URL ? 'postgres' : 'pglite' },
    });
  });

  it('sends the security headers, with a CSP that loosens only script-src for VineJS', async () => {
    const response = await t.request('GET', '/api/health');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' 'unsafe-eval'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('answers an unknown API address with 404 in the envelope', async () => {
    const response = await t.request('GET', '/api/no-such-thing');
    expect(response.status).toBe(404);
    expect(response.body.success).toBe(false);
  });

  it('refuses a JSON body over the limit with 413', async () => {
    const response = await t.request('POST', '/api/auth/login', {
      json: { email: 'a@b.co', password: 'x'.repeat(300 * 1024) },
    });
    expect(response.status).toBe(413);
  });
});

describe('GET /api/health/ready when parts of the portal are lost', () => {
  let u: TestPortal;
  beforeAll(async () => {
    u = await startTestPortal();
  });
  afterAll(async () => {
    if (u?.databaseUrl) await allowConnections(u.databaseUrl, true);
    // The database may be closed already (PGlite): the portal's close then fails at its end.
    await u?.close().catch(() => fs.rmSync(u.dataDir, { recursive: true, force: true }));
  });

  /** On the PostgreSQL server: no new connection to the test's database, and those it has are ended. */
  async function allowConnections(url: string, allow: boolean) {
    const name = new URL(url).pathname.slice(1);
    const server = new URL(url);
    server.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: server.toString() });
    await admin.connect();
    try {
      await admin.query(`alter database ${name} with allow_connections ${allow}`);
      if (!allow) {
        await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [
          name,
        ]);
      }
    } finally {
      await admin.end();
    }
  }

  const ready = async () => {
    await pause(READY_CACHE_MS + 100);
    return u.request('GET', '/api/health/ready');
  };

  it('is 503 naming the job queue once it has stopped; live stays 200', async () => {
    expect((await u.request('GET', '/api/health/ready')).status).toBe(200);
    await u.portal.jobs.stop();
    const response = await ready();
    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      success: false,
      message: 'Not ready: jobs.',
      data: { ready: false, checks: { ...ALL_OK, jobs: 'failing' } },
    });
    expect((await u.request('GET', '/api/health')).status).toBe(200);
  });

  it('is 503 naming the database once it is gone, quickly, without a word of the settings', async () => {
    if (u.databaseUrl) await allowConnections(u.databaseUrl, false);
    else await (u.portal.database as DatabaseHandle & { pglite: PGlite }).pglite.close();
    await pause(READY_CACHE_MS + 100);
    const started = performance.now();
    const response = await u.request('GET', '/api/health/ready');
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      success: false,
      message: 'Not ready: database, migrations, jobs.',
      data: {
        ready: false,
        checks: { database: 'failing', migrations: 'failing', storage: 'ok', jobs: 'failing' },
      },
    });
    const text = JSON.stringify(response.body);
    for (const secret of [u.dataDir, u.databaseUrl, 'postgres://', '127.0.0.1', 'pglite', 'closed']) {
      if (secret) expect(text).not.toContain(secret);
    }
    // Live is still live: a balancer takes the process out of service, an orchestrator does not kill it.
    const live = await u.request('GET', '/api/health');
    expect(live.status).toBe(200);
    expect(live.body.data.status).toBe('live');
  });
});
