/**
 * `npm run bench`: the figures of docs/performance.md, measured on this machine.
 *  1. Ready time: from spawning `npm start` to a healthy /api/health, on an existing data directory.
 *  2. First-load JS of /login: the gzipped scripts index.html makes the browser fetch before any lazy chunk,
 *     and the candidate form's own chunk.
 *  3. Candidates at scale: 100,000 seeded candidates, then search and list latency (median, p95) over real
 *     HTTP with signed-in users, on PGlite and on PostgreSQL (scripts/bench-candidates.ts).
 *  4. First load as users get it: Chromium on slow 3G (400 kbit/s, 400 ms round trip, CPU 4x slower):
 *     /login cold, /verify/<code> cold (a real photocard's code), signing in, then the first visit of
 *     each sidebar area of the board admin and of a school admin; requests, bytes over the wire by kind
 *     and encoding, and the time until each page is usable (scripts/bench-firstload.ts), with the same
 *     /login files gzipped on disk beside the bytes.
 *  5. Throughput on PostgreSQL: one and two portal processes (pool sizes from BENCH_POOL_SIZES) under 10, 50
 *     and 100 concurrent connections (wrk when installed, else a fetch loop): requests a second, p50, p99,
 *     and the CPU a request costs in the portal and in PostgreSQL (scripts/bench-throughput.ts).
 *  6. Bulk indexing: 2,000 candidates with photos, dry run and import, on both databases
 *     (scripts/bench-bulk.ts).
 *  7. Payments: 50 signed webhook deliveries at once, their answers, the job queue crediting them, and
 *     the same 50 replayed, on both databases (scripts/bench-payments.ts).
 *  8. Scores: a row save over HTTP on both databases, results computed for 100,000 candidates, and
 *     keystroke to paint on a 500-row grid in Chromium (scripts/bench-scores.ts).
 *  9. Durability of the embedded database: an audited write with PGlite's fsync=off beside the portal's
 *     durable commit, at 1 and 10 clients, interleaved (scripts/bench-durability.ts; BENCH_SHORT=1 for
 *     a quick look).
 * 10. Bulk PDFs: photocards and list rows at 1,000, 5,000 and 20,000, each size in its own process: time,
 *     size, pages and peak memory (scripts/bench-pdf.ts; BENCH_PDF_COUNTS sizes it).
 * 11. Bulk PDFs through HTTP: the candidate list and the photocards of one school's 1,000, 5,000 and
 *     20,000 candidates, with print photos, as the board admin gets them from `npm start` (streamed up to
 *     the inline limit, a job with its progress and a ranged resume beyond), on both databases: time to
 *     last byte, size, pages, the portal's peak RSS and how long /api/health waited meanwhile
 *     (scripts/bench-documents.ts; BENCH_DOCUMENTS_COUNTS sizes it).
 * 11b. The CSV export of 1,000,000 candidates beside PostgreSQL's own COPY of the same rows, interleaved:
 *     the export's time over COPY's, the portal's CPU and memory, a filtered tenth (scripts/bench-export.ts;
 *     BENCH_EXPORT_CANDIDATES sizes it; PostgreSQL only).
 * 12. The audit trail at 1,000,000 entries: each filter over HTTP and its SQL alone, on both databases
 *     (scripts/bench-audit.ts; BENCH_AUDIT_ROWS sizes it).
 * 13. The audit log's hash chain: an audited write before and with it, at 1 and 10 clients, interleaved,
 *     on both databases, and `npm run audit:verify`'s walk over 100,000 entries (scripts/bench-audit-chain.ts).
 * 14. The integrity reports' duplicate finder over 100,000 candidates, a full run and one new candidate's
 *     check, on both databases (scripts/bench-integrity.ts).
 * 15. Lighthouse, mobile preset: /login beside the one-form React login of ../shared/anchors/lean-login,
 *     interleaved, the Dashboard of each role, a school's Registered list and a printable candidate list:
 *     scores, FCP, LCP, TBT, CLS, bytes and the top opportunities (scripts/bench-lighthouse.ts;
 *     BENCH_LIGHTHOUSE_RUNS rounds, default 3).
 * Benchmarks, not tests: they print numbers and never fail on them. Every loop is bounded in count and
 * time, and every request goes to the loopback address. Every part records its headline figures
 * (scripts/benchRecord.ts); after each part they are compared with the last committed
 * docs/bench/figures.json: a figure that moved more than 20 % the wrong way is printed in a loud
 * REGRESSION block (all of them again at the end), and the file is rewritten merged by key
 * (BENCH_FIGURES_FILE writes another file instead: a quick run at small sizes).
 *
 * BENCH_ONLY=start|candidates|firstload|throughput|bulk|payments|scores|durability|verify|pdf|documents|dashboard|export|audit|chain|integrity|lighthouse
 * runs one part, or several given with commas (BENCH_ONLY=pdf,chain; start is parts 1 and 2); each part
 * prints how long it took and the load average before and after, and the end a table of them. BENCH_CANDIDATES,
 * BENCH_SAMPLES and BENCH_DRIVERS (pglite,postgres) size the third; DATABASE_URL names the PostgreSQL
 * server (default: the local one); CHROMIUM_PATH the browser of the fourth (default /usr/bin/chromium).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { benchAudit } from './bench-audit';
import { benchAuditChain } from './bench-audit-chain';
import { benchBulk } from './bench-bulk';
import { benchDocuments } from './bench-documents';
import { benchDurability } from './bench-durability';
import { benchExport } from './bench-export';
import { benchPayments } from './bench-payments';
import { benchPdf } from './bench-pdf';
import { benchScores } from './bench-scores';
import { benchCandidates } from './bench-candidates';
import { listBesideSql } from './bench-endpoint';
import { benchDashboard } from './bench-dashboard';
import { benchIntegrity } from './bench-integrity';
import { benchLighthouse } from './bench-lighthouse';
import { benchFirstLoad } from './bench-firstload';
import { benchThroughput } from './bench-throughput';
import { benchVerify } from './bench-verify';
import { printRegressions, recordFigure, saveRecordedFigures, type Regression } from './benchRecord';
import { freePort, portFromEnv } from './ports';

/** BENCH_PORT, or a free port chosen at run time; each part's portal takes the next ones (free too, unless BENCH_PORT says). */
const BENCH_PORT_GIVEN = Boolean(process.env.BENCH_PORT);
const PORT = portFromEnv('BENCH_PORT');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ONLY = process.env.BENCH_ONLY ?? '';
/** The data directory of part 1, made when it runs (so the other parts alone leave nothing behind). */
let dataDir = '';

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function startAndTime(): Promise<number> {
  const started = performance.now();
  const child = spawn('npm', ['start'], {
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, QUIET: '1' },
    stdio: 'ignore',
    detached: true,
  });
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${PORT}/api/health`);
        if (response.ok) return performance.now() - started;
      } catch {
        // Not listening yet.
      }
      if (performance.now() - started > 120_000)
        throw new Error('the portal did not become healthy in 120 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    // npm exits before the portal has closed (its database, its data directory's lock): the next start
    // waits until no process of the group is left.
    for (;;) {
      try {
        process.kill(-child.pid!, 0);
      } catch {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

function firstLoadJs() {
  const dist = path.resolve('dist');
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const first = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const size = (file: string) => gzipSync(fs.readFileSync(path.join(dist, file))).length;
  const lazy = fs
    .readdirSync(path.join(dist, 'assets'))
    .filter((name) => name.endsWith('.js') && !first.includes(`/assets/${name}`))
    .map((name) => ({ name, gzip: size(`/assets/${name}`) }))
    .sort((a, b) => b.gzip - a.gzip);
  return { first: first.map((name) => ({ name, gzip: size(name) })), lazy };
}

/**
 * The candidate form's chunk (the SPA lazy-loads the candidate pages' module, CandidateFormPage.tsx, as
 * its own chunk), and with it the other lazy chunks it imports, which the browser fetches alongside.
 */
function candidateFormChunk(js: ReturnType<typeof firstLoadJs>) {
  const assets = path.resolve('dist', 'assets');
  const chunk = js.lazy.find((c) => /^CandidateFormPage-[\w-]+\.js$/.test(c.name));
  if (!chunk) return null;
  const firstLoad = new Set(js.first.map((f) => path.basename(f.name)));
  const brought = new Set<string>();
  const visit = (name: string) => {
    const code = fs.readFileSync(path.join(assets, name), 'utf8');
    for (const [, imported] of code.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) {
      if (imported === chunk.name || firstLoad.has(imported) || brought.has(imported)) continue;
      brought.add(imported);
      visit(imported);
    }
  };
  visit(chunk.name);
  const withImports = [chunk, ...js.lazy.filter((c) => brought.has(c.name))];
  return { chunk, withImports, gzip: withImports.reduce((sum, c) => sum + c.gzip, 0) };
}

/** The port of part `n`: BENCH_PORT + n when BENCH_PORT was given, else another free one. */
const partPort = (n: number) => (BENCH_PORT_GIVEN ? Promise.resolve(PORT + n) : freePort());

/** The parts in the order they run; BENCH_ONLY chooses some of them (start is parts 1 and 2). */
const PARTS: Record<string, () => Promise<unknown>> = {
  start: () => benchStart(),
  candidates: async () => benchCandidates({ port: await partPort(1), besidePostgres: listBesideSql }),
  firstload: async () => benchFirstLoad({ port: await partPort(2) }),
  throughput: async () => benchThroughput({ port: await partPort(3) }),
  bulk: async () => benchBulk({ port: await partPort(4) }),
  payments: async () => benchPayments({ port: await partPort(5) }),
  scores: async () => benchScores({ port: await partPort(6) }),
  durability: () => benchDurability(),
  verify: async () => benchVerify({ port: await partPort(7) }),
  pdf: () => benchPdf(),
  documents: async () => benchDocuments({ port: await partPort(8) }),
  dashboard: async () => benchDashboard({ port: await partPort(9) }),
  export: () => benchExport(),
  audit: async () => benchAudit({ port: await partPort(10) }),
  chain: () => benchAuditChain(),
  integrity: () => benchIntegrity(),
  lighthouse: async () => benchLighthouse({ port: await partPort(11), anchorPort: await partPort(12) }),
};

/** BENCH_ONLY's comma-separated parts (every part when it is unset), in the bench's own order. */
function chosenParts(): string[] {
  const names = Object.keys(PARTS);
  const asked = ONLY.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = asked.filter((name) => !names.includes(name));
  if (unknown.length)
    throw new Error(`BENCH_ONLY: no part ${unknown.join(', ')}; the parts are ${names.join(', ')}`);
  return asked.length ? names.filter((name) => asked.includes(name)) : names;
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

async function main() {
  console.log(
    `Machine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  const times: string[] = [];
  const found: Regression[] = [];
  try {
    for (const name of chosenParts()) {
      const load = loadAverage();
      const started = performance.now();
      console.log(`\n=== Part ${name} (load average ${load}) ===`);
      let outcome = 'done';
      try {
        await PARTS[name]();
      } catch (error) {
        outcome = 'FAILED';
        throw error;
      } finally {
        const took = `${((performance.now() - started) / 60_000).toFixed(1)} min`;
        console.log(`\n=== Part ${name}: ${outcome} in ${took} (load average ${loadAverage()}) ===`);
        times.push(`| ${name} | ${outcome} | ${took} | ${load} | ${loadAverage()} |`);
        // What the part recorded, compared and written now, even when it failed halfway.
        found.push(...saveRecordedFigures());
      }
    }
  } finally {
    // How long each part took, the whole bench's time part by part (also when a part failed).
    console.log('\n| part | outcome | time | load average before | load average after |');
    console.log('|---|---|--:|---|---|');
    for (const line of times) console.log(line);
    if (times.length > 1) printRegressions(found, 'figure of this run');
  }
}

async function benchStart() {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  console.log('Preparing a data directory (first start: build if stale, create, migrate, seed)...');
  const firstStart = await startAndTime();
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) times.push(await startAndTime());
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const js = firstLoadJs();
  const total = js.first.reduce((sum, file) => sum + file.gzip, 0);

  console.log('\n| figure | value |\n|---|---|');
  console.log(
    `| first \`npm start\` on an empty data directory (create, migrate, seed) | ${(firstStart / 1000).toFixed(2)} s |`,
  );
  console.log(
    `| \`npm start\` to healthy /api/health, existing data directory (median of ${RUNS}; min-max) | ${(median(times) / 1000).toFixed(2)} s (${(Math.min(...times) / 1000).toFixed(2)}-${(Math.max(...times) / 1000).toFixed(2)} s) |`,
  );
  console.log(
    `| gzipped JS that /login loads first | ${kb(total)} (${js.first.map((f) => f.name).join(', ')}) |`,
  );
  // No anchor runs beside the start: its time is absolute (it moves with the load); the bytes do not.
  recordFigure('start.ready_median', Math.round(median(times)), 'ms', 'lower');
  recordFigure('start.login_first_js_gzip', total, 'bytes', 'lower');
  const form = candidateFormChunk(js);
  console.log(
    `| gzipped chunk of the candidate form (CandidateFormPage.tsx) | ${
      form
        ? `${kb(form.chunk.gzip)} (${form.chunk.name})`
        : 'not found: no CandidateFormPage chunk in dist/assets'
    } |`,
  );
  if (form) {
    console.log(
      `| the same with the lazy chunks it imports (not loaded before) | ${kb(form.gzip)} (${form.withImports
        .map((c) => c.name)
        .join(', ')}) |`,
    );
  }
  console.log('\nLazy chunks (gzipped):');
  for (const chunk of js.lazy) console.log(`  ${chunk.name.padEnd(40)} ${kb(chunk.gzip)}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
