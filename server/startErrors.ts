import path from 'node:path';
import type { Config } from './config';
import { ConfigError } from './config';
import { DataDirLockedError } from './db/lock';
import { S3StorageError } from './storage/s3';

/**
 * What stops a start, in words an operator can act on: one sentence that names the setting (PORT,
 * HOST, DATA_DIR, DATABASE_URL, S3_...) and what to do. Null for anything else: a fault of the portal's
 * own, whose stack trace is what a report needs. Never the DATABASE_URL's password: a database is
 * named by its user, host, port and name only.
 */
export function describeStartError(error: unknown, config: Config | null): string | null {
  if (
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    error instanceof S3StorageError
  ) {
    return error.message;
  }
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const sentence = describeOne(current as Failure, config);
    if (sentence) return sentence;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** DEBUG=1 (or true, yes): the stack trace too, after the sentence. */
export function wantsDebug(env: Record<string, string | undefined> = process.env): boolean {
  return ['1', 'true', 'yes'].includes((env.DEBUG ?? '').trim().toLowerCase());
}

/** What Node's, pg's and PGlite's errors carry that tells them apart. */
interface Failure {
  name?: string;
  message?: string;
  code?: string;
  /** Node: a negative number; PGlite's file system (Emscripten): a positive one of its own. */
  errno?: number;
  syscall?: string;
  path?: string;
  port?: number;
}

/** Emscripten's numbers for the file errors PGlite's file system reports (errno only, no code). */
const PGLITE_ERRNO: Record<number, string> = {
  2: 'EACCES',
  19: 'EDQUOT',
  29: 'EIO',
  51: 'ENOSPC',
  63: 'EPERM',
  69: 'EROFS',
};

const NOT_WRITABLE = new Set(['EROFS', 'EACCES', 'EPERM']);
const FULL = new Set(['ENOSPC', 'EDQUOT']);
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
]);

function describeOne(error: Failure, config: Config | null): string | null {
  if (!config) return null;
  const code = error.name === 'ErrnoError' && error.errno ? PGLITE_ERRNO[error.errno] : error.code;

  if (error.syscall === 'listen') {
    const port = error.port ?? config.port;
    if (code === 'EADDRINUSE') {
      return `Port ${port} is already in use by another program: stop that program, or set PORT to a free port.`;
    }
    if (code === 'EACCES') {
      return `Port ${port} may only be used by an administrator on this machine: set PORT to 1024 or above (a proxy in front can answer on 80 or 443).`;
    }
    if (code === 'EADDRNOTAVAIL') {
      return `HOST ${config.host} is not an address of this machine: set HOST to one of its addresses, or unset it to listen on all of them.`;
    }
  }

  // The data folder: Node's file errors under it, and PGlite's (PGlite keeps its files in DATA_DIR/pglite).
  const inDataDir =
    (error.path !== undefined && isWithin(error.path, config.dataDir)) ||
    (error.name === 'ErrnoError' && config.databaseUrl === null);
  if (inDataDir && code) {
    const folder = `The data folder ${config.dataDir} (DATA_DIR)`;
    if (FULL.has(code)) {
      return `${folder} is full: free space on its disk, or set DATA_DIR to a folder on a disk with room.`;
    }
    if (NOT_WRITABLE.has(code) || (code === 'ENOENT' && error.syscall === 'mkdir')) {
      return `${folder} cannot be written to (the disk is read-only, or the folder is not the portal's): make it writable for the user the portal runs as, or set DATA_DIR to a folder it may write.`;
    }
    if (code === 'EIO') {
      return `${folder} could not be read or written (an input/output error of its disk): check the disk, or set DATA_DIR to a folder on another.`;
    }
  }

  if (config.databaseUrl) {
    const db = describeDatabase(config.databaseUrl);
    // PostgreSQL's own refusals (SQLSTATE), then the network's.
    if (code === '28P01' || code === '28000') {
      return `PostgreSQL at ${db.server} refused the user ${db.user} (DATABASE_URL): check the user name and password in DATABASE_URL, and that this user may connect to the database ${db.name}.`;
    }
    if (code === '3D000') {
      return `PostgreSQL at ${db.server} has no database ${db.name} (DATABASE_URL): create it (createdb ${db.name}), or correct the database name in DATABASE_URL.`;
    }
    if (code === '42501') {
      return `The user ${db.user} may not create tables in the database ${db.name} (DATABASE_URL): make that user the database's owner, or connect as the owner.`;
    }
    if (
      (code && UNREACHABLE.has(code)) ||
      /connection timeout|timeout expired|Connection terminated/i.test(error.message ?? '')
    ) {
      const why =
        code === 'ECONNREFUSED'
          ? 'nothing listens there'
          : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
            ? 'its host name is not known'
            : 'it did not answer';
      return `PostgreSQL at ${db.server} cannot be reached (${why}): check that it is running, and the host and port in DATABASE_URL.`;
    }
  }
  return null;
}

function isWithin(file: string, dir: string): boolean {
  const relative = path.relative(dir, path.resolve(file));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The parts of DATABASE_URL a sentence may show: never its password. */
function describeDatabase(url: string): { server: string; user: string; name: string } {
  try {
    const parsed = new URL(url);
    return {
      server: `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`,
      user: decodeURIComponent(parsed.username) || '(none given)',
      name: decodeURIComponent(parsed.pathname.slice(1)) || '(none given)',
    };
  } catch {
    return { server: '(the server)', user: '(the user)', name: '(the database)' };
  }
}
