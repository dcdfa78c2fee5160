import { timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import { verifyChain, type PrintedHead } from '../auditChain';
import type { Database } from '../db/client';
import { randomSecret } from '../secrets';
import { syncFolder } from '../db/durability';
import { describeError, type Logger } from '../log';
import { archiveSnapshot, FORMAT, FORMAT_VERSION, removeStaleStaging, stageSnapshot } from './snapshot';

/**
 * How `npm run backup` reaches the database of a running portal, whose data folder is locked
 * (server/db/lock.ts) and whose PGlite only this process can open: the portal listens on the loopback
 * address, on a port the system picks, and writes the port with a random token into DATA_DIR/control.json,
 * readable by its own user only (0600). Whoever can read that file can read the whole database folder
 * anyway; nobody else can reach the listener, and a request without the token is refused. The answer is
 * the uncompressed archive (the backup command compresses it, so the portal spends no CPU on it).
 */
const CONTROL_FILE = 'control.json';

export interface ControlFile {
  pid: number;
  port: number;
  token: string;
}

export interface Control {
  close(): Promise<void>;
}

export async function startControl(options: {
  dataDir: string;
  pglite: PGlite;
  /** The same database through Drizzle, for `npm run audit:verify` (server/auditVerify.ts). */
  db: Database;
  log: Logger;
}): Promise<Control> {
  const { dataDir, pglite, db, log } = options;
  await removeStaleStaging(dataDir);
  const token = randomSecret(32);
  const expected = Buffer.from(`Bearer ${token}`);
  const server = http.createServer((request, response) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      response.writeHead(401).end();
      return;
    }
    if (request.method === 'POST' && request.url === '/audit-verify') {
      void answerAuditVerify(request, response, db).catch((error: unknown) => {
        log.error('audit.verify_failed', describeError(error));
        if (!response.headersSent)
          response.writeHead(500, { 'content-type': 'text/plain' }).end((error as Error).message);
        else response.destroy();
      });
      return;
    }
    if (request.method !== 'POST' || request.url !== '/backup') {
      response.writeHead(404).end();
      return;
    }
    void answerBackup(response).catch((error: unknown) => {
      log.error('backup.failed', describeError(error));
      if (!response.headersSent)
        response.writeHead(500, { 'content-type': 'text/plain' }).end((error as Error).message);
      else response.destroy();
    });
  });

  const answerBackup = async (response: http.ServerResponse) => {
    // A checkpoint first, so the copy holds little WAL to replay when it is restored; and since the WAL
    // before it is let go of, the data files it wrote are synced at once.
    await pglite.exec('CHECKPOINT');
    await syncFolder(path.join(dataDir, 'pglite'));
    const staged = await stageSnapshot(dataDir, (work) => pglite.runExclusive(work));
    try {
      log.info('backup.snapshot', {
        uploads: staged.uploads,
        database_bytes: staged.databaseBytes,
        held_ms: Math.round(staged.heldMs),
      });
      response.writeHead(200, {
        'content-type': 'application/x-tar',
        'x-backup-uploads': String(staged.uploads),
        'x-backup-database-bytes': String(staged.databaseBytes),
      });
      await pipeline(await archiveSnapshot(staged, manifest(staged.uploads)), response);
    } finally {
      await fs.promises.rm(staged.dir, { recursive: true, force: true });
    }
  };

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
  const file = path.join(dataDir, CONTROL_FILE);
  // Written under another name and renamed, so the file is 0600 from its first byte whatever was there.
  const partial = `${file}.${randomSecret(6)}.partial`;
  fs.writeFileSync(partial, JSON.stringify({ pid: process.pid, port, token } satisfies ControlFile), {
    mode: 0o600,
  });
  fs.renameSync(partial, file);
  return {
    async close() {
      try {
        const current = JSON.parse(fs.readFileSync(file, 'utf8')) as ControlFile;
        if (current.token === token) fs.unlinkSync(file);
      } catch {
        // Already gone.
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * `npm run audit:verify` on the embedded database of a running portal: the check runs here, in the
 * process that holds PGlite, and its answer (contract/auditChain.ts) goes back as JSON. The body may
 * name a printed head, `{ "id": …, "hash": … }`.
 */
async function answerAuditVerify(request: http.IncomingMessage, response: http.ServerResponse, db: Database) {
  let body = '';
  for await (const chunk of request) {
    body += chunk;
    if (body.length > 1000) {
      response.writeHead(413).end();
      return;
    }
  }
  const printed = body ? (JSON.parse(body) as PrintedHead) : undefined;
  const result = await verifyChain(db, printed);
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
}

export function manifest(uploads: number) {
  return { format: FORMAT, version: FORMAT_VERSION, created_at: new Date().toISOString(), uploads };
}

/** The running portal's control file, or null when there is none (or it cannot be read as one). */
export function readControlFile(dataDir: string): ControlFile | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(dataDir, CONTROL_FILE), 'utf8')) as ControlFile;
    return Number.isInteger(parsed.port) && typeof parsed.token === 'string' ? parsed : null;
  } catch {
    return null;
  }
}
