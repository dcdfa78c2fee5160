/**
 * Issue 28 item 6: the CSV export beside PostgreSQL's own COPY of the same rows. The board admin's
 * Indexed Candidates as CSV (`?format=csv`, every candidate, newest first) downloaded over HTTP, and
 * `COPY (<the same select, joins and order>) TO STDOUT (FORMAT csv, HEADER)` run by psql, each read to
 * its end, interleaved in one run (the order alternates each round), so the machine's load falls on
 * both alike. The figure is COPY's time over the export's: 0.5 means the export runs at half COPY's
 * speed. While the export runs, the portal's resident memory is read every 50 ms (its peak, and its
 * level before); a filtered export of about a tenth of the rows (`BENCH_EXPORT_SMALL`, a year) is read
 * too, for memory at two sizes. The export's bytes are hashed (sha-256), so a change of its path can
 * be checked against the bytes before.
 *
 * `npx tsx scripts/bench-export.ts`: seeds BENCH_CANDIDATES (1,000,000 by default) into a database of
 * its own and drops it after; BENCH_KEEP_DATABASE names one to keep between runs (seeded once, reused).
 * BENCH_ROUNDS (3) rounds; BENCH_PORTAL_NODE_ARGS as bench-candidates' (e.g. --cpu-prof).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { desc } from 'drizzle-orm';
import pg from 'pg';
import { CANDIDATES_LIST } from '../contract/lists';
import { selectRows } from '../server/candidates/records';
import { openDatabase } from '../server/db/client';
import { candidates } from '../server/db/schema';
import { ADMIN, createBenchDatabase, seedDatabase, signIn, startServer } from './bench-candidates';

interface Read {
  seconds: number;
  bytes: number;
  lines: number;
  sha: string;
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The portal's resident memory in MB (/proc), or null where there is no /proc. */
function rssMb(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status);
    return kb ? Number(kb[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** The export downloaded to its end, the portal's memory read every 50 ms meanwhile. */
async function exportOnce(url: string, token: string, pid: number, query = '') {
  const before = rssMb(pid) ?? 0;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid) ?? 0)), 50);
  const started = performance.now();
  try {
    const response = await fetch(`${url}${CANDIDATES_LIST.path}?format=csv${query}`, {
      headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' },
    });
    if (response.status !== 200) throw new Error(`export: ${response.status} ${await response.text()}`);
    const hash = createHash('sha256');
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    }
    const read: Read = {
      seconds: (performance.now() - started) / 1000,
      bytes,
      lines,
      sha: hash.digest('hex').slice(0, 12),
    };
    return { read, rss: { before, peak } };
  } finally {
    clearInterval(sampler);
  }
}

/** psql's COPY of the statement to its standard output, read here to its end. */
function copyOnce(databaseUrl: string, statement: string): Promise<Read> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', databaseUrl, '-c', statement], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const hash = createHash('sha256');
    let bytes = 0;
    let lines = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    });
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`psql exited ${code}: ${stderr}`));
      resolve({
        seconds: (performance.now() - started) / 1000,
        bytes,
        lines,
        sha: hash.digest('hex').slice(0, 12),
      });
    });
  });
}

/** The export's own select (its joins, columns and order), its parameters written in, as a COPY. */
async function copyStatement(databaseUrl: string): Promise<string> {
  const handle = await openDatabase({ driver: 'postgres', url: databaseUrl });
  try {
    const { sql: text, params } = selectRows(handle.db).orderBy(desc(candidates.id)).toSQL();
    const inlined = text.replace(/\$(\d+)/g, (_, n: string) => {
      const value = params[Number(n) - 1];
      return typeof value === 'number' ? String(value) : pg.escapeLiteral(String(value));
    });
    return `copy (${inlined}) to stdout with (format csv, header)`;
  } finally {
    await handle.close();
  }
}

async function keptOrNew(total: number) {
  const keep = process.env.BENCH_KEEP_DATABASE;
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!keep) {
    const database = await createBenchDatabase('export');
    if (!database) return null;
    console.log(`seeding ${total.toLocaleString('en')} candidates into ${database.name}...`);
    await seedDatabase({ driver: 'postgres', url: database.url }, { analyze: true, total });
    return { url: database.url, drop: () => database.drop() };
  }
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [keep]);
  if (!exists.rowCount) await admin.query(`create database ${keep}`);
  await admin.end();
  const u = new URL(server);
  u.pathname = `/${keep}`;
  if (!exists.rowCount) {
    console.log(`seeding ${total.toLocaleString('en')} candidates into ${keep}...`);
    await seedDatabase({ driver: 'postgres', url: u.toString() }, { analyze: true, total });
  }
  return { url: u.toString(), drop: async () => {} };
}

async function main() {
  const total = Number(process.env.BENCH_CANDIDATES ?? 1_000_000);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const small = process.env.BENCH_EXPORT_SMALL ?? '&year=2024';
  const database = await keptOrNew(total);
  if (!database) return;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-export-'));
  try {
    const statement = await copyStatement(database.url);
    const running = await startServer(
      { DATABASE_URL: database.url, DATA_DIR: dataDir },
      Number(process.env.BENCH_PORT ?? 20_000 + Math.floor(Math.random() * 20_000)),
    );
    try {
      const token = await signIn(running.url, dataDir, ADMIN);
      // One small export first, so both sides start warm (the portal's modules, the tables' pages).
      const first = await exportOnce(running.url, token, running.pid, small);
      console.log(
        `filtered export (${small}): ${first.read.lines - 1} rows, ${first.read.seconds.toFixed(2)} s, ` +
          `RSS ${first.rss.before.toFixed(0)} -> peak ${first.rss.peak.toFixed(0)} MB, sha ${first.read.sha} (load ${load()})`,
      );
      for (let round = 1; round <= rounds; round++) {
        const exportFirst = round % 2 === 1;
        let copy: Read;
        let exported: Awaited<ReturnType<typeof exportOnce>>;
        if (exportFirst) {
          exported = await exportOnce(running.url, token, running.pid);
          copy = await copyOnce(database.url, statement);
        } else {
          copy = await copyOnce(database.url, statement);
          exported = await exportOnce(running.url, token, running.pid);
        }
        const { read, rss } = exported;
        console.log(
          `round ${round} (${exportFirst ? 'export first' : 'COPY first'}): export ${read.seconds.toFixed(2)} s ` +
            `(${read.lines - 1} rows, ${(read.bytes / 1e6).toFixed(1)} MB, sha ${read.sha}, RSS ${rss.before.toFixed(0)} -> ` +
            `peak ${rss.peak.toFixed(0)} MB) | COPY ${copy.seconds.toFixed(2)} s (${copy.lines - 1} rows, ` +
            `${(copy.bytes / 1e6).toFixed(1)} MB) | COPY / export ${(copy.seconds / read.seconds).toFixed(2)}x ` +
            `(export ${(read.seconds / copy.seconds).toFixed(1)}x slower) | load ${load()}`,
        );
      }
      const last = await exportOnce(running.url, token, running.pid, small);
      console.log(
        `filtered export (${small}): ${last.read.lines - 1} rows, ${last.read.seconds.toFixed(2)} s, ` +
          `RSS ${last.rss.before.toFixed(0)} -> peak ${last.rss.peak.toFixed(0)} MB, sha ${last.read.sha} (load ${load()})`,
      );
    } finally {
      await running.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
