import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../server/config';
import { MIGRATIONS_DIR, openDatabase } from '../../server/db/client';
import { JOBS } from '../../server/jobs';
import { startJobs, type JobsOptions } from '../../server/jobs/queue';
import type { Logger } from '../../server/log';
import { startPortal, type Portal, type StartOptions } from '../../server/portal';
import { DEMO_PASSWORD, seedDemo } from '../../server/demo';
import { ensureReferenceData } from '../../server/db/reference';
import { serverSecrets } from '../../server/db/schema';
import { createLocalStorage } from '../../server/storage/local';
import { livingTemplatePlace, migratedTemplatePlace, TEST_RUN_ENV } from './templates.setup';

/**
 * A whole portal for one test file: its own database (an in-memory PGlite, or a fresh database on the
 * PostgreSQL server named by DATABASE_URL), its own data directory, the demo seed, and a real HTTP
 * server on a free port. Nothing is shared between files: what is seeded once (the migrated database,
 * the run's living demo) is copied into each file's own database and data directory, never opened by two.
 */
export interface TestPortal {
  portal: Portal;
  url: string;
  dataDir: string;
  /** The test's own PostgreSQL database, or null on PGlite. */
  databaseUrl: string | null;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  /** The newest sign-in code mailed to this address. */
  readCode(email: string): string;
  /** The whole sign-in: password, mailed code, token. */
  signIn(email: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

interface RequestOptions {
  token?: string;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response bodies freely
export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A new database on the server, empty, or a copy of `template` (a database no one is connected to). */
export async function createPostgresDatabase(serverUrl: string, template?: string) {
  const name = `portal_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

const QUIET_LOG = { info: () => {}, error: () => {} };

/**
 * A test portal's queue unless the test says otherwise: its workers poll every 10 s and it keeps no
 * schedule nor maintenance, since forty portals polling side by side on two cores slow every test, and
 * only the jobs' own tests (tests/api/jobs.test.ts) wait on a job. The queue is there all the same.
 */
const QUIET_JOBS: JobsOptions = { pollingIntervalSeconds: 10, schedule: false, supervise: false };

/**
 * A migrated, empty PGlite dumped once per set of migrations and loaded by every test file: opening a
 * new PGlite and migrating it costs seconds, loading the dump a fraction of that. Not compressed: a
 * gzipped dump (5 MB instead of 44) costs each load 0.7 s more CPU to inflate (docs/performance.md).
 */
export async function pgliteTemplate() {
  const journal = fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'));
  const sql = fs.readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql'));
  const key = createHash('sha256')
    .update(journal)
    .update(sql.map((f) => fs.readFileSync(path.join(MIGRATIONS_DIR, f))).join('\n'))
    // The job queues are in the dump too: a new job kind makes a new one.
    .update(Object.keys(JOBS).join(','))
    .digest('hex')
    .slice(0, 16);
  const file = path.join(os.tmpdir(), `portal-pglite-template-${key}.tar`);
  if (!fs.existsSync(file)) {
    const handle = await openDatabase({ driver: 'pglite-memory' });
    await handle.migrate();
    // pg-boss's schema and the portal's queues too (each portal would otherwise make them at its start).
    const jobs = await startJobs(
      { driver: 'pglite', pglite: handle.pglite! },
      {
        database: handle,
        storage: null as never,
        mailer: null as never,
        log: QUIET_LOG,
        clock: () => new Date(),
        payments: null as never,
        selfUrl: () => '',
        publicUrl: '',
      },
      { schedule: false },
    );
    await jobs.stop();
    const dump = await handle.pglite!.dumpDataDir('none');
    await handle.close();
    const partial = `${file}.${process.pid}`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
  }
  return new Blob([fs.readFileSync(file)]);
}

/**
 * `build` done once for all the run's workers: the first to take the lock (a folder made beside `dir`)
 * builds into `dir` and marks it ready; the others wait for the mark. A build that fails leaves no mark
 * and frees the lock, so the next waiter tries again.
 */
async function onceInRun(dir: string, build: () => Promise<void>) {
  const ready = path.join(dir, 'ready');
  const lock = `${dir}.lock`;
  const deadline = Date.now() + 180_000;
  while (!fs.existsSync(ready)) {
    let mine = false;
    try {
      fs.mkdirSync(lock);
      mine = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (mine) {
      try {
        if (!fs.existsSync(ready)) {
          fs.rmSync(dir, { recursive: true, force: true });
          fs.mkdirSync(dir, { recursive: true });
          await build();
          fs.writeFileSync(ready, '');
        }
      } finally {
        fs.rmSync(lock, { recursive: true, force: true });
      }
    } else {
      if (Date.now() > deadline) throw new Error(`No living demo in ${dir} after 180 s (${lock} held)`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

interface LivingTemplate {
  /** The demo's stored files (local storage), copied into each portal's DATA_DIR/uploads. */
  uploads: string;
  /** On PGlite: the seeded database's dump, which each portal loads. */
  dump: Blob | null;
  /** On PostgreSQL: the seeded database, which each portal's is created from (CREATE DATABASE … TEMPLATE). */
  database: string | null;
}

/**
 * The living demo, seeded once per run (of the api project: `run` names it, tests/api/templates.setup.ts)
 * and copied by every file that asks for it, as the sign-ins' migrated database is (pgliteTemplate). Once
 * per run, not once per code version: the demo is dated from the moment it is seeded (its diets' windows,
 * its candidates' days), and a run is minutes long. It is what the portal's start seeds (server/portal.ts:
 * migrations, reference data, seedDemo into local storage), with no server secret: each copy makes its
 * own at first use, as a fresh start does.
 */
async function livingTemplate(run: string, serverUrl: string | undefined): Promise<LivingTemplate> {
  const { dir, database } = livingTemplatePlace(run, Boolean(serverUrl));
  const uploads = path.join(dir, 'uploads');
  const dumpFile = path.join(dir, 'pglite.tar');
  await onceInRun(dir, async () => {
    const storage = createLocalStorage(uploads);
    if (serverUrl && database) {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.query(`create database ${database}`);
      await admin.end();
      const url = new URL(serverUrl);
      url.pathname = `/${database}`;
      const handle = await openDatabase({ driver: 'postgres', url: url.toString() });
      try {
        await handle.migrate();
        await ensureReferenceData(handle.db);
        await seedDemo(handle.db, { storage, log: QUIET_LOG });
        await handle.db.delete(serverSecrets);
      } finally {
        await handle.close();
      }
    } else {
      const handle = await openDatabase({ driver: 'pglite-memory', loadDataDir: await pgliteTemplate() });
      try {
        await handle.migrate();
        await ensureReferenceData(handle.db);
        await seedDemo(handle.db, { storage, log: QUIET_LOG });
        await handle.db.delete(serverSecrets);
        const dump = await handle.pglite!.dumpDataDir('none');
        fs.writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
      } finally {
        await handle.close();
      }
    }
  });
  return {
    uploads,
    dump: serverUrl ? null : new Blob([fs.readFileSync(dumpFile)]),
    database,
  };
}

/**
 * On PostgreSQL, the run's migrated, empty database (made once per run, like the living demo), which the
 * other files' databases are created from: creating and migrating a database took each file 1.1-1.5 s, a
 * copy a fraction of it. Empty: each file's portal seeds its own sign-ins, dated from its own start.
 */
async function migratedTemplate(run: string, serverUrl: string): Promise<string> {
  const { dir, database } = migratedTemplatePlace(run);
  await onceInRun(dir, async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.query(`create database ${database}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    const handle = await openDatabase({ driver: 'postgres', url: url.toString() });
    try {
      await handle.migrate();
    } finally {
      await handle.close();
    }
  });
  return database;
}

/** The newest sign-in code mailed to this address, read from the mail files under the data directory. */
export function readMailedCode(dataDir: string, email: string): string {
  const dir = path.join(dataDir, 'mail');
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(`-${email}.eml`))
    .sort();
  if (!files.length) throw new Error(`No mail for ${email} in ${dir}`);
  const message = fs.readFileSync(path.join(dir, files[files.length - 1]), 'utf8');
  const match = /^Subject: Your sign-in code: (\d{6})$/m.exec(message);
  if (!match) throw new Error(`No sign-in code in the newest mail for ${email}`);
  return match[1];
}

/**
 * `livingDemo`: seed the whole demo (candidates, files, lists, notifications) as `npm start` does;
 * otherwise only the schools, course headers, diets and sign-ins, on which each test file builds its own
 * rows. `clock`: the server's clock (registration windows are decided by it), the real one unless given.
 */
export async function startTestPortal(
  env: Record<string, string> = {},
  {
    livingDemo = false,
    clock,
    jobs,
    log,
    paystack,
  }: {
    livingDemo?: boolean;
    clock?: () => Date;
    jobs?: JobsOptions;
    /** The portal's logger (a test that reads the log lines). */
    log?: Logger;
    /** Paystack's API at a local fake, and the calls' timeout (with PAYSTACK_* keys in `env`). */
    paystack?: StartOptions['paystack'];
  } = {},
): Promise<TestPortal> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
  const serverUrl = process.env.DATABASE_URL;
  // The living demo copied from the run's (its database and its files), seeded here only outside a run
  // of the api project, and on S3, whose test checks the seed's own uploads to the bucket.
  const run = process.env[TEST_RUN_ENV];
  const template = livingDemo && run && !env.S3_BUCKET ? await livingTemplate(run, serverUrl) : null;
  const source =
    template?.database ?? (serverUrl && run ? await migratedTemplate(run, serverUrl) : undefined);
  const postgres = serverUrl ? await createPostgresDatabase(serverUrl, source) : null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    QUIET: '1',
    SEED_DEMO: '1',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...env,
  });
  // Copied, not linked: no file of one test's storage is another's. By cp, which copies the demo's two
  // thousand files in a third of the CPU time fs.cpSync takes.
  if (template && fs.existsSync(template.uploads)) {
    execFileSync('cp', ['-R', template.uploads, path.join(config.dataDir, 'uploads')]);
  }
  const portal = await startPortal(config, {
    demo: livingDemo ? 'living' : 'sign-ins',
    clock,
    log,
    paystack,
    jobs: jobs ?? QUIET_JOBS,
    database: postgres
      ? { driver: 'postgres', url: postgres.url }
      : { driver: 'pglite-memory', loadDataDir: template?.dump ?? (await pgliteTemplate()) },
  });
  // The queue starts after the portal listens; a test reads its jobs once it runs.
  await portal.started;

  const request: TestPortal['request'] = async (method, route, options = {}) => {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: BodyInit | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      body = options.form;
    }
    const response = await fetch(portal.url + route, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: the test sees the text.
    }
    return { status: response.status, body: parsed, headers: response.headers };
  };

  const readCode = (email: string) => readMailedCode(dataDir, email);

  const signIn = async (email: string, password = DEMO_PASSWORD) => {
    const login = await request('POST', '/api/auth/login', { json: { email, password } });
    if (login.status !== 200) throw new Error(`login ${login.status}: ${JSON.stringify(login.body)}`);
    const confirm = await request('POST', '/api/auth/confirm-code', {
      json: { login_id: login.body.data.login_id, code: readCode(email) },
    });
    if (confirm.status !== 200) throw new Error(`confirm ${confirm.status}: ${JSON.stringify(confirm.body)}`);
    return confirm.body.data.access_token as string;
  };

  return {
    portal,
    url: portal.url,
    dataDir,
    databaseUrl: postgres?.url ?? null,
    request,
    readCode,
    signIn,
    async close() {
      await portal.close();
      await postgres?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
