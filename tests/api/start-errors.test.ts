import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from './portal';
import { baseEnv, spawnPortal } from './processes';

/**
 * Issue 23, item 7: a start that fails for a reason the operator can fix says so in one sentence that
 * names the setting and what to do, exits non-zero, and shows the stack trace only with DEBUG=1. Each
 * case runs the real process (server/main.ts) against the real fault: a port another program holds, a
 * data folder on a full or a read-only file system (tmpfs mounts: the tests run as root, and root
 * ignores chmod), a PostgreSQL that refuses the user or has no such database, one that nothing answers
 * for, and a bucket that does not exist on a real S3-compatible server (s3rver).
 */

const PASSWORD = 'not-to-be-printed-4711';
const STACK = /^\s+at /m;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-start-errors-'));
const dirs: string[] = [];
const newDir = () => {
  const dir = fs.mkdtempSync(path.join(scratch, 'data-'));
  dirs.push(dir);
  return dir;
};

/** A tmpfs of its own: 1 MB (full once PGlite writes), or read-only. Null where mounting is not allowed. */
const mounted: string[] = [];
function tmpfs(options: string): string | null {
  const dir = fs.mkdtempSync(path.join(scratch, 'mount-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'ignore' });
    mounted.push(dir);
    return dir;
  } catch {
    return null;
  }
}
const full = tmpfs('size=1m');
const readOnly = tmpfs('ro,size=1m');

const drops: (() => Promise<void> | undefined)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
  for (const dir of mounted) execFileSync('umount', [dir]);
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** Starts the portal with these settings, and waits for it to give up. */
async function startFails(env: Record<string, string>, { debug = false } = {}) {
  const portal = spawnPortal({
    ...baseEnv(),
    PORT: '0',
    HOST: '127.0.0.1',
    QUIET: '1',
    DATA_DIR: env.DATA_DIR ?? newDir(),
    ...(debug ? { DEBUG: '1' } : {}),
    ...env,
  });
  const code = await portal.exited;
  return { code, output: portal.output().trim() };
}

/**
 * The sentence alone, exit code 1; with DEBUG=1 the same sentence first, then the error (its stack
 * trace, where it has one: PGlite's file errors carry only a number).
 */
async function expectSentence(env: Record<string, string>, sentence: RegExp, { stack = true } = {}) {
  const plain = await startFails(env);
  expect(plain.code).toBe(1);
  expect(plain.output).toMatch(sentence);
  expect(plain.output.split('\n')).toHaveLength(1);
  expect(plain.output).not.toMatch(STACK);
  expect(plain.output).not.toContain(PASSWORD);

  const debug = await startFails(env, { debug: true });
  expect(debug.code).toBe(1);
  expect(debug.output.split('\n')[0]).toBe(plain.output);
  expect(debug.output.split('\n').length).toBeGreaterThan(1);
  if (stack) expect(debug.output).toMatch(STACK);
  expect(debug.output).not.toContain(PASSWORD);
  return plain.output;
}

describe('a start that fails says why in one sentence', () => {
  it('a port another program holds: PORT', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      // On PostgreSQL too when given (a database of its own; no demo seed there, so the listen comes sooner).
      const postgres = process.env.DATABASE_URL
        ? await createPostgresDatabase(process.env.DATABASE_URL)
        : null;
      drops.push(() => postgres?.drop());
      const database: Record<string, string> = postgres ? { DATABASE_URL: postgres.url } : {};
      const dataDir = newDir();
      const sentence = await expectSentence(
        { PORT: String(port), DATA_DIR: dataDir, ...database },
        /^Port \d+ is already in use by another program: stop that program, or set PORT to a free port\.$/,
      );
      expect(sentence).toContain(`Port ${port} `);
      // The lock on the data folder was given back: a later start is not refused.
      expect(fs.existsSync(path.join(dataDir, 'portal.lock'))).toBe(false);
    } finally {
      holder.close();
    }
  }, 120_000);

  it.skipIf(full === null)(
    'a full data folder (a 1 MB tmpfs): DATA_DIR',
    async () => {
      await expectSentence(
        { DATA_DIR: full! },
        new RegExp(
          `^The data folder ${full} \\(DATA_DIR\\) is full: free space on its disk, or set DATA_DIR to a folder on a disk with room\\.$`,
        ),
        { stack: false },
      );
    },
    120_000,
  );

  it.skipIf(readOnly === null)(
    'a read-only data folder, or one to be made on it: DATA_DIR',
    async () => {
      for (const dir of [readOnly!, path.join(readOnly!, 'portal')]) {
        await expectSentence(
          { DATA_DIR: dir },
          new RegExp(
            `^The data folder ${dir} \\(DATA_DIR\\) cannot be written to \\(the disk is read-only, or the folder is not the portal's\\): make it writable for the user the portal runs as, or set DATA_DIR to a folder it may write\\.$`,
          ),
        );
      }
    },
    120_000,
  );

  it('a PostgreSQL that nothing answers for: DATABASE_URL, without its password', async () => {
    // A closed port: refused at once.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expectSentence(
      { DATABASE_URL: `postgres://portal:${PASSWORD}@127.0.0.1:${closedPort}/portal` },
      new RegExp(
        `^PostgreSQL at 127\\.0\\.0\\.1:${closedPort} cannot be reached \\(nothing listens there\\): check that it is running, and the host and port in DATABASE_URL\\.$`,
      ),
    );
    // A port that takes the connection and never answers (a firewall, a hung server): 10 s, not minutes.
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as net.AddressInfo).port;
    try {
      const started = performance.now();
      const { code, output } = await startFails({
        DATABASE_URL: `postgres://portal:${PASSWORD}@127.0.0.1:${silentPort}/portal`,
      });
      expect(code).toBe(1);
      expect(output).toBe(
        `PostgreSQL at 127.0.0.1:${silentPort} cannot be reached (it did not answer): check that it is running, and the host and port in DATABASE_URL.`,
      );
      expect(performance.now() - started).toBeLessThan(30_000);
    } finally {
      silent.close();
    }
  }, 120_000);

  describe.runIf(Boolean(process.env.DATABASE_URL))('on a real PostgreSQL', () => {
    const server = new URL(process.env.DATABASE_URL ?? 'postgres://x');
    const at = (user: string, database: string) => {
      const url = new URL(server);
      url.username = user;
      url.password = PASSWORD;
      url.pathname = `/${database}`;
      return url.toString();
    };

    it('a user it refuses: DATABASE_URL, without its password', async () => {
      await expectSentence(
        { DATABASE_URL: at('no_such_portal_user', 'postgres') },
        new RegExp(
          `^PostgreSQL at ${server.hostname.replace(/\./g, '\\.')}:${server.port || 5432} refused the user no_such_portal_user \\(DATABASE_URL\\): check the user name and password in DATABASE_URL, and that this user may connect to the database postgres\\.$`,
        ),
      );
    }, 120_000);

    it('a database it does not have: DATABASE_URL', async () => {
      const name = `no_such_portal_${process.pid}`;
      await expectSentence(
        { DATABASE_URL: at(server.username || 'postgres', name) },
        new RegExp(
          `^PostgreSQL at .+ has no database ${name} \\(DATABASE_URL\\): create it \\(createdb ${name}\\), or correct the database name in DATABASE_URL\\.$`,
        ),
      );
    }, 120_000);
  });

  describe('object storage', () => {
    let s3: S3rver;
    let endpoint = '';
    beforeAll(async () => {
      const dir = newDir();
      s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir });
      const { port } = await s3.run();
      endpoint = `http://127.0.0.1:${port}`;
    });
    afterAll(() => s3?.close());

    it('a bucket that does not exist: S3_BUCKET', async () => {
      await expectSentence(
        {
          // One data folder for both starts: migrated once (the bucket is checked after the migrations).
          DATA_DIR: newDir(),
          S3_BUCKET: 'no-such-bucket',
          S3_ENDPOINT: endpoint,
          S3_ACCESS_KEY_ID: 'S3RVER',
          S3_SECRET_ACCESS_KEY: PASSWORD,
          // The SDK's notice that its releases after January 2027 need Node 22 (docs/decisions.md).
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        },
        new RegExp(
          `^The bucket no-such-bucket \\(S3_BUCKET\\) does not exist at ${endpoint.replace(/\./g, '\\.')}: create it first \\(the portal never creates buckets\\), or correct S3_BUCKET\\.$`,
        ),
      );
    }, 120_000);
  });
});
