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
 * `npm run bench` runs it as its `export` part; alone, `npx tsx scripts/bench-export.ts`. It seeds
 * BENCH_EXPORT_CANDIDATES (1,000,000 by default) into a database of its own and drops it after;
 * BENCH_KEEP_DATABASE names one to keep between runs (seeded once, reused).
 * BENCH_ROUNDS (3) rounds; BENCH_PORTAL_NODE_ARGS as bench-candidates' (e.g. --cpu-prof).
 * BENCH_EXPORT_BASELINE: the folder of another copy of the portal (an older commit, `git archive` into a
 * folder with this one's node_modules linked in): its export runs too, in the same rounds, on the same
 * database, the three in turn, so a change is measured against the code before it under the same load.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { desc } from 'drizzle-orm';
import pg from 'pg';
import { CANDIDATES_LIST } from '../contract/lists';
import { selectRows } from '../server/candidates/records';
import { openDatabase } from '../server/db/client';
import { candidates } from '../server/db/schema';
import { ADMIN, seededPostgres, signIn, startServer, type Running } from './bench-candidates';
import { median, recordFigure } from './benchRecord';

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

/** The portal's CPU seconds so far, user and system (/proc: clock ticks of 1/100 s), or NaN. */
function cpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** The export downloaded to its end, the portal's memory read every 50 ms meanwhile. */
async function exportOnce(url: string, token: string, pid: number, query = '') {
  const before = rssMb(pid) ?? 0;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid) ?? 0)), 50);
  const cpu = cpuSeconds(pid);
  const started = performance.now();
  try {
    // node:http, not fetch: its web stream costs this process several times what the portal's
    // writes do, and this process shares the machine's two cores with the portal and PostgreSQL.
    const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .get(
          `${url}${CANDIDATES_LIST.path}?format=csv${query}`,
          { headers: { authorization: `Bearer ${token}` } },
          resolve,
        )
        .on('error', reject),
    );
    if (response.statusCode !== 200) throw new Error(`export: ${response.statusCode}`);
    const hash = createHash('sha256');
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
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
    return { read, rss: { before, peak }, cpu: cpuSeconds(pid) - cpu };
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

/** The portal of another folder (BENCH_EXPORT_BASELINE), started as startServer starts this one. */
async function startBaseline(dir: string, env: Record<string, string>, port: number): Promise<Running> {
  const child = spawn(process.execPath, [path.join(dir, 'scripts/start.mjs')], {
    cwd: dir,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', QUIET: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; waited < 300_000; waited += 100) {
    if (child.exitCode !== null) throw new Error(`the baseline portal exited at start:\n${stderr}`);
    const healthy = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { url, pid: child.pid!, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error('the baseline portal did not become healthy');
}

/**
 * The export beside COPY, `rounds` rounds; records the median ratio of the export's time to COPY's (item
 * 6's aim: at most 2), the portal's CPU and its memory at its peak for the million, and the filtered
 * export's time (the last of its two runs, warm).
 */
export async function benchExport() {
  const total = Number(process.env.BENCH_EXPORT_CANDIDATES ?? 1_000_000);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const small = process.env.BENCH_EXPORT_SMALL ?? '&year=2024';
  const database = await seededPostgres('export', total);
  if (!database) return;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-export-'));
  try {
    const statement = await copyStatement(database.url);
    const port = () => 20_000 + Math.floor(Math.random() * 20_000);
    const running = await startServer({ DATABASE_URL: database.url, DATA_DIR: dataDir }, port());
    const baselineDir = process.env.BENCH_EXPORT_BASELINE;
    const baselineData = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-export-baseline-'));
    let baseline: Running | null = null;
    try {
      baseline = baselineDir
        ? await startBaseline(baselineDir, { DATABASE_URL: database.url, DATA_DIR: baselineData }, port())
        : null;
      const portals = [
        { label: 'export', running, token: await signIn(running.url, dataDir, ADMIN) },
        ...(baseline
          ? [
              {
                label: 'baseline export',
                running: baseline,
                token: await signIn(baseline.url, baselineData, ADMIN),
              },
            ]
          : []),
      ];
      const ours = { ratios: [] as number[], cpu: [] as number[], peak: [] as number[], filtered: NaN };
      const filtered = async () => {
        for (const portal of portals) {
          const { read, rss, cpu } = await exportOnce(
            portal.running.url,
            portal.token,
            portal.running.pid,
            small,
          );
          if (portal.running === running) ours.filtered = read.seconds;
          console.log(
            `${portal.label}, filtered (${small}): ${read.lines - 1} rows, ${read.seconds.toFixed(2)} s, CPU ` +
              `${cpu.toFixed(2)} s, RSS ${rss.before.toFixed(0)} -> peak ${rss.peak.toFixed(0)} MB, sha ${read.sha} (load ${load()})`,
          );
        }
      };
      // Small exports first, so every side starts warm (the portals' modules, the tables' pages).
      await filtered();
      const runs = [
        ...portals.map((portal) => async () => {
          const { read, rss, cpu } = await exportOnce(portal.running.url, portal.token, portal.running.pid);
          if (portal.running === running) {
            ours.cpu.push(cpu);
            ours.peak.push(rss.peak);
          }
          return {
            label: portal.label,
            read,
            text:
              `CPU ${cpu.toFixed(2)} s, ${read.lines - 1} rows, ${(read.bytes / 1e6).toFixed(1)} MB, sha ${read.sha}, ` +
              `RSS ${rss.before.toFixed(0)} -> peak ${rss.peak.toFixed(0)} MB`,
          };
        }),
        async () => {
          const read = await copyOnce(database.url, statement);
          return { label: 'COPY', read, text: `${read.lines - 1} rows, ${(read.bytes / 1e6).toFixed(1)} MB` };
        },
      ];
      for (let round = 1; round <= rounds; round++) {
        // Each round starts with the next of them, so each is first, second and last in turn.
        const order = runs.map((_, i) => runs[(i + round - 1) % runs.length]);
        const results = [];
        for (const run of order) results.push(await run());
        const copy = results.find((result) => result.label === 'COPY')!.read.seconds;
        ours.ratios.push(results.find((result) => result.label === 'export')!.read.seconds / copy);
        console.log(
          `round ${round}: ` +
            results
              .map(
                (result) =>
                  `${result.label} ${result.read.seconds.toFixed(2)} s` +
                  (result.label === 'COPY'
                    ? ''
                    : ` (${(result.read.seconds / copy).toFixed(2)}x COPY's time)`) +
                  ` [${result.text}]`,
              )
              .join(' | ') +
            ` | load ${load()}`,
        );
      }
      await filtered();
      const key = `export.csv_${total}`;
      console.log(
        `\nthe export / COPY's time, median of ${rounds}: ${median(ours.ratios).toFixed(2)}x (item 6: at most 2x)`,
      );
      recordFigure(`${key}.time_over_copy`, Number(median(ours.ratios).toFixed(3)), 'x', 'lower');
      recordFigure(`${key}.portal_cpu_s`, Number(median(ours.cpu).toFixed(2)), 's', 'lower');
      recordFigure(`${key}.peak_rss_mb`, Math.round(Math.max(...ours.peak)), 'MB', 'lower');
      recordFigure(`${key}.filtered_s`, Number(ours.filtered.toFixed(2)), 's', 'lower');
    } finally {
      await baseline?.stop();
      await running.stop();
      fs.rmSync(baselineData, { recursive: true, force: true });
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? '')) {
  benchExport().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
