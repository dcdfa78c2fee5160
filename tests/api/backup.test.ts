import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { startCheckpoints } from '../../server/db/durability';
import { auditLog, files } from '../../server/db/schema';
import { DEMO_PASSWORD } from '../../server/demo';
import { ArchiveError, packArchive, readArchive, type ArchiveEntry } from '../../server/backup/archive';
import { PNG, profileForm } from './fixtures';

/**
 * Issue 23, item 8: `npm run backup` while the portal runs and users write, then `npm run restore` into
 * a fresh folder and a portal started on it. Everything is real: the portal and both commands are
 * processes of their own, the writes are profile updates over HTTP (audited, and every other one stores
 * a photo and removes the one it replaces), and the restored data is read by a portal and its database.
 * Backup concerns the embedded database, so this runs on PGlite whatever DATABASE_URL says.
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-backup-'));
const liveDir = path.join(root, 'live');
const restoredDir = path.join(root, 'restored');
const archive = path.join(root, 'portal.tar.gz');
const atRest = path.join(root, 'at-rest.tar.gz');
const atRestDir = path.join(root, 'restored-at-rest');
const running: ChildProcess[] = [];

const env = (dataDir: string) => {
  const vars: Record<string, string> = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
  } as never;
  delete vars.DATABASE_URL;
  delete vars.QUIET;
  delete vars.DEBUG;
  return vars;
};

interface Started {
  url: string;
  child: ChildProcess;
  log: () => string;
}

async function startPortalProcess(dataDir: string): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env: env(dataDir) });
  running.push(child);
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const found = /running at (http:\/\/\S+)/.exec(log)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`the portal stopped (${code}):\n${log}`)));
  });
  return { url, child, log: () => log };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** `npm run <script> -- FILE` as an operator types it, with its exit code and what it printed. */
async function npmRun(script: 'backup' | 'restore', file: string, dataDir: string) {
  const child = spawn('npm', ['run', '--silent', script, '--', file], { env: env(dataDir) });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout: stdout.trim(), stderr: stderr.trim() };
}

async function signIn(url: string, dataDir: string, email: string): Promise<string> {
  const post = async (route: string, body: unknown) => {
    const response = await fetch(url + route, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return ((await response.json()) as { data: Record<string, string> }).data;
  };
  const { login_id } = await post('/api/auth/login', { email, password: DEMO_PASSWORD });
  const mail = path.join(dataDir, 'mail');
  const newest = fs
    .readdirSync(mail)
    .filter((name) => name.endsWith(`-${email}.eml`))
    .sort()
    .pop()!;
  const code = /^Subject: Your sign-in code: (\d{6})$/m.exec(
    fs.readFileSync(path.join(mail, newest), 'utf8'),
  )![1];
  return (await post('/api/auth/confirm-code', { login_id, code })).access_token;
}

const ADMIN = 'admin@example.org';
const SCHOOL = 'school1@example.org';
const ROUTES = {
  [ADMIN]: {
    update: '/api/admin/user-profile-update',
    read: '/api/admin/user-profile-information',
    method: 'PUT',
  },
  [SCHOOL]: {
    update: '/api/training-school-admin/update-user-training-school-profile',
    read: '/api/training-school-admin/user-profile-information',
    method: 'POST',
  },
};

/** A PNG that says which write sent it (file-type finds PNG by its first bytes; the rest is ours). */
/** The profile names a restored database's audit log holds: the writes that reached it. */
async function savedNames(database: DatabaseHandle): Promise<Set<string>> {
  const audited = await database.db
    .select({ after: auditLog.after })
    .from(auditLog)
    .where(eq(auditLog.action, 'user.profile_updated'));
  return new Set(audited.map((row) => (row.after as { name: string }).name));
}

const photoOf = (name: string) => new Uint8Array(Buffer.concat([PNG, Buffer.from(`\n${name}\n`)]));

interface Write {
  name: string;
  sentAt: number;
  ackedAt: number | null;
  photo: boolean;
}

afterAll(async () => {
  await Promise.all(running.map(stop));
  fs.rmSync(root, { recursive: true, force: true });
});

describe('backup while users write, and restore into a fresh folder', () => {
  const writes: Write[] = [];
  let backupStartedAt = 0;
  let backupEndedAt = 0;
  let live: Started;

  beforeAll(async () => {
    live = await startPortalProcess(liveDir);
  }, 120_000);

  it('takes the backup from the running portal while two users keep saving their profiles', async () => {
    const tokens = {
      [ADMIN]: await signIn(live.url, liveDir, ADMIN),
      [SCHOOL]: await signIn(live.url, liveDir, SCHOOL),
    };
    let writing = true;
    const writer = async (email: typeof ADMIN | typeof SCHOOL) => {
      for (let i = 0; writing; i++) {
        const name = `${email === ADMIN ? 'Admin' : 'School'} write ${i}`;
        const photo = i % 2 === 0;
        const write: Write = { name, sentAt: Date.now(), ackedAt: null, photo };
        writes.push(write);
        const form = profileForm(
          { _method: ROUTES[email].method, name, email, phone_number: '' },
          photo ? { bytes: photoOf(name) } : undefined,
        );
        const response = await fetch(live.url + ROUTES[email].update, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens[email]}` },
          body: form,
        });
        await response.arrayBuffer();
        if (response.status === 200) write.ackedAt = Date.now();
        // A user's pace, not a flood: the machine is shared with the backup command.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const writers = [writer(ADMIN), writer(SCHOOL)];
    await expect.poll(() => writes.filter((w) => w.ackedAt).length, { timeout: 30_000 }).toBeGreaterThan(20);

    backupStartedAt = Date.now();
    const result = await npmRun('backup', archive, liveDir);
    backupEndedAt = Date.now();
    // Some writes after the backup, which the restored data must not hold.
    const after = writes.length;
    await expect
      .poll(() => writes.slice(after).filter((w) => w.ackedAt).length, { timeout: 30_000 })
      .toBeGreaterThan(3);
    writing = false;
    await Promise.all(writers);

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(
        `^Backed up the database and \\d+ uploaded files of ${liveDir} from the running portal into ${archive} \\([\\d.]+ MB\\)\\.$`,
      ),
    );
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
    // Writes went on during the backup: the portal was not stopped or held up for its length.
    expect(writes.some((w) => w.ackedAt && w.sentAt > backupStartedAt && w.ackedAt < backupEndedAt)).toBe(
      true,
    );
    const snapshot = /"event":"backup.snapshot".*"held_ms":(\d+)/.exec(live.log());
    expect(snapshot).not.toBeNull();
    console.log(
      `backup: ${writes.filter((w) => w.ackedAt).length} writes acknowledged, ${writes.filter((w) => w.ackedAt && w.ackedAt < backupStartedAt).length} before the backup began; ` +
        `writes held for ${snapshot![1]} ms; the command took ${backupEndedAt - backupStartedAt} ms; ${fs.statSync(archive).size} bytes`,
    );
    // Nothing of the backup is left in the data folder.
    expect(fs.readdirSync(liveDir).filter((name) => name.startsWith('.backup-'))).toEqual([]);
    // Killed, not stopped: its control file and lock stay behind, as after a crash.
    const killed = new Promise((resolve) => live.child.once('exit', resolve));
    live.child.kill('SIGKILL');
    await killed;
    expect(fs.existsSync(path.join(liveDir, 'control.json'))).toBe(true);
  }, 180_000);

  it('backs up a folder no portal runs on (here one a crash left) from its files, with every acknowledged write', async () => {
    const result = await npmRun('backup', atRest, liveDir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ \(no portal was running\) into .+ \([\d.]+ MB\)\.$/);
    const restored = await npmRun('restore', atRest, atRestDir);
    expect(restored.code).toBe(0);
    const database = await openDatabase({ driver: 'pglite', dataDir: atRestDir });
    try {
      const names = await savedNames(database);
      expect(writes.filter((w) => w.ackedAt !== null && !names.has(w.name))).toEqual([]);
    } finally {
      await database.close();
    }
  }, 120_000);

  it('restores into a fresh folder, and a portal on it holds every write acknowledged before the backup', async () => {
    const result = await npmRun('restore', archive, restoredDir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(
        `^Restored the database of \\S+ \\(\\d+ migrations\\) and \\d+ uploaded files into ${restoredDir}: start the portal with this DATA_DIR\\.$`,
      ),
    );

    const restored = await startPortalProcess(restoredDir);
    const photos: Record<string, string> = {};
    for (const email of [ADMIN, SCHOOL] as const) {
      const token = await signIn(restored.url, restoredDir, email);
      const response = await fetch(restored.url + ROUTES[email].read, {
        headers: { authorization: `Bearer ${token}` },
      });
      const { name, photo } = ((await response.json()) as { data: { name: string; photo: string } }).data;
      // The profile is one the user saved before the backup ended, and its photo serves.
      const write = writes.find((w) => w.name === name)!;
      expect(write.sentAt).toBeLessThan(backupEndedAt);
      const served = await fetch(restored.url + photo, { headers: { authorization: `Bearer ${token}` } });
      expect(served.status).toBe(200);
      photos[email] = Buffer.from(await served.arrayBuffer()).toString('latin1');
      const latestWithPhoto = writes
        .filter((w) => w.photo && w.name.startsWith(name.split(' ')[0]) && w.sentAt <= write.sentAt)
        .pop()!;
      expect(photos[email]).toContain(`\n${latestWithPhoto.name}\n`);
    }
    await stop(restored.child);

    const database = await openDatabase({ driver: 'pglite', dataDir: restoredDir });
    try {
      const names = await savedNames(database);
      const acknowledgedBefore = writes.filter((w) => w.ackedAt !== null && w.ackedAt < backupStartedAt);
      expect(acknowledgedBefore.length).toBeGreaterThan(10);
      expect(acknowledgedBefore.filter((w) => !names.has(w.name))).toEqual([]);
      // A snapshot, not a copy made later: writes sent after the backup ended are not in it.
      const sentAfter = writes.filter((w) => w.sentAt > backupEndedAt);
      expect(sentAfter.length).toBeGreaterThan(0);
      expect(sentAfter.filter((w) => names.has(w.name))).toEqual([]);
      // Every file the restored database names is in the restored uploads.
      const named = await database.db.select({ key: files.key }).from(files);
      expect(named.length).toBeGreaterThan(0);
      expect(named.filter(({ key }) => !fs.existsSync(path.join(restoredDir, 'uploads', key)))).toEqual([]);
    } finally {
      await database.close();
    }
  }, 180_000);

  it('refuses to restore into a folder that holds data, in one sentence, touching nothing', async () => {
    const before = fs.readdirSync(restoredDir).sort();
    const result = await npmRun('restore', archive, restoredDir);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `DATA_DIR (${restoredDir}) already holds data (${before.join(', ')}): restore only into a new or empty folder, so nothing is overwritten.`,
    );
    expect(fs.readdirSync(restoredDir).sort()).toEqual(before);
  }, 60_000);

  it('says in one sentence that a damaged archive is damaged, and leaves no folder behind', async () => {
    const damaged = path.join(root, 'damaged.tar.gz');
    const whole = fs.readFileSync(archive);
    fs.writeFileSync(damaged, whole.subarray(0, Math.floor(whole.length / 2)));
    const target = path.join(root, 'from-damaged');
    const result = await npmRun('restore', damaged, target);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `${damaged} is not a portal backup, or it is damaged: it is not gzip'd data that ends whole.`,
    );
    expect(fs.existsSync(target)).toBe(false);

    // Bytes changed in the middle: gzip's checksum or the archive's own headers catch it.
    const flipped = Buffer.from(whole);
    for (let i = Math.floor(flipped.length / 3); i < flipped.length / 3 + 64; i++) flipped[i] ^= 0xff;
    fs.writeFileSync(damaged, flipped);
    const second = await npmRun('restore', damaged, target);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      new RegExp(`^${damaged} is not a portal backup, or it is damaged: [^\\n]+\\.$`),
    );
    expect(second.stderr).not.toMatch(/\n|\s+at /);
    expect(fs.existsSync(target)).toBe(false);
  }, 60_000);
});

describe('the archive (server/backup/archive.ts, node-tar)', () => {
  const collect = async (chunks: AsyncIterable<Buffer>) => {
    const all: Buffer[] = [];
    for await (const chunk of chunks) all.push(chunk);
    return Buffer.concat(all);
  };
  async function* stream(...chunks: Buffer[]) {
    yield* chunks;
  }
  const read = async (...chunks: Buffer[]) => {
    const entries: { entry: ArchiveEntry; bytes: Buffer }[] = [];
    let busy = false;
    await readArchive(stream(...chunks), async (entry, body) => {
      // One entry at a time, each handled whole before the next (restore relies on it).
      expect(busy).toBe(false);
      busy = true;
      const bytes = await collect(body);
      await new Promise((resolve) => setTimeout(resolve, 5));
      entries.push({ entry, bytes });
      busy = false;
    });
    return entries;
  };

  it('reads back what it wrote: folders, an empty file, long names, modes and times; refuses a damaged or cut archive in words', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'archive-'));
    const long = `uploads/${'a'.repeat(120)}/${'b'.repeat(90)}.png`;
    // Past ustar's 255 characters: node-tar writes a pax header.
    const longer = `uploads/${'c'.repeat(150)}/${'d'.repeat(150)}.png`;
    const written = [
      { name: 'pglite', type: 'dir', mode: 0o700, mtime: 1_700_000_000, bytes: null },
      { name: 'pglite/empty', type: 'file', mode: 0o600, mtime: 1_700_000_001, bytes: Buffer.alloc(0) },
      { name: 'uploads', type: 'dir', mode: 0o700, mtime: 1_700_000_002, bytes: null },
      { name: path.posix.dirname(long), type: 'dir', mode: 0o755, mtime: 1_700_000_002, bytes: null },
      { name: long, type: 'file', mode: 0o644, mtime: 1_700_000_003, bytes: Buffer.alloc(513, 7) },
      { name: path.posix.dirname(longer), type: 'dir', mode: 0o755, mtime: 1_700_000_003, bytes: null },
      { name: longer, type: 'file', mode: 0o600, mtime: 1_700_000_004, bytes: Buffer.alloc(1, 8) },
    ] as const;
    for (const item of written) {
      const file = path.join(dir, item.name);
      if (item.bytes) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, item.bytes, { mode: item.mode });
      } else fs.mkdirSync(file, { recursive: true, mode: item.mode });
    }
    // Times last, deepest first, so writing into a folder does not change its time afterwards.
    for (const item of [...written].reverse())
      fs.utimesSync(path.join(dir, item.name), item.mtime, item.mtime);
    const packed = await collect(packArchive(dir, ['pglite', 'uploads']));
    expect(packed.length % 512).toBe(0);

    const entries = await read(packed.subarray(0, 700), packed.subarray(700));
    const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : 1);
    expect(entries.map(({ entry }) => entry).sort(byName)).toEqual(
      written
        // A folder's time is left out of a portable archive (restore does not keep it either).
        .map(({ name, type, mode, mtime, bytes }) => ({
          name,
          type,
          mode,
          mtime: type === 'dir' ? 0 : mtime,
          size: bytes?.length ?? 0,
        }))
        .sort(byName),
    );
    expect(entries.find(({ entry }) => entry.name === long)?.bytes).toEqual(Buffer.alloc(513, 7));
    expect(entries.find(({ entry }) => entry.name === longer)?.bytes).toEqual(Buffer.alloc(1, 8));

    // One changed byte in a header is caught by its checksum.
    const damaged = Buffer.from(packed);
    damaged[3] ^= 1;
    await expect(read(damaged)).rejects.toThrow(
      new ArchiveError('a header is damaged (its checksum is wrong)'),
    );
    // An archive cut short says so, whether it ends inside an entry or between two.
    await expect(read(packed.subarray(0, 1100))).rejects.toThrow(new ArchiveError('the archive ends midway'));
    await expect(read(packed.subarray(0, 1024))).rejects.toThrow(new ArchiveError('the archive ends midway'));
    await expect(read(Buffer.from('not an archive at all'))).rejects.toBeInstanceOf(ArchiveError);
    // An archive left midway (the backup command went away) closes the files node-tar had opened.
    const big = path.join(dir, 'pglite', 'big');
    for (let i = 0; i < 6; i++) fs.writeFileSync(`${big}-${i}`, Buffer.alloc(4 << 20, i));
    const openFiles = () => fs.readdirSync('/proc/self/fd').length;
    const before = openFiles();
    let got = 0;
    for await (const chunk of packArchive(dir, ['pglite']))
      if ((got += (chunk as Buffer).length) > 1 << 20) break;
    for (let i = 0; i < 40 && openFiles() > before; i++) await new Promise((r) => setTimeout(r, 50));
    expect(openFiles()).toBe(before);

    // What `onEntry` refuses stops the reading, and is what the caller gets.
    await expect(
      readArchive(stream(packed), async (entry) => {
        if (entry.name === long) throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
  });
});

describe('durability of the embedded database (server/db/client.ts, server/db/durability.ts)', () => {
  const dataDir = path.join(root, 'durability');
  const setting = async (database: DatabaseHandle, name: string) =>
    (
      (await database.db.execute(sql.raw(`select current_setting('${name}') as value`))) as unknown as {
        rows: { value: string }[];
      }
    ).rows[0].value;

  it('commits on disk with fsync on and the WAL opened O_DSYNC; a database in memory keeps PGlite’s own settings', async () => {
    const onDisk = await openDatabase({ driver: 'pglite', dataDir });
    try {
      expect(await setting(onDisk, 'fsync')).toBe('on');
      expect(await setting(onDisk, 'wal_sync_method')).toBe('open_datasync');
      expect(await setting(onDisk, 'synchronous_commit')).toBe('on');
    } finally {
      await onDisk.close();
    }
    const memory = await openDatabase({ driver: 'pglite-memory' });
    try {
      expect(await setting(memory, 'fsync')).toBe('off');
    } finally {
      await memory.close();
    }
  });

  it('makes checkpoints of its own on a timer, and a stop waits for the one in progress', async () => {
    const database = await openDatabase({ driver: 'pglite', dataDir });
    const redo = async () =>
      (
        (await database.db.execute(
          sql`select redo_lsn::text as lsn from pg_control_checkpoint()`,
        )) as unknown as {
          rows: { lsn: string }[];
        }
      ).rows[0].lsn;
    try {
      await database.db.execute(sql`create table if not exists written (n int)`);
      await database.db.execute(sql`insert into written values (1)`);
      const before = await redo();
      const checkpoints = startCheckpoints({
        pglite: database.pglite!,
        dir: path.join(dataDir, 'pglite'),
        log: { error: (event) => expect.fail(event) },
        everyMs: 100,
      });
      await expect.poll(redo, { timeout: 10_000 }).not.toBe(before);
      await checkpoints.stop();
    } finally {
      await database.close();
    }
  });
});
