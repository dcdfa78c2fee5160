import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { randomSecret } from '../secrets';
import { PGLITE_DURABLE_PARAMS, PGLITE_EXTENSIONS, PGLITE_START_PARAMS } from '../db/client';
import { syncFolder } from '../db/durability';
import { acquireLock, DataDirLockedError, isRunning } from '../db/lock';
import { isValidKey } from '../storage/storage';
import { ArchiveError, readArchive } from './archive';
import { manifest, readControlFile, type ControlFile } from './control';
import {
  archiveSnapshot,
  FORMAT,
  FORMAT_VERSION,
  MANIFEST,
  removeStaleStaging,
  stageSnapshot,
} from './snapshot';

/**
 * `npm run backup -- FILE` and `npm run restore -- FILE` (server/backup/cli.ts runs them): one gzip'd
 * tar of the embedded database and the uploads of DATA_DIR, taken from the running portal when there
 * is one (server/backup/control.ts) and from the folder itself when none runs.
 * Every failure the operator can act on is a BackupError, whose message is the one sentence printed.
 */
export class BackupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BackupError';
  }
}

export interface BackupResult {
  file: string;
  bytes: number;
  uploads: number;
  /** Taken from the running portal (true) or from the folder at rest (false). */
  live: boolean;
}

const DATABASE_FOLDER = 'pglite';
const UPLOADS_FOLDER = 'uploads';

export async function backup(dataDir: string, file: string): Promise<BackupResult> {
  if (!fs.existsSync(path.join(dataDir, DATABASE_FOLDER))) {
    throw new BackupError(
      `There is no embedded database in DATA_DIR (${dataDir}) to back up: set DATA_DIR to the portal's data folder.`,
    );
  }
  const target = path.resolve(file);
  if (!fs.existsSync(path.dirname(target))) {
    throw new BackupError(`The folder of ${target} does not exist: make it first, or name another file.`);
  }
  // Written under another name and renamed once whole, so FILE is never half an archive.
  const partial = `${target}.${randomSecret(6)}.partial`;
  try {
    const control = readControlFile(dataDir);
    // A control file left by a portal that was killed names a process that is gone (or a port another
    // program may have taken since): the folder is then at rest.
    const fromPortal = control && isRunning(control.pid) ? await requestFromPortal(control) : null;
    let uploads: number;
    if (fromPortal) {
      uploads = fromPortal.uploads;
      await pipeline(
        fromPortal.body,
        zlib.createGzip(),
        fs.createWriteStream(partial, { mode: 0o600 }),
      ).catch((error: unknown) => {
        throw (error as NodeJS.ErrnoException).code === 'ECONNRESET' || (error as Error).message === 'aborted'
          ? new BackupError(
              'The portal stopped sending the backup midway (did it stop?); nothing was written.',
            )
          : error;
      });
    } else {
      uploads = await backupAtRest(dataDir, partial);
    }
    const handle = fs.openSync(partial, 'r');
    try {
      fs.fsyncSync(handle);
    } finally {
      fs.closeSync(handle);
    }
    fs.renameSync(partial, target);
    return { file: target, bytes: fs.statSync(target).size, uploads, live: fromPortal !== null };
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw inWords(error, target);
  }
}

/** The running portal's answer, or null when no portal answers at the control file's port. */
async function requestFromPortal(
  control: ControlFile,
): Promise<{ body: http.IncomingMessage; uploads: number } | null> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: control.port,
        path: '/backup',
        method: 'POST',
        headers: { authorization: `Bearer ${control.token}` },
      },
      (response) => {
        if (response.statusCode === 200) {
          resolve({ body: response, uploads: Number(response.headers['x-backup-uploads'] ?? 0) });
          return;
        }
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk.slice(0, 500)));
        response.on('end', () =>
          reject(
            new BackupError(
              response.statusCode === 401
                ? `The portal (pid ${control.pid}) refused the request of ${CONTROL_NOTE}`
                : `The running portal (pid ${control.pid}) could not take the snapshot: ${text.trim() || `status ${response.statusCode}`}.`,
            ),
          ),
        );
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      // A control file left by a portal that was killed: nobody listens, the folder is at rest.
      if (error.code === 'ECONNREFUSED') resolve(null);
      else reject(error);
    });
    request.end();
  });
}

const CONTROL_NOTE =
  'this command: its control file in DATA_DIR is not the one it wrote; restart the portal.';

/** No portal runs: the folder is taken (so none starts meanwhile) and copied as it is. */
async function backupAtRest(dataDir: string, partial: string): Promise<number> {
  let release: () => void;
  try {
    release = acquireLock(dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new BackupError(
        `A portal is using DATA_DIR (${dataDir}) but did not answer the backup request: restart it with this version, or stop it and back up again.`,
        { cause: error },
      );
    }
    throw error;
  }
  try {
    await removeStaleStaging(dataDir);
    const staged = await stageSnapshot(dataDir, (work) => work());
    try {
      await pipeline(
        await archiveSnapshot(staged, manifest(staged.uploads)),
        zlib.createGzip(),
        fs.createWriteStream(partial, { mode: 0o600 }),
      );
      return staged.uploads;
    } finally {
      fs.rmSync(staged.dir, { recursive: true, force: true });
    }
  } finally {
    release();
  }
}

export interface RestoreResult {
  uploads: number;
  createdAt: string;
  migrations: number;
}

/** What a fresh volume holds before anything is written to it. */
const IGNORED = new Set(['lost+found']);

export async function restore(dataDir: string, file: string): Promise<RestoreResult> {
  const source = path.resolve(file);
  if (!fs.existsSync(source) || !fs.statSync(source).isFile()) {
    throw new BackupError(`There is no backup file ${source}.`);
  }
  const existed = fs.existsSync(dataDir);
  const present = existed ? fs.readdirSync(dataDir).filter((name) => !IGNORED.has(name)) : [];
  if (present.length) {
    throw new BackupError(
      `DATA_DIR (${dataDir}) already holds data (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', ...' : ''}): restore only into a new or empty folder, so nothing is overwritten.`,
    );
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let release: () => void;
  try {
    release = acquireLock(dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) throw new BackupError(error.message, { cause: error });
    throw error;
  }
  // Unpacked beside, and moved into place only once the database has opened.
  const work = path.join(dataDir, `.restoring-${randomSecret(6)}`);
  let done = false;
  try {
    fs.mkdirSync(work, { mode: 0o700 });
    const found = await unpack(source, work);
    const migrations = await openRestored(path.join(work, DATABASE_FOLDER));
    fs.renameSync(path.join(work, DATABASE_FOLDER), path.join(dataDir, DATABASE_FOLDER));
    if (fs.existsSync(path.join(work, UPLOADS_FOLDER))) {
      fs.renameSync(path.join(work, UPLOADS_FOLDER), path.join(dataDir, UPLOADS_FOLDER));
    }
    // On disk before the command says it is done (the checkpoint of the close above included).
    await syncFolder(dataDir);
    done = true;
    return { uploads: found.uploads, createdAt: found.createdAt, migrations };
  } catch (error) {
    throw inWords(error, source);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    release();
    // A failed restore leaves the folder as it found it: empty, or not there.
    if (!done) {
      for (const name of [DATABASE_FOLDER, UPLOADS_FOLDER]) {
        fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
      }
      if (!existed) fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

class NotABackup extends Error {}

/** Unpacks the archive into `into`, checking every name: only pglite/... and uploads/<key>. */
async function unpack(source: string, into: string): Promise<{ uploads: number; createdAt: string }> {
  let described: { created_at: string; uploads: number } | null = null;
  let uploads = 0;
  let databaseFound = false;
  await pipeline(fs.createReadStream(source), zlib.createGunzip(), async (stream: AsyncIterable<Buffer>) =>
    readArchive(stream, async (entry, body) => {
      if (!described) {
        if (entry.name !== MANIFEST || entry.type !== 'file' || entry.size > 64 * 1024) {
          throw new NotABackup('it does not start with a portal backup manifest');
        }
        const chunks: Buffer[] = [];
        for await (const chunk of body) chunks.push(chunk);
        let parsed: { format?: string; version?: number; created_at?: string; uploads?: number };
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          throw new NotABackup('its manifest is not JSON');
        }
        if (parsed.format !== FORMAT) throw new NotABackup('its manifest is not a portal backup manifest');
        if (parsed.version !== FORMAT_VERSION) {
          throw new NotABackup(`it is of format version ${parsed.version}, which this portal does not read`);
        }
        described = { created_at: String(parsed.created_at), uploads: Number(parsed.uploads ?? 0) };
        return;
      }
      const parts = entry.name.split('/');
      const [top, ...rest] = parts;
      const safe = parts.every(
        (part) => part !== '' && part !== '.' && part !== '..' && !/[\\\0]/.test(part),
      );
      const key = rest.join('/');
      const allowed =
        safe &&
        (top === DATABASE_FOLDER ||
          (top === UPLOADS_FOLDER &&
            (entry.type === 'dir' ||
              isValidKey(key) ||
              (key.endsWith('.type') && isValidKey(key.slice(0, -5))))));
      if (!allowed)
        throw new NotABackup(`it holds an entry named ${JSON.stringify(entry.name.slice(0, 200))}`);
      const target = path.join(into, ...parts);
      if (entry.type === 'dir') {
        fs.mkdirSync(target, { recursive: true, mode: (entry.mode & 0o777) | 0o700 });
        return;
      }
      if (top === DATABASE_FOLDER) databaseFound = true;
      else if (!key.endsWith('.type')) uploads += 1;
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      await pipeline(body, fs.createWriteStream(target, { mode: (entry.mode & 0o777) | 0o600, flags: 'wx' }));
      fs.utimesSync(target, entry.mtime, entry.mtime);
    }),
  );
  if (!described) throw new NotABackup('it is empty');
  if (!databaseFound) throw new NotABackup('it holds no database');
  const { created_at: createdAt } = described as { created_at: string };
  return { uploads, createdAt };
}

/** Opens the restored database once (PostgreSQL's recovery runs here), answering its migration count. */
async function openRestored(dir: string): Promise<number> {
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(dir, {
      extensions: PGLITE_EXTENSIONS,
      startParams: [...PGLITE_START_PARAMS, ...PGLITE_DURABLE_PARAMS],
    });
  } catch (error) {
    throw new NotABackup(`its database does not open (${(error as Error).message})`);
  }
  try {
    const { rows } = await pglite.query<{ count: number }>(
      'select count(*)::int as count from drizzle.__drizzle_migrations',
    );
    return rows[0]?.count ?? 0;
  } catch (error) {
    throw new NotABackup(`its database is not the portal's (${(error as Error).message})`);
  } finally {
    await pglite.close();
  }
}

/** The sentence for what went wrong; anything unforeseen keeps its own message (and its stack, for DEBUG). */
function inWords(error: unknown, file: string): Error {
  if (error instanceof BackupError) return error;
  if (error instanceof NotABackup || error instanceof ArchiveError) {
    return new BackupError(`${file} is not a portal backup, or it is damaged: ${error.message}.`, {
      cause: error,
    });
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' || code === 'ERR_PADDING_1') {
    return new BackupError(
      `${file} is not a portal backup, or it is damaged: it is not gzip'd data that ends whole.`,
      {
        cause: error,
      },
    );
  }
  if (code === 'ENOSPC')
    return new BackupError(`The disk is full: ${file} could not be written whole.`, { cause: error });
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    const where = (error as NodeJS.ErrnoException).path ?? file;
    return new BackupError(`${where} may not be written or read by this user (${code}).`, { cause: error });
  }
  return error as Error;
}
