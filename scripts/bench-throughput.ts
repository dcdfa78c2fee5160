/**
 * A part of `npm run bench` (scripts/bench.ts): list throughput on PostgreSQL, one portal process and two.
 *
 * In a PostgreSQL database made for the run (and dropped after it), seeded as the candidates part seeds
 * (scripts/bench-candidates.ts, 100,000 candidates by default), the bench starts the portal as
 * `npm start` runs it (scripts/start.mjs) once on one port, then twice on two ports, each with a pg pool
 * of DATABASE_POOL_SIZE connections (10, then 20), signs in a board admin and a school admin through the
 * real two-step sign-in, and drives two lists with many connections at once for a fixed time: the board's
 * candidate list (`GET /api/admin/candidates?page=1..10`) and a school admin's registered list (SHT-IB,
 * pages 1-10). With two processes the connections are dealt to the two ports in turn, as a load balancer
 * would. It reports requests a second and the p50 and p99 latency the clients saw. Then the same loads
 * against one portal on the embedded PGlite, seeded alike, for the embedded default's ceiling.
 *
 * The load comes from wrk (https://github.com/wg/wrk; Debian: `apt-get install wrk`) when it is
 * installed, which costs little CPU, else from a loop of fetch calls in this process (keep-alive), which
 * costs more. Either way the load generator shares the machine's cores with the portal and PostgreSQL.
 *
 * BENCH_THROUGHPUT_CANDIDATES (100,000), BENCH_THROUGHPUT_SECONDS (10 a run), BENCH_CONCURRENCY
 * (10,50,100), BENCH_POOL_SIZES (10,20), BENCH_PROCESSES (1,2) and BENCH_LOAD (wrk or node) size it.
 * Every run is bounded in time.
 */
import { spawn, spawnSync } from 'node:child_process';
import { CANDIDATE_ENDPOINTS } from '../contract/candidates.endpoints';
import { REGISTRATION_ENDPOINTS } from '../contract/registration.endpoints';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  ADMIN,
  createBenchDatabase,
  SCHOOL_ADMIN,
  seedDatabase,
  signIn,
  startServer,
  type Running,
} from './bench-candidates';
import { recordFigure } from './benchRecord';

const list = (name: string, fallback: string) =>
  (process.env[name] ?? fallback)
    .split(',')
    .map((value) => Number(value.trim()))
    .filter((value) => Number.isInteger(value) && value > 0);

const TOTAL = Number(process.env.BENCH_THROUGHPUT_CANDIDATES ?? 100_000);
const SECONDS = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? 10);
const WARM_UP_SECONDS = 3;
const CONCURRENCY = list('BENCH_CONCURRENCY', '10,50,100');
const POOL_SIZES = list('BENCH_POOL_SIZES', '10,20');
const PROCESSES = list('BENCH_PROCESSES', '1,2');
/** No request waits longer than this; one that does is counted as a timeout. */
const REQUEST_TIMEOUT_SECONDS = 10;
const PAGES = 10;

interface Load {
  label: string;
  as: 'admin' | 'school_admin';
  paths: string[];
}

const LOADS: Load[] = [
  {
    label: "board admin's candidate list, pages 1-10",
    as: 'admin',
    paths: Array.from({ length: PAGES }, (_, i) => `${CANDIDATE_ENDPOINTS.list.path}?page=${i + 1}`),
  },
  {
    label: "school admin's registered list (SHT-IB), pages 1-10",
    as: 'school_admin',
    paths: Array.from(
      { length: PAGES },
      (_, i) => `${REGISTRATION_ENDPOINTS.registered.school_admin.path}?page=${i + 1}`,
    ),
  },
];

interface Result {
  requests: number;
  seconds: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  /** Answers other than 2xx/3xx, and connection errors and timeouts. */
  errors: number;
}

function hasWrk(): boolean {
  if (process.env.BENCH_LOAD === 'node') return false;
  const probe = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  return !probe.error && /wrk/i.test(`${probe.stdout}${probe.stderr}`);
}

/** A load of `connections` at once on `ports` in turn, asking for `paths`, for `seconds`. */
type LoadRunner = (
  ports: number[],
  token: string,
  paths: string[],
  connections: number,
  seconds: number,
) => Promise<Result>;

/** wrk with two threads, each on one of the ports in turn; done() prints the figures as JSON. */
const runWrk: LoadRunner = async (ports, token, paths, connections, seconds) => {
  const script = path.join(os.tmpdir(), `portal-bench-wrk-${process.pid}.lua`);
  fs.writeFileSync(
    script,
    `local ports = { ${ports.join(', ')} }
local paths = { ${paths.map((p) => JSON.stringify(p)).join(', ')} }
local threads = 0
function setup(thread)
  threads = threads + 1
  thread.addr = wrk.lookup("127.0.0.1", tostring(ports[(threads - 1) % #ports + 1]))[1]
  thread:set("offset", threads)
end
local n = 0
function init(args)
  n = offset or 0
end
function request()
  n = n + 1
  return wrk.format("GET", paths[n % #paths + 1])
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('RESULT {"requests":%d,"us":%d,"p50":%d,"p99":%d,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout))
end
`,
  );
  const threads = Math.min(2, connections);
  const child = spawn(
    'wrk',
    [
      `-t${threads}`,
      `-c${connections}`,
      `-d${seconds}s`,
      `--timeout`,
      `${REQUEST_TIMEOUT_SECONDS}s`,
      '-s',
      script,
      '-H',
      `Authorization: Bearer ${token}`,
      '-H',
      'Accept: application/json',
      `http://127.0.0.1:${ports[0]}${paths[0]}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (chunk) => (out += String(chunk)));
  child.stderr.on('data', (chunk) => (out += String(chunk)));
  // wrk stops itself after `seconds`; this only ends a wrk that hangs.
  const guard = setTimeout(() => child.kill('SIGKILL'), (seconds + REQUEST_TIMEOUT_SECONDS + 30) * 1000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(guard);
  fs.rmSync(script, { force: true });
  const line = /^RESULT (.+)$/m.exec(out);
  if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}):\n${out}`);
  const figures = JSON.parse(line[1]) as {
    requests: number;
    us: number;
    p50: number;
    p99: number;
    errors: number;
  };
  return {
    requests: figures.requests,
    seconds: figures.us / 1e6,
    p50: figures.p50 / 1000,
    p99: figures.p99 / 1000,
    errors: figures.errors,
  };
};

/** The same with fetch in this process: `connections` loops, each on one of the ports in turn. */
const runFetch: LoadRunner = async (ports, token, paths, connections, seconds) => {
  const times: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async (_, worker) => {
      const base = `http://127.0.0.1:${ports[worker % ports.length]}`;
      for (let n = worker; performance.now() < deadline; n++) {
        const sent = performance.now();
        try {
          const response = await fetch(base + paths[n % paths.length], {
            headers: { accept: 'application/json', authorization: `Bearer ${token}` },
            signal: AbortSignal.timeout(REQUEST_TIMEOUT_SECONDS * 1000),
          });
          await response.arrayBuffer();
          if (!response.ok) errors++;
        } catch {
          errors++;
        }
        times.push(performance.now() - sent);
      }
    }),
  );
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.max(0, Math.ceil(p * times.length) - 1)] ?? 0;
  return {
    requests: times.length,
    seconds: (performance.now() - started) / 1000,
    p50: at(0.5),
    p99: at(0.99),
    errors,
  };
};

/** The backends serving the portal processes' connections to the bench database (not the bench's own). */
async function serverBackends(client: pg.Client, database: string): Promise<number[]> {
  const { rows } = await client.query<{ pid: number }>(
    `select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
    [database],
  );
  return rows.map((r) => r.pid);
}

// CPU time from /proc (Linux), to tell where a request's CPU goes on a machine the load shares.
const hasProc = fs.existsSync('/proc/stat');
const TICKS = hasProc
  ? Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100
  : 100;

/** CPU seconds a process has used (user + system); 0 once it is gone. */
function processCpu(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** CPU seconds the whole machine has been busy, all cores together. */
function machineBusy(): number {
  const [, ...ticks] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = ticks.map(Number);
  return (user + nice + system + irq + softirq + steal) / TICKS;
}

interface Cpu {
  /** CPU milliseconds a request, in the portal processes and in their PostgreSQL backends. */
  portal: number;
  postgres: number;
  /** The machine's other busy time (the load generator, and anything else running), in cores. */
  otherCores: number;
}

/** Snapshots CPU before a run; the function it answers measures the run when it has ended. */
async function cpuMeter(client: pg.Client, database: string, portals: number[]) {
  if (!hasProc) return async () => null;
  const sum = (pids: number[]) => pids.reduce((total, pid) => total + processCpu(pid), 0);
  const backendsBefore = new Map(
    (await serverBackends(client, database)).map((pid) => [pid, processCpu(pid)]),
  );
  const portalBefore = sum(portals);
  const machineBefore = machineBusy();
  const started = performance.now();
  return async (requests: number): Promise<Cpu | null> => {
    const seconds = (performance.now() - started) / 1000;
    const portal = sum(portals) - portalBefore;
    const machine = machineBusy() - machineBefore;
    const backends = await serverBackends(client, database);
    const postgres = backends.reduce(
      (total, pid) => total + processCpu(pid) - (backendsBefore.get(pid) ?? 0),
      0,
    );
    if (!requests) return null;
    return {
      portal: (portal / requests) * 1000,
      postgres: (postgres / requests) * 1000,
      otherCores: Math.max(0, machine - portal - postgres) / seconds,
    };
  };
}

interface Row {
  processes: number;
  pool: number;
  load: string;
  connections: number;
  result: Result;
  /** Connections to PostgreSQL the portal processes held at the end of the run. */
  held: number;
  cpu: Cpu | null;
}

/**
 * Requests a second and the CPU a request costs, recorded (benchRecord) for one load: the run has no
 * anchor, so both are absolute, read with the load stored beside them. Only the default setting (one
 * process, the pool of 10) is recorded on PostgreSQL: on two cores the other columns move about as much
 * as two runs of one setting do.
 */
function recordThroughput(
  database: string,
  load: Load,
  connections: number,
  result: Result,
  cpuMs: number | null,
) {
  const key = `throughput.${database}.n${TOTAL}.${load.as}.c${connections}`;
  recordFigure(`${key}.req_per_s`, Math.round(result.requests / result.seconds), 'req/s', 'higher');
  recordFigure(`${key}.errors`, result.errors, 'errors', 'lower');
  if (cpuMs !== null) recordFigure(`${key}.cpu_ms_per_request`, Number(cpuMs.toFixed(2)), 'ms', 'lower');
}

export async function benchThroughput({ port }: { port: number }): Promise<void> {
  await postgresThroughput(port);
  await pgliteThroughput(port);
}

async function postgresThroughput(port: number): Promise<void> {
  const useWrk = hasWrk();
  console.log(
    `\nList throughput on PostgreSQL: ${TOTAL.toLocaleString('en')} candidates, ${SECONDS} s a run, load from ${
      useWrk
        ? 'wrk (2 threads)'
        : `fetch loops in the bench process (${process.env.BENCH_LOAD === 'node' ? 'BENCH_LOAD=node' : 'wrk is not installed'})`
    }, on the same ${os.cpus().length} cores as the portal and PostgreSQL`,
  );
  const database = await createBenchDatabase('throughput');
  if (!database) return;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-throughput-'));
  const run = useWrk ? runWrk : runFetch;
  const rows: Row[] = [];
  // The bench's own connection, to see the portal's backends (it leaves itself out).
  const monitor = new pg.Client({ connectionString: database.url });
  await monitor.connect();
  try {
    console.log(`PostgreSQL ${database.version}: seeding ${TOTAL.toLocaleString('en')} candidates...`);
    const seeded = await seedDatabase(
      { driver: 'postgres', url: database.url },
      { total: TOTAL, analyze: true, log: false },
    );
    console.log(`  ${seeded.rows.toLocaleString('en')} rows in ${seeded.seconds.toFixed(1)} s`);

    let tokens: Record<Load['as'], string> | null = null;
    for (const processes of PROCESSES) {
      for (const pool of POOL_SIZES) {
        const ports = Array.from({ length: processes }, (_, i) => port + i);
        const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, DATABASE_POOL_SIZE: String(pool) };
        const servers: Running[] = [];
        try {
          // One after the other: the first start rebuilds a stale server bundle, which the second reuses.
          for (const p of ports) servers.push(await startServer(env, p));
          // Tokens live in the database, so one sign-in serves every process and every round.
          tokens ??= {
            admin: await signIn(servers[0].url, dataDir, ADMIN),
            school_admin: await signIn(servers[0].url, dataDir, SCHOOL_ADMIN),
          };
          console.log(
            `  ${processes} process${processes > 1 ? 'es' : ''}, pool of ${pool} each (load average before: ${os
              .loadavg()
              .map((n) => n.toFixed(2))
              .join(', ')}):`,
          );
          for (const load of LOADS) {
            for (const p of ports) {
              const response = await fetch(`http://127.0.0.1:${p}${load.paths[0]}`, {
                headers: { accept: 'application/json', authorization: `Bearer ${tokens[load.as]}` },
              });
              if (!response.ok) throw new Error(`GET ${load.paths[0]} on ${p}: ${response.status}`);
              await response.arrayBuffer();
            }
            await run(ports, tokens[load.as], load.paths, Math.min(10, CONCURRENCY[0]), WARM_UP_SECONDS);
            for (const connections of CONCURRENCY) {
              const measured = await cpuMeter(
                monitor,
                database.name,
                servers.map((server) => server.pid),
              );
              const result = await run(ports, tokens[load.as], load.paths, connections, SECONDS);
              const cpu = await measured(result.requests);
              const held = (await serverBackends(monitor, database.name)).length;
              rows.push({ processes, pool, load: load.label, connections, result, held, cpu });
              if (processes === 1 && pool === 10)
                recordThroughput('postgres', load, connections, result, cpu && cpu.portal + cpu.postgres);
              console.log(
                `    ${load.label}, ${connections} connections: ${(result.requests / result.seconds).toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms${result.errors ? `, ${result.errors} errors` : ''}; PostgreSQL connections held: ${held}${cpu ? `; CPU a request: portal ${cpu.portal.toFixed(2)} ms, PostgreSQL ${cpu.postgres.toFixed(2)} ms; other CPU: ${cpu.otherCores.toFixed(2)} cores` : ''}`,
              );
            }
          }
        } finally {
          for (const server of servers) await server.stop();
        }
      }
    }
  } finally {
    await monitor.end();
    await database.drop().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  console.log(
    '\n| list | connections | ' +
      PROCESSES.flatMap((n) =>
        POOL_SIZES.map((pool) => `${n} process${n > 1 ? 'es' : ''}, pool ${pool}`),
      ).join(' | ') +
      ' |',
  );
  console.log(`|---|---:|${PROCESSES.flatMap(() => POOL_SIZES.map(() => '---:|')).join('')}`);
  for (const load of LOADS) {
    for (const connections of CONCURRENCY) {
      const cells = PROCESSES.flatMap((processes) =>
        POOL_SIZES.map((pool) => {
          const row = rows.find(
            (r) =>
              r.load === load.label &&
              r.connections === connections &&
              r.processes === processes &&
              r.pool === pool,
          );
          if (!row) return '—';
          const { result } = row;
          return `${(result.requests / result.seconds).toFixed(0)} req/s, ${result.p50.toFixed(1)} / ${result.p99.toFixed(1)} ms${result.errors ? ` (${result.errors} errors)` : ''}`;
        }),
      );
      console.log(`| ${load.label} | ${connections} | ${cells.join(' | ')} |`);
    }
  }
  console.log('\nRequests a second; p50 / p99 latency as the clients saw it, queueing included.');
  if (rows.some((r) => r.cpu)) {
    console.log(
      '\nCPU milliseconds a request, portal + PostgreSQL (from /proc), and in brackets the cores the rest of the machine kept busy (the load generator and anything else running):',
    );
    for (const row of rows) {
      if (!row.cpu) continue;
      console.log(
        `  ${row.processes} × pool ${row.pool}, ${row.load}, ${row.connections} connections: ${row.cpu.portal.toFixed(2)} + ${row.cpu.postgres.toFixed(2)} ms (${row.cpu.otherCores.toFixed(2)} cores)`,
      );
    }
  }
}

/**
 * The embedded default under the same loads: one process (PGlite allows no other on its directory),
 * its database in the process, so the portal's CPU is all there is to measure.
 */
async function pgliteThroughput(port: number): Promise<void> {
  const useWrk = hasWrk();
  const run = useWrk ? runWrk : runFetch;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-throughput-pglite-'));
  console.log(`\nList throughput on PGlite: ${TOTAL.toLocaleString('en')} candidates, one process`);
  try {
    const seeded = await seedDatabase(
      { driver: 'pglite', dataDir },
      { total: TOTAL, analyze: true, log: false },
    );
    console.log(`  ${seeded.rows.toLocaleString('en')} rows in ${seeded.seconds.toFixed(1)} s`);
    const server = await startServer({ DATA_DIR: dataDir }, port);
    try {
      const tokens = {
        admin: await signIn(server.url, dataDir, ADMIN),
        school_admin: await signIn(server.url, dataDir, SCHOOL_ADMIN),
      };
      // The portal's own ANALYZE runs a second after it starts listening: measure after it.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      console.log('\n| list | connections | PGlite, 1 process |\n|---|---:|---:|');
      for (const load of LOADS) {
        await run([port], tokens[load.as], load.paths, Math.min(10, CONCURRENCY[0]), WARM_UP_SECONDS);
        for (const connections of CONCURRENCY) {
          const started = processCpu(server.pid);
          const result = await run([port], tokens[load.as], load.paths, connections, SECONDS);
          const cpu = ((processCpu(server.pid) - started) * 1000) / Math.max(1, result.requests);
          recordThroughput('pglite', load, connections, result, result.requests ? cpu : null);
          console.log(
            `| ${load.label} | ${connections} | ${(result.requests / result.seconds).toFixed(0)} req/s, ${result.p50.toFixed(1)} / ${result.p99.toFixed(1)} ms${result.errors ? ` (${result.errors} errors)` : ''}; CPU ${cpu.toFixed(2)} ms a request |`,
          );
        }
      }
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
