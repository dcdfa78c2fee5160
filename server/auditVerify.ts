/**
 * `npm run audit:verify [-- --printed ID:HASH]`: checks the audit log's hash chain (server/auditChain.ts)
 * of the database the portal would use (DATABASE_URL, or the PGlite folder under DATA_DIR) and prints
 * one sentence: the log is whole, or the first problem. Exits 1 on a problem or an error. A portal
 * running on the PGlite folder holds it, so the check is then asked of that portal through its control
 * listener (server/backup/control.ts), as `npm run backup` does; with `--printed`, the chain must still
 * pass through the printed head's entry with the printed hash.
 */
import http from 'node:http';
import type { AuditChainVerification } from '../contract/auditChain';
import { verifyChain, type PrintedHead } from './auditChain';
import { readControlFile } from './backup/control';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { DataDirLockedError, isRunning } from './db/lock';
import { wantsDebug } from './startErrors';

class VerifyError extends Error {}

function printedOf(args: string[]): PrintedHead | undefined {
  if (!args.length) return undefined;
  const match =
    args.length === 2 && args[0] === '--printed' ? /^(\d{1,15}):([0-9a-fA-F]{64})$/.exec(args[1]) : null;
  if (!match) {
    throw new VerifyError(
      'Give nothing, or a printed head as --printed ID:HASH (the entry number and its 64-character hash, as printed).',
    );
  }
  return { id: Number(match[1]), hash: match[2].toLowerCase() };
}

/** The running portal's check, or null when no portal answers at the control file's port. */
function askPortal(
  port: number,
  token: string,
  printed?: PrintedHead,
): Promise<AuditChainVerification | null> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/audit-verify',
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          if (response.statusCode === 200) resolve(JSON.parse(body) as AuditChainVerification);
          else
            reject(
              new VerifyError(`The running portal could not check the log (${response.statusCode}): ${body}`),
            );
        });
        response.on('error', reject);
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNREFUSED' ? resolve(null) : reject(error),
    );
    request.end(printed ? JSON.stringify(printed) : '');
  });
}

async function main(): Promise<AuditChainVerification> {
  const printed = printedOf(process.argv.slice(2));
  const config = loadConfig();
  if (!config.databaseUrl) {
    const control = readControlFile(config.dataDir);
    const answer =
      control && isRunning(control.pid) ? await askPortal(control.port, control.token, printed) : null;
    if (answer) return answer;
  }
  const handle = await openDatabase(
    config.databaseUrl
      ? { driver: 'postgres', url: config.databaseUrl, poolSize: 1 }
      : { driver: 'pglite', dataDir: config.dataDir },
  ).catch((error: unknown) => {
    throw error instanceof DataDirLockedError
      ? new VerifyError(
          `${config.dataDir} is in use by another process, which is not a portal answering: try again.`,
        )
      : error;
  });
  try {
    const state = await handle.migrationState();
    if (!state.current) {
      throw new VerifyError(
        `The database has ${state.applied} of ${state.expected} migrations: start the portal once to bring it up to date, then check the log.`,
      );
    }
    return await verifyChain(handle.db, printed);
  } finally {
    await handle.close();
  }
}

main().then(
  (result) => {
    const head = result.head;
    const line = `Chain head: ${head.entries} entries, last entry ${head.id ?? 'none'} at ${head.at ?? '-'}, hash ${head.hash}.`;
    if (result.ok) {
      console.log(`${result.message} (${result.seconds} s)\n${line}`);
    } else {
      console.error(`${result.message}\n${line}`);
      process.exitCode = 1;
    }
  },
  (error: unknown) => {
    const known = error instanceof VerifyError || error instanceof ConfigError;
    console.error(
      known ? (error as Error).message : `The check failed: ${(error as Error)?.message ?? error}`,
    );
    if (wantsDebug()) console.error(error);
    process.exitCode = 1;
  },
);
