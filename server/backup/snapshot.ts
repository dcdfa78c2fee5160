import fs from 'node:fs/promises';
import path from 'node:path';
import { randomSecret } from '../secrets';
import type { Readable } from 'node:stream';
import { packArchive } from './archive';

/**
 * A snapshot of a data folder (DATA_DIR) staged beside it: the PGlite folder copied, and the uploads
 * hard-linked (or copied where links cannot be made), in a folder of its own that nothing changes
 * afterwards, so it can be archived at leisure while the portal goes on writing.
 *
 * Why it is consistent:
 * - The database: PGlite is one PostgreSQL backend in this process, and every statement runs inside its
 *   one lock (`exclusive`, PGlite's `runExclusive`). Held, nothing runs, so the folder on disk is what a
 *   crash at that instant would leave, with every committed transaction's WAL written (synchronous_commit
 *   is on): PostgreSQL's own crash recovery makes it whole again when the copy is first opened. PGlite's
 *   `dumpDataDir` (which `clone()` uses) reads the same files under the same lock; we copy them to disk
 *   instead of into memory.
 * - The uploads: a file is stored before the row that names it is committed, and removed only after a
 *   commit that stops naming it (server/storage/storage.ts, WithStorage). So the files on disk while
 *   the lock is held include every file a committed row names. They are linked in two passes: all of
 *   them before the lock (the slow part, without holding up anyone), then only the ones that appeared
 *   since, inside the lock. A file removed between the passes was let go of by a commit before the
 *   snapshot, so the snapshot does not name it. A file stored meanwhile whose row is not in the snapshot
 *   is an orphan the restored portal's sweep removes after its grace period (server/storage/sweep.ts).
 * Links cost no copy, and stay valid when the portal later removes or replaces the file: files are
 * written under a temporary name and renamed (server/storage/local.ts), never changed in place.
 */
const STAGING_PREFIX = '.backup-';

export interface Staged {
  dir: string;
  /** Uploaded files (the bytes, without their `.type` companions). */
  uploads: number;
  /** Bytes of the database folder. */
  databaseBytes: number;
  /** How long writes waited while the lock was held. */
  heldMs: number;
}

/** Snapshot folders that a backup cut short left behind. Called where no backup can be running. */
export async function removeStaleStaging(dataDir: string): Promise<void> {
  const names = await fs.readdir(dataDir).catch(() => [] as string[]);
  for (const name of names.filter((name) => name.startsWith(STAGING_PREFIX))) {
    await fs.rm(path.join(dataDir, name), { recursive: true, force: true });
  }
}

export async function stageSnapshot(
  dataDir: string,
  exclusive: <T>(work: () => Promise<T>) => Promise<T>,
): Promise<Staged> {
  const dir = path.join(dataDir, `${STAGING_PREFIX}${randomSecret(6)}`);
  await fs.mkdir(dir, { mode: 0o700 });
  try {
    const uploadsFrom = path.join(dataDir, 'uploads');
    const uploadsTo = path.join(dir, 'uploads');
    await linkTree(uploadsFrom, uploadsTo);
    let heldMs = 0;
    const databaseBytes = await exclusive(async () => {
      const started = performance.now();
      const bytes = await copyDatabase(path.join(dataDir, 'pglite'), path.join(dir, 'pglite'));
      await linkTree(uploadsFrom, uploadsTo);
      heldMs = performance.now() - started;
      return bytes;
    });
    let uploads = 0;
    for await (const file of walk(uploadsTo)) if (!file.relative.endsWith('.type')) uploads += 1;
    return { dir, uploads, databaseBytes, heldMs };
  } catch (error) {
    await fs.rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Links every finished file under `from` into `to` that is not there yet. */
async function linkTree(from: string, to: string): Promise<void> {
  for await (const { relative } of walk(from)) {
    // A write in progress (server/storage/local.ts names it so): not a file yet.
    if (relative.endsWith('.partial')) continue;
    const target = path.join(to, relative);
    if (await exists(target)) continue;
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.link(path.join(from, relative), target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue; // Removed meanwhile: see above.
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw error;
      // A file system without hard links: a copy (of a file that is never changed in place).
      await fs.copyFile(path.join(from, relative), target).catch((copyError: NodeJS.ErrnoException) => {
        if (copyError.code !== 'ENOENT') throw copyError;
      });
    }
  }
}

/** A WAL segment's file name: timeline, log and segment, 24 hex digits. */
const SEGMENT = /^[0-9A-F]{24}$/;

/**
 * Copies the PGlite folder, answering its size. Of the WAL segments, those after the newest written one
 * are left out: PostgreSQL renames old segments to future names to reuse them (up to max_wal_size, 1 GB),
 * and they hold nothing recovery reads. Leaving out one too few only makes the archive bigger; recovery
 * stops at the first segment that does not continue the log. `postmaster.pid` names this process.
 */
async function copyDatabase(from: string, to: string): Promise<number> {
  const wal = path.join(from, 'pg_wal');
  const segments = await Promise.all(
    (await fs.readdir(wal))
      .filter((name) => SEGMENT.test(name))
      .map(async (name) => ({ name, modified: (await fs.stat(path.join(wal, name))).mtimeMs })),
  );
  const newest = Math.max(...segments.map((segment) => segment.modified));
  const last = segments
    .filter((segment) => segment.modified === newest)
    .map((segment) => segment.name)
    .sort()
    .pop();
  const skip = new Set(
    segments
      .filter((segment) => last !== undefined && segment.name > last)
      .map((segment) => `pg_wal/${segment.name}`),
  );
  skip.add('postmaster.pid');
  let bytes = 0;
  await fs.mkdir(to, { mode: (await fs.stat(from)).mode & 0o777 });
  for await (const { relative, stat } of walk(from, true)) {
    if (skip.has(relative.split(path.sep).join('/'))) continue;
    const target = path.join(to, relative);
    if (stat.isDirectory()) {
      await fs.mkdir(target, { mode: stat.mode & 0o777 });
    } else {
      await fs.copyFile(path.join(from, relative), target);
      bytes += stat.size;
    }
  }
  return bytes;
}

const exists = (file: string) =>
  fs.lstat(file).then(
    () => true,
    () => false,
  );

/**
 * Every file under a folder (and, when asked, every folder, each before what it holds), with its path
 * from the root. Nothing when the folder does not exist.
 */
async function* walk(
  root: string,
  withFolders = false,
  relative = '',
): AsyncGenerator<{ relative: string; stat: import('node:fs').Stats }> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(path.join(root, relative), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const child = relative ? path.join(relative, entry.name) : entry.name;
    const stat = await fs.lstat(path.join(root, child)).catch(() => null); // Gone meanwhile.
    if (!stat) continue;
    if (stat.isDirectory()) {
      if (withFolders) yield { relative: child, stat };
      yield* walk(root, withFolders, child);
    } else if (stat.isFile()) {
      yield { relative: child, stat };
    }
  }
}

/** The staged snapshot's archive: the manifest first, then `pglite/` and `uploads/`. */
export async function archiveSnapshot(staged: Staged, manifest: object): Promise<Readable> {
  await fs.writeFile(path.join(staged.dir, MANIFEST), JSON.stringify(manifest, null, 2) + '\n', {
    mode: 0o600,
  });
  const names = [MANIFEST, 'pglite'];
  if (await exists(path.join(staged.dir, 'uploads'))) names.push('uploads');
  return packArchive(staged.dir, names);
}

/** The archive's first entry: what it is, so restore can tell a backup from any other tarball. */
export const MANIFEST = 'portal-backup.json';
export const FORMAT = 'waheb-portal-backup';
export const FORMAT_VERSION = 1;
