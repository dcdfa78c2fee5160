import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, count, eq, isNotNull, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NIGERIA_CODE, SPECIAL_COURSE_HEADERS } from '../../contract/constants';
import { ConfigError, loadConfig } from '../../server/config';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { DataDirLockedError } from '../../server/db/lock';
import {
  candidates,
  courseHeaders,
  examOffences,
  files,
  nationalities,
  notifications,
  resits,
  results,
  scoreSheets,
  trainingSchools,
  users,
} from '../../server/db/schema';
import { DEMO_MARKERS } from '../../server/demo/scores';
import { DEMO_INVITED_ADMIN } from '../../server/demo/staff';
import { DEMO_SIGN_INS } from '../../server/demo';
import { startPortal } from '../../server/portal';
import { startTestPortal, type TestPortal } from './portal';

/** What happens before the first request: settings, the data directory's lock, reference and demo data. */

describe('the settings (server/config.ts)', () => {
  it('has working defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      databaseUrl: null,
      smtpUrl: null,
      publicUrl: 'http://localhost:3000',
      seedDemo: false,
      distDir: path.resolve('./dist'),
      tokenTtlMinutes: 720,
      logRequests: true,
    });
    expect(path.isAbsolute(config.dataDir)).toBe(true);
  });

  it('reads what is set, resolving DATA_DIR and trimming a trailing slash off PUBLIC_URL', () => {
    const config = loadConfig({
      PORT: '8080',
      DATA_DIR: 'relative/dir',
      DATABASE_URL: 'postgres://user@db.example:5432/portal',
      SMTP_URL: 'smtps://mailer.example:465',
      PUBLIC_URL: 'https://portal.example/',
      SEED_DEMO: 'yes',
    });
    expect(config).toMatchObject({
      port: 8080,
      dataDir: path.resolve('relative/dir'),
      databaseUrl: 'postgres://user@db.example:5432/portal',
      smtpUrl: 'smtps://mailer.example:465',
      publicUrl: 'https://portal.example',
      seedDemo: true,
    });
    // An empty or blank value counts as unset.
    expect(loadConfig({ PORT: '  ', DATABASE_URL: '' })).toMatchObject({ port: 3000, databaseUrl: null });
  });

  const refusal = (env: Record<string, string>): ConfigError => {
    try {
      loadConfig(env);
    } catch (error) {
      return error as ConfigError;
    }
    throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
  };

  it.each([
    ['PORT', 'abc', /PORT must be a whole number from 0 to 65535; it is 'abc'/],
    ['PORT', '70000', /PORT must be a whole number from 0 to 65535; it is '70000'/],
    ['PORT', '80.5', /PORT must be a whole number/],
    [
      'DATABASE_URL',
      'mysql://db/portal',
      /DATABASE_URL must start with postgres:\/\/ or postgresql:\/\/; it is 'mysql:\/\/db\/portal'/,
    ],
    ['DATABASE_URL', 'not a url', /DATABASE_URL must be a URL such as postgres:\/\/host; it is 'not a url'/],
    ['SMTP_URL', 'http://mail.example', /SMTP_URL must start with smtp:\/\/ or smtps:\/\//],
    ['SMTP_URL', 'mail.example', /SMTP_URL must be a URL/],
    ['PUBLIC_URL', 'ftp://portal.example', /PUBLIC_URL must start with http:\/\/ or https:\/\//],
    ['PUBLIC_URL', 'portal.example', /PUBLIC_URL must be a URL/],
    ['SEED_DEMO', 'maybe', /SEED_DEMO must be 1 or 0; it is 'maybe'/],
  ])('refuses %s=%s with a ConfigError naming the variable', (name, value, message) => {
    const error = refusal({ [name]: value });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.name).toBe('ConfigError');
    expect(error.message).toMatch(/^The portal cannot start, its settings are wrong:/);
    expect(error.message).toMatch(message);
  });

  it('lists every wrong setting at once', () => {
    const error = refusal({
      PORT: '-1',
      DATABASE_URL: 'mysql://x',
      SMTP_URL: 'x',
      PUBLIC_URL: 'x',
      SEED_DEMO: 'x',
    });
    const lines = error.message.split('\n').slice(1);
    expect(lines).toHaveLength(5);
    for (const name of ['PORT', 'DATABASE_URL', 'SMTP_URL', 'PUBLIC_URL', 'SEED_DEMO']) {
      expect(lines.some((line) => line.startsWith(`  - ${name} `))).toBe(true);
    }
  });
});

describe('the data directory lock (server/db/lock.ts)', () => {
  let dataDir: string;
  let first: DatabaseHandle | null = null;
  const lockFile = () => path.join(dataDir, 'portal.lock');
  const listing = () => fs.readdirSync(dataDir, { recursive: true }).map(String).sort();

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-lock-'));
  });
  afterAll(async () => {
    await first?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** A process of our own that stays alive until we end it. */
  const sleeper = () => spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  const exited = (child: ReturnType<typeof spawn>) =>
    new Promise<void>((resolve) =>
      child.exitCode !== null ? resolve() : child.once('exit', () => resolve()),
    );

  it('is taken by the first open, and refuses a second open of the same directory', async () => {
    first = await openDatabase({ driver: 'pglite', dataDir });
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(String(process.pid));
    const before = listing();

    const second = openDatabase({ driver: 'pglite', dataDir });
    await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(openDatabase({ driver: 'pglite', dataDir })).rejects.toThrow(
      `Another portal process (pid ${process.pid}) is already using the data directory ${dataDir}. ` +
        'Stop it first, or start this one with another DATA_DIR.',
    );

    // The refused opens touched nothing: same files, same lock, and the first still works.
    expect(listing()).toEqual(before);
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(String(process.pid));
    const result = (await first.db.execute(sql`select 41 + 1 as answer`)) as unknown as {
      rows: { answer: number }[];
    };
    expect(Number(result.rows[0].answer)).toBe(42);
  });

  it('starts PGlite with 32 MB of shared buffers, and what it wrote reads back after a reopen', async () => {
    const show = async (handle: DatabaseHandle) =>
      (
        (await handle.db.execute(sql`show shared_buffers`)) as unknown as {
          rows: { shared_buffers: string }[];
        }
      ).rows[0].shared_buffers;
    expect(await show(first!)).toBe('32MB');
    await first!.db.execute(sql`create table kept (note text)`);
    await first!.db.execute(sql`insert into kept values ('written at 32MB')`);
    await first!.close();
    first = await openDatabase({ driver: 'pglite', dataDir });
    const { rows } = (await first.db.execute(sql`select note from kept`)) as unknown as {
      rows: { note: string }[];
    };
    expect(rows).toEqual([{ note: 'written at 32MB' }]);
    expect(await show(first)).toBe('32MB');
    const memory = await openDatabase({ driver: 'pglite-memory' });
    expect(await show(memory)).toBe('32MB');
    await memory.close();
  });

  it('releases the lock on close, and a new open works', async () => {
    await first!.close();
    first = null;
    expect(fs.existsSync(lockFile())).toBe(false);
    first = await openDatabase({ driver: 'pglite', dataDir });
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(String(process.pid));
    await first.close();
    first = null;
  });

  it('refuses a directory whose lock is held by another live process, naming it', async () => {
    const other = sleeper();
    try {
      fs.writeFileSync(lockFile(), String(other.pid));
      const before = listing();
      const error = await openDatabase({ driver: 'pglite', dataDir }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DataDirLockedError);
      expect((error as Error).message).toContain(`pid ${other.pid}`);
      expect((error as Error).message).toContain(dataDir);
      expect(listing()).toEqual(before);
      expect(fs.readFileSync(lockFile(), 'utf8')).toBe(String(other.pid));
    } finally {
      other.kill();
      await exited(other);
    }
  });

  it('takes over a stale lock left by a process that died', async () => {
    const dead = sleeper();
    const pid = dead.pid!;
    dead.kill();
    await exited(dead);
    fs.writeFileSync(lockFile(), String(pid));

    first = await openDatabase({ driver: 'pglite', dataDir });
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(String(process.pid));
    await first.close();
    first = null;
    expect(fs.existsSync(lockFile())).toBe(false);
  });
});

describe('reference and demo data of a started portal', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(() => t?.close());

  it('has every ISO 3166 country once, Nigeria first, the rest by English name', async () => {
    const rows = await t.portal.database.db.select().from(nationalities).orderBy(asc(nationalities.position));
    expect(rows).toHaveLength(249);
    expect(rows[0]).toMatchObject({ code: NIGERIA_CODE, name: 'Nigeria', position: 0 });
    expect(rows.map((row) => row.position)).toEqual(rows.map((_row, index) => index));

    const codes = rows.map((row) => row.code);
    expect(new Set(codes).size).toBe(249);
    for (const code of codes) expect(code).toMatch(/^[A-Z]{2}$/);
    // West Africa and a few far away, spot-checked.
    for (const code of ['GH', 'SL', 'LR', 'GM', 'CI', 'BJ', 'TG', 'SN', 'CM', 'GB', 'US', 'SS', 'AX', 'BQ']) {
      expect(codes).toContain(code);
    }
    expect(codes).not.toContain('XK'); // Kosovo has no ISO 3166-1 code.

    const others = rows.slice(1).map((row) => row.name);
    expect(others).toEqual([...others].sort((a, b) => a.localeCompare(b, 'en')));
    expect(rows.find((row) => row.code === 'GH')?.name).toBe('Ghana');
  });

  it('seeds the three demo sign-ins with their roles, the school admins at two different schools', async () => {
    const db = t.portal.database.db;
    const rows = await db
      .select({ email: users.email, role: users.role, school: users.trainingSchoolId, active: users.active })
      .from(users)
      .orderBy(asc(users.email));
    expect(rows.map(({ email, role }) => ({ email, role }))).toEqual([
      { email: 'admin@example.org', role: 'admin' },
      { email: 'school1@example.org', role: 'school_admin' },
      { email: 'school2@example.org', role: 'school_admin' },
    ]);
    expect(DEMO_SIGN_INS.map(({ email, role }) => ({ email, role }))).toEqual(
      rows.map(({ email, role }) => ({ email, role })),
    );
    expect(rows.every((row) => row.active)).toBe(true);
    const [admin, school1, school2] = rows;
    expect(admin.school).toBeNull();
    expect(school1.school).not.toBeNull();
    expect(school2.school).not.toBeNull();
    expect(school1.school).not.toBe(school2.school);
    const schools = await db.select({ id: trainingSchools.id }).from(trainingSchools);
    expect(schools.map((s) => s.id)).toEqual(expect.arrayContaining([school1.school, school2.school]));
  });

  it('seeds course headers, among them A4, A5 and B5', async () => {
    const rows = await t.portal.database.db.select({ code: courseHeaders.code }).from(courseHeaders);
    expect(rows.map((row) => row.code)).toEqual(expect.arrayContaining([...SPECIAL_COURSE_HEADERS]));
    expect(SPECIAL_COURSE_HEADERS).toEqual(['A4', 'A5', 'B5']);
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))('on PostgreSQL, without SEED_DEMO', () => {
  const serverUrl = process.env.DATABASE_URL ?? '';
  const name = `portal_start_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let url: URL;
  let dataDir: string;

  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-start-'));
    url = new URL(serverUrl);
    url.pathname = `/${name}`;
    await admin(`create database ${name}`);
  });
  afterAll(async () => {
    await admin(`drop database if exists ${name} with (force)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const start = (env: Record<string, string> = {}) =>
    startPortal(
      loadConfig({
        DATABASE_URL: url.toString(),
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        QUIET: '1',
        ...env,
      }),
    );

  it('seeds no users, but does write the nationalities', async () => {
    const portal = await start();
    try {
      expect(portal.database.driver).toBe('postgres');
      expect(portal.seeded).toBe(false);
      const db = portal.database.db;
      const [{ total: userCount }] = await db.select({ total: count() }).from(users);
      expect(userCount).toBe(0);
      const [{ total: schoolCount }] = await db.select({ total: count() }).from(trainingSchools);
      expect(schoolCount).toBe(0);
      // None of the living demo either.
      for (const table of [candidates, files, notifications, examOffences, resits]) {
        const [{ total }] = await db.select({ total: count() }).from(table);
        expect(total).toBe(0);
      }
      expect(fs.existsSync(path.join(dataDir, 'uploads'))).toBe(false);
      const [{ total: nationalityCount }] = await db.select({ total: count() }).from(nationalities);
      expect(nationalityCount).toBe(249);
      // The PGlite lock is not used: there is no data directory to guard.
      expect(fs.existsSync(path.join(dataDir, 'portal.lock'))).toBe(false);
    } finally {
      await portal.close();
    }
  });

  it('starting again with SEED_DEMO=1 seeds the demo and writes no nationality twice', async () => {
    const portal = await start({ SEED_DEMO: '1' });
    try {
      expect(portal.seeded).toBe(true);
      const db = portal.database.db;
      const [{ total: userCount }] = await db.select({ total: count() }).from(users);
      // The three sign-ins, the living demo's markers and its invited board admin.
      expect(userCount).toBe(3 + DEMO_MARKERS.length + 1);
      const invited = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, DEMO_INVITED_ADMIN.email));
      expect(invited).toHaveLength(1);
      const [{ total: nationalityCount }] = await db.select({ total: count() }).from(nationalities);
      expect(nationalityCount).toBe(249);
      const schoolAdmins = await db
        .select({ school: users.trainingSchoolId })
        .from(users)
        .where(isNotNull(users.trainingSchoolId));
      expect(new Set(schoolAdmins.map((row) => row.school)).size).toBe(2);
      // The living demo: its candidates, and their files stored as uploads are.
      const [{ total: candidateCount }] = await db.select({ total: count() }).from(candidates);
      expect(candidateCount).toBeGreaterThanOrEqual(300);
      const stored = await db.select({ key: files.key }).from(files);
      expect(stored.length).toBeGreaterThanOrEqual(candidateCount);
      expect(await portal.storage.get(stored[0].key)).not.toBeNull();
      for (const table of [notifications, examOffences, resits, scoreSheets, results]) {
        const [{ total }] = await db.select({ total: count() }).from(table);
        expect(total).toBeGreaterThan(0);
      }
    } finally {
      await portal.close();
    }
  });
});

describe('upkeep (server/portal.ts)', () => {
  const startQuietly = async () => {
    const errors: string[] = [];
    const log = { info: () => {}, error: (event: string) => void errors.push(event) };
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-upkeep-'));
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', QUIET: '1' });
    const portal = await startPortal(config, {
      log,
      database: { driver: 'pglite-memory' },
      demo: 'sign-ins',
    });
    return { portal, errors, dataDir };
  };
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('never runs after a close that came before its first run', async () => {
    const { portal, errors, dataDir } = await startQuietly();
    await portal.close();
    await wait(1300);
    expect(errors).toEqual([]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is waited for by a close that comes while it runs', async () => {
    const { portal, errors, dataDir } = await startQuietly();
    await wait(1005);
    await portal.close();
    await wait(300);
    expect(errors).toEqual([]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
