/**
 * Issue 28 item 4: what an endpoint costs beside its own SQL. The candidate list page (the board's
 * Indexed Candidates, no filter, page 1, and a school admin's Registered list) requested over HTTP with
 * a signed-in user's token, interleaved in one loop with the same statements sent raw through pg
 * (node-postgres) from this process: the window of rows, then the planner's estimate and the capped
 * count when the portal would need them (server/http/paging.ts readPage; the portal now sends the
 * estimate beside the window). Every sample asks each side once, in a random order, so the machine's
 * load falls on all alike. The figure is the ratio of the medians, raw SQL latency over HTTP latency:
 * 1.0 means the endpoint costs nothing beyond its SQL.
 *
 * Run by the candidates part on PostgreSQL (bench.ts gives it listBesideSql) while its portal runs; run
 * alone (`npx tsx scripts/bench-endpoint.ts`) it seeds BENCH_CANDIDATES (1,000,000 by default) into a
 * database of its own, BENCH_KEEP_DATABASE names one to keep between runs (seeded once, reused). Run
 * alone it also takes BENCH_BASE_ROOT (another checkout's portal, the code before a change, asked in the
 * same loop), BENCH_BARE=1 (a bare Hono route with the same statements, and under it node:http answering
 * the same bytes with no SQL: the HTTP hop alone, and so the ceiling of any endpoint over HTTP) and
 * BENCH_FETCH=1 (the portal asked with Node's fetch too). Every HTTP side is asked as a browser asks
 * (scripts/benchClient.ts: kept connection, gzip, the whole body parsed as JSON).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { DEFAULT_PER_PAGE, EXACT_TOTAL_LIMIT } from '../contract/pagination';
import { CANDIDATE_ENDPOINTS } from '../contract/candidates.endpoints';
import { REGISTRATION_ENDPOINTS } from '../contract/registration.endpoints';
import { liveTokenLookup } from '../server/auth/tokens';
import { candidateListStatements, type ListScope } from '../server/candidates/list';
import { openDatabase } from '../server/db/client';
import { closeClient, viaFetch, viaHttp } from './benchClient';
import {
  ADMIN,
  SCHOOL_ADMIN,
  seededPostgres,
  signIn,
  startServer,
  TOTAL,
  type BesidePortal,
} from './bench-candidates';
import { figureKey, ratio, recordFigure } from './benchRecord';

interface Timing {
  median: number;
  p95: number;
}

interface Pair {
  label: string;
  http: Timing;
  raw: Timing;
  /** The raw side with the token's lookup sent first, as a portal that kept no caller would send it. */
  rawWithAuth: Timing;
  samples: number;
  /** Raw SQL's median latency over the endpoint's: the endpoint runs at this fraction of its SQL's speed. */
  ratio: number;
  /** The same with the token's lookup counted in the raw side ("auth included" read that way). */
  ratioWithAuth: number;
  /** The other HTTP sides of the same loop (a baseline portal, the bare route), by name. */
  others: { name: string; http: Timing; ratio: number }[];
}

/** As server/http/paging.ts: an estimate this far past the limit is the total, no count runs. */
const ESTIMATE_TRUSTED = 10 * EXACT_TOTAL_LIMIT;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))];

interface Case {
  label: string;
  /** Which candidate list the path asks (its statements: Registered Candidates read the fee too). */
  list: 'candidates' | 'registered';
  path: string;
  token: string;
  scope: ListScope;
}

/** Another HTTP side of the loop: its URL for case `i`, the headers it is asked with, its client. */
interface OtherSide {
  name: string;
  request: (i: number) => { url: string; headers: Record<string, string> };
  client?: typeof viaHttp;
}

const shuffled = (items: number[]) => {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
};

/** The statements one case sends, as the raw side (and the bare route) run them. */
async function statementsOf(handle: Awaited<ReturnType<typeof openDatabase>>, one: Case) {
  const params = Object.fromEntries(new URL(one.path, 'http://bench').searchParams);
  const perPage = Number(params.per_page ?? DEFAULT_PER_PAGE);
  const page = Number(params.page ?? 1);
  const [window, estimate, count] = await candidateListStatements(handle.db, one.list, one.scope, params, {
    page,
    perPage,
    offset: (page - 1) * perPage,
  });
  return { window, estimate, count, perPage, trusted: ESTIMATE_TRUSTED };
}

/** A GET as a browser makes it (scripts/benchClient.ts): every byte received, gunzipped and parsed. */
async function timed(url: string, headers: Record<string, string>, client = viaHttp) {
  const answer = await client(url, { headers });
  if (answer.status !== 200) throw new Error(`GET ${url}: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.elapsed;
}

/**
 * Each case `samples` times after `warmUp`: one HTTP request to the portal, one to each other side, and
 * one raw run of its statements, in a random order each time, on one connection of pg (the
 * portal's pool keeps its own open connections too).
 */
async function endpointVsSql(
  url: string,
  databaseUrl: string,
  cases: Case[],
  { samples = 400, warmUp = 40, others = [] as OtherSide[] } = {},
): Promise<Pair[]> {
  const handle = await openDatabase({ driver: 'postgres', url: databaseUrl });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const pairs: Pair[] = [];
  try {
    for (const [index, one] of cases.entries()) {
      const { window, estimate, count, perPage } = await statementsOf(handle, one);
      const headers = { accept: 'application/json', authorization: `Bearer ${one.token}` };
      const raw = async () => {
        const started = performance.now();
        const { rows } = await client.query(window.text, window.values);
        if (rows.length > perPage) {
          const plan = await client.query(estimate.text, estimate.values);
          const json = Object.values(plan.rows[0])[0] as { Plan: { 'Plan Rows': number } }[];
          if (json[0].Plan['Plan Rows'] <= ESTIMATE_TRUSTED) await client.query(count.text, count.values);
        }
        return performance.now() - started;
      };
      const lookup = liveTokenLookup(handle.db, Number(one.token.split('|')[0])).toSQL();
      const rawWithAuth = async () => {
        const started = performance.now();
        const { rows } = await client.query(lookup.sql, lookup.params);
        if (rows.length !== 1) throw new Error(`${one.label}: the token's lookup found ${rows.length} rows`);
        await raw();
        return performance.now() - started;
      };
      const sides: (() => Promise<number>)[] = [
        () => timed(url + one.path, headers),
        raw,
        rawWithAuth,
        ...others.map((other) => () => {
          const asked = other.request(index);
          return timed(asked.url, asked.headers, other.client);
        }),
      ];
      const times = sides.map(() => [] as number[]);
      for (let i = 0; i < warmUp + samples; i++) {
        // The sides in a new random order each time: a side that always followed the same one would
        // inherit what that one's process still does after answering (its garbage, its pool).
        for (const side of shuffled(sides.map((_, k) => k))) {
          const elapsed = await sides[side]();
          if (i >= warmUp) times[side].push(elapsed);
        }
      }
      const figures = (values: number[]) => {
        const sorted = [...values].sort((a, b) => a - b);
        return { median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
      };
      const [http, rawTimes, withAuth, ...rest] = times.map(figures);
      pairs.push({
        label: one.label,
        http,
        raw: rawTimes,
        rawWithAuth: withAuth,
        samples,
        ratio: rawTimes.median / http.median,
        ratioWithAuth: withAuth.median / http.median,
        others: rest.map((timing, k) => ({
          name: others[k].name,
          http: timing,
          ratio: rawTimes.median / timing.median,
        })),
      });
    }
  } finally {
    await client.end();
    await handle.close();
  }
  return pairs;
}

/** The list cases: the board admin's whole list, page 1, and a school admin's Registered list, page 1. */
function listCases(tokens: { admin: string; school_admin: string }, schoolId: number): Case[] {
  return [
    {
      label: 'candidate list, board admin, no filter, page 1',
      list: 'candidates',
      path: `${CANDIDATE_ENDPOINTS.list.path}?page=1`,
      token: tokens.admin,
      scope: { kind: 'board' },
    },
    {
      label: "registered list, a school admin's (SHT-IB), page 1",
      list: 'registered',
      path: `${REGISTRATION_ENDPOINTS.registered.school_admin.path}?page=1`,
      token: tokens.school_admin,
      scope: { kind: 'school', schoolId },
    },
  ];
}

/** The HTTP hop alone (scripts/bench-endpoint-bare.ts `/floor`): node:http answering fixed bytes. */
const FLOOR = 'HTTP alone: node:http, the same answer kept, no SQL';

function printPairs(pairs: Pair[]) {
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  console.log(
    `\nEndpoint beside its SQL (interleaved, ${pairs[0]?.samples ?? 0} pairs; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}):`,
  );
  console.log('| request | HTTP median / p95 | raw SQL (pg) median / p95 | raw / HTTP (aim ≥ 0.8) |');
  console.log('|---|---:|---:|---:|');
  for (const p of pairs) {
    console.log(
      `| ${p.label} | ${ms(p.http.median)} / ${ms(p.http.p95)} | ${ms(p.raw.median)} / ${ms(p.raw.p95)} | ${p.ratio.toFixed(2)}x |`,
    );
    console.log(
      `| ${p.label}: raw SQL with the token's lookup first (auth included) | (the same) | ${ms(p.rawWithAuth.median)} / ${ms(p.rawWithAuth.p95)} | ${p.ratioWithAuth.toFixed(2)}x |`,
    );
    for (const other of p.others) {
      console.log(
        `| ${p.label}: ${other.name} | ${ms(other.http.median)} / ${ms(other.http.p95)} | (the same) | ${other.ratio.toFixed(2)}x (${other.name} over portal, medians: ${(other.http.median / p.http.median).toFixed(2)}x) |`,
      );
    }
    // The most any endpoint over HTTP can reach here: its SQL, then at least the hop with nothing in it.
    const floor = p.others.find((other) => other.name === FLOOR);
    if (floor) {
      const ceiling = (raw: number) => `${(raw / (raw + floor.http.median)).toFixed(2)}x`;
      console.log(
        `| ${p.label}: the ceiling over HTTP, raw / (raw + HTTP alone) | ${ms(p.raw.median + floor.http.median)} | (the same) | ${ceiling(p.raw.median)} (auth included: ${ceiling(p.rawWithAuth.median)}) |`,
      );
    }
  }
}

/**
 * The other sides BENCH_BASE_ROOT and BENCH_BARE ask for: a baseline portal from another checkout of the
 * project (its own build, on the same database: each step of a change measured in one loop with the
 * code before it), and the bare route (scripts/bench-endpoint-bare.ts) running the same statements.
 */
async function startOthers(
  portalUrl: string,
  databaseUrl: string,
  dataDir: string,
  cases: () => Promise<Case[]>,
) {
  const others: OtherSide[] = [];
  const stops: (() => Promise<void>)[] = [];
  if (process.env.BENCH_FETCH) {
    const list = await cases();
    others.push({
      name: 'portal asked with fetch',
      request: (i) => ({
        url: portalUrl + list[i].path,
        headers: { accept: 'application/json', authorization: `Bearer ${list[i].token}` },
      }),
      client: viaFetch,
    });
  }
  const baseRoot = process.env.BENCH_BASE_ROOT;
  if (baseRoot) {
    const base = await startServer(
      { DATABASE_URL: databaseUrl, DATA_DIR: dataDir },
      Number(process.env.BENCH_PORT ?? 3391) + 1,
      180_000,
      path.resolve(baseRoot),
    );
    stops.push(base.stop);
    const tokens = {
      admin: await signIn(base.url, dataDir, ADMIN),
      school_admin: await signIn(base.url, dataDir, SCHOOL_ADMIN),
    };
    const list = await cases();
    const own = listCases(tokens, schoolOf(list));
    others.push({
      name: 'baseline portal',
      request: (i) => ({
        url: base.url + own[i].path,
        headers: { accept: 'application/json', authorization: `Bearer ${own[i].token}` },
      }),
    });
  }
  if (process.env.BENCH_BARE) {
    const handle = await openDatabase({ driver: 'postgres', url: databaseUrl });
    const statements = [];
    for (const one of await cases()) statements.push(await statementsOf(handle, one));
    await handle.close();
    const port = Number(process.env.BENCH_PORT ?? 3391) + 2;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'bench-endpoint-bare.ts')],
      {
        env: {
          ...process.env,
          PORT: String(port),
          DATABASE_URL: databaseUrl,
          BARE_CASES: JSON.stringify(statements),
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    stops.push(async () => {
      child.kill('SIGTERM');
      await exited;
    });
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    others.push({
      name: 'bare Hono route, same SQL',
      request: (i) => ({
        url: `http://127.0.0.1:${port}/bare/${i}`,
        headers: { accept: 'application/json' },
      }),
    });
    others.push({
      name: FLOOR,
      request: (i) => ({
        url: `http://127.0.0.1:${port}/floor/${i}`,
        headers: { accept: 'application/json' },
      }),
    });
  }
  return { others, stop: () => Promise.all(stops.map((stop) => stop())) };
}

const schoolOf = (list: Case[]) => {
  const scope = list.find((one) => one.scope.kind === 'school')?.scope;
  return scope?.kind === 'school' ? Number(scope.schoolId) : 0;
};

async function main() {
  const total = Number(process.env.BENCH_CANDIDATES ?? 1_000_000);
  const database = await seededPostgres('endpoint', total);
  if (!database) return;
  const { url: databaseUrl, drop } = database;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-endpoint-'));
  try {
    const running = await startServer(
      { DATABASE_URL: databaseUrl, DATA_DIR: dataDir },
      Number(process.env.BENCH_PORT ?? 3391),
    );
    try {
      const tokens = {
        admin: await signIn(running.url, dataDir, ADMIN),
        school_admin: await signIn(running.url, dataDir, SCHOOL_ADMIN),
      };
      const cases = () => casesOf(databaseUrl, tokens);
      const more = await startOthers(running.url, databaseUrl, dataDir, cases);
      try {
        printPairs(
          await endpointVsSql(running.url, databaseUrl, await cases(), {
            samples: Number(process.env.BENCH_SAMPLES ?? 200),
            others: more.others,
          }),
        );
      } finally {
        await more.stop();
      }
    } finally {
      await running.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    closeClient();
    await drop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? '')) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

/** The candidate list pages beside their own statements through pg, on the candidates part's portal. */
export const listBesideSql: BesidePortal = async ({ url, databaseUrl, tokens }) => {
  const cases = await casesOf(databaseUrl, tokens);
  const pairs = await endpointVsSql(url, databaseUrl, cases, {
    samples: Number(process.env.BENCH_SAMPLES ?? 200),
  });
  printPairs(pairs);
  // Its raw SQL, interleaved, is the anchor (item 4's figure, HTTP over SQL as the candidates part's).
  for (const p of pairs) {
    const key = `candidates.postgres.n${TOTAL}.endpoint.${figureKey(p.label)}`;
    recordFigure(`${key}.http_over_sql_median`, ratio(p.http.median, p.raw.median), 'ratio', 'lower');
  }
  closeClient();
};

/** The list cases with the tokens given and the seeded school admin's school. */
async function casesOf(databaseUrl: string, tokens: { admin: string; school_admin: string }) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query('select training_school_id from users where email = $1', [
    SCHOOL_ADMIN,
  ]);
  await client.end();
  return listCases(tokens, Number(rows[0].training_school_id));
}
