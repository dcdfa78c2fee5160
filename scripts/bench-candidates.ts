/**
 * The third part of `npm run bench` (scripts/bench.ts): search and list latency on 100,000 candidates.
 *
 * For each database (PGlite in a data directory; PostgreSQL in a database made for the run and dropped
 * after it), the bench migrates, seeds the demo's sign-ins and 100,000 varied candidates (seedDatabase:
 * batches of 10,000-20,000 rows, one INSERT ... SELECT FROM unnest(...) each, with the candidates table's
 * indexes and foreign keys made again after the load), then starts the portal as `npm start` runs it
 * (scripts/start.mjs, its own process) and measures, over real HTTP on the loopback address with users
 * signed in through the real two-step sign-in, the median and p95 of: a name search page, an index-number
 * search, a filtered list page (school + course header), and the registered list of a school admin. Each
 * query runs a fixed number of times (after a warm-up) with varied parameters, under a time limit. Beside
 * each, the same SQL sent straight to the database (pg; the PGlite client).
 *
 * BENCH_CANDIDATES sizes it (1,000,000 seeds in a minute or two on PostgreSQL), BENCH_SAMPLES the
 * requests a query, BENCH_DRIVERS (pglite,postgres) the databases; BENCH_SEED_KEEP_INDEXES=1 loads with
 * every index in place instead (slower). The seeding, the portal's start and the sign-in are exported
 * for the throughput part (scripts/bench-throughput.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import pg from 'pg';
import {
  CANDIDATE_CATEGORIES,
  CERTIFICATES,
  formatCandidateIndex,
  GRADES,
  needsPriorCertificate,
} from '../contract/candidates';
import { DEFAULT_PER_PAGE } from '../contract/pagination';
import { CANDIDATE_ENDPOINTS } from '../contract/candidates.endpoints';
import { REGISTRATION_ENDPOINTS } from '../contract/registration.endpoints';
import { candidateListStatements, type ListScope } from '../server/candidates/list';
import { openDatabase, type DatabaseTarget } from '../server/db/client';
import { ensureReferenceData } from '../server/db/reference';
import { candidates, courseHeaders, trainingSchools, users } from '../server/db/schema';
import { HEADER_WEIGHTS } from '../server/demo/candidates';
import { FIRST_NAMES, LAST_NAMES } from '../server/demo/names';
import { random, type Random } from '../server/demo/random';
import { DEMO_PASSWORD, isEmpty, seedSignIns } from '../server/demo';
import { figureKey, ratio, recordFigure } from './benchRecord';

/** The candidates seeded (BENCH_CANDIDATES), which the other parts that seed with seedDatabase name in their figures. */
export const TOTAL = Number(process.env.BENCH_CANDIDATES ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const WARM_UP = 20;
/** Rows a batch: one INSERT ... SELECT FROM unnest(...) statement each. */
const BATCH = { postgres: 20_000, pglite: 10_000 } as const;
/** `BENCH_SEED_KEEP_INDEXES=1`: load with every index in place (slower; indexes grown, not built). */
const KEEP_INDEXES = process.env.BENCH_SEED_KEEP_INDEXES === '1';
/** No query is measured for longer than this, however slow it is. */
const QUERY_TIME_LIMIT_MS = 90_000;
/** Issue 8's aim for a list page or a search at a million candidates on PostgreSQL, over HTTP. */
const AIM_P95_MS = 30;
export const ADMIN = 'admin@example.org';
/** School admin at SHT-IB in the demo seed. */
export const SCHOOL_ADMIN = 'school1@example.org';
const DRIVERS = (process.env.BENCH_DRIVERS ?? 'pglite,postgres').split(',').map((d) => d.trim());
const POSTGRES_SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------------------------------------------
// Made-up but realistic data: the demo's West African names (server/demo/names.ts), schools across
// the states, skewed sizes (a few big schools, many small), more candidates in recent years.

const PLACES =
  `Abakaliki:Ebonyi Abeokuta:Ogun Ado-Ekiti:Ekiti Akure:Ondo Asaba:Delta Awka:Anambra Bauchi:Bauchi
Benin:Edo Birnin-Kebbi:Kebbi Damaturu:Yobe Dutse:Jigawa Gombe:Gombe Gusau:Zamfara Jalingo:Taraba Kaduna:Kaduna
Katsina:Katsina Lafia:Nasarawa Lagos:Lagos Lokoja:Kogi Maiduguri:Borno Makurdi:Benue Minna:Niger Osogbo:Osun
Owerri:Imo Port-Harcourt:Rivers Sokoto:Sokoto Umuahia:Abia Uyo:Akwa-Ibom Yenagoa:Bayelsa Yola:Adamawa
Abuja:FCT Ikeja:Lagos Ogbomoso:Oyo Nsukka:Enugu`
    .trim()
    .split(/\s+/)
    .map((pair) => pair.split(':') as [string, string]);

const YEARS = [2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026];
const SUBJECTS = ['english', 'mathematics', 'biology', 'chemistry', 'physics'] as const;

type NewCandidate = typeof candidates.$inferInsert;

function candidateRow(
  rng: Random,
  sequence: number,
  school: { id: number },
  header: { id: number; code: string },
  adminId: number,
): NewCandidate {
  const year = rng.weighted(
    YEARS,
    YEARS.map((_, i) => i + 2),
  );
  const gender = rng.next() < 0.68 ? 'female' : 'male';
  const married = rng.next() < 0.3;
  const birthYear = year - rng.int(17, 38);
  const dateOfBirth = `${birthYear}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
  const prior = needsPriorCertificate(header.code);
  const grades = Object.fromEntries(
    SUBJECTS.map((subject) => [subject, rng.pick(GRADES.slice(0, 7))]),
  ) as Record<(typeof SUBJECTS)[number], string>;
  const createdAt = new Date(Date.UTC(year, rng.int(0, 11), rng.int(1, 28), rng.int(7, 17), rng.int(0, 59)));
  return {
    candidateIndex: formatCandidateIndex(year, header.code, sequence),
    trainingSchoolId: school.id,
    courseHeaderId: header.id,
    year,
    first_name: rng.pick(FIRST_NAMES),
    last_name: rng.pick(LAST_NAMES),
    middle_name: rng.next() < 0.6 ? rng.pick(FIRST_NAMES) : null,
    title: gender === 'male' ? 'Mr' : married ? 'Mrs' : 'Miss',
    date_of_birth: dateOfBirth,
    candidate_category: rng.weighted(
      CANDIDATE_CATEGORIES.map((c) => c.code),
      [85, 10, 5],
    ),
    marital_status: married ? 'M' : 'S',
    gender,
    nationality: rng.next() < 0.97 ? 'NG' : rng.pick(['GH', 'BJ', 'CM', 'TG', 'NE']),
    certificate_evaluated: prior ? rng.pick(CERTIFICATES) : null,
    year_of_certificate_evaluated: prior ? String(year - rng.int(1, 4)) : null,
    exam_number_1: prior ? String(rng.int(4_000_000_000, 4_299_999_999)) : null,
    exam_month: prior ? rng.pick(['May', 'June', 'November']) : null,
    ...grades,
    verified: rng.next() < 0.4,
    createdBy: adminId,
    createdAt,
    updatedAt: createdAt,
  };
}

export interface Seeded {
  rows: number;
  /** Loading the candidates, from the first batch to the end of ANALYZE (and of the index builds). */
  seconds: number;
  /** Existing values the queries pick from. */
  indexNumbers: string[];
  schools: string[];
  headers: string[];
  /** The seed's closed diet, for the registered list of a past diet. */
  pastDiet: string;
}

/** How the candidates are loaded (every way gives the same rows, ids, indexes and constraints). */
export interface SeedOptions {
  /** Rows the candidates table holds at the end. */
  total?: number;
  /** Run ANALYZE after the load, as PostgreSQL's autovacuum would within a minute. */
  analyze: boolean;
  /**
   * Drop the candidates table's indexes (all but the primary key) and its foreign keys before the load,
   * and create them again after it from the definitions the database itself held, checked to be the
   * same afterwards. Building an index once is far cheaper than keeping it up to date row by row, and a
   * foreign key added to a full table is checked in one join rather than three lookups a row. The
   * duplicate rule (a unique index) is then kept by the loader itself, and the unique indexes, built
   * after, prove it kept it. On by default.
   */
  deferIndexes?: boolean;
  /** Print progress lines. */
  log?: boolean;
}

type Column = { key: keyof NewCandidate | 'id'; name: string; type: string };

/** The candidates table's columns a row of candidateRow fills (and the id), with SQL names and types. */
function insertColumns(row: NewCandidate): Column[] {
  const columns = getTableColumns(candidates) as Record<string, PgColumn>;
  return ['id', ...Object.keys(row)].map((key) => {
    const column = columns[key];
    if (!column) throw new Error(`candidateRow gives ${key}, which is not a column of candidates`);
    // A serial column takes integers (serial is not a type of its own, so has no array type).
    const type = column.getSQLType().replace(/^(small|big)?serial$/, (_, size) => `${size ?? ''}int`);
    return { key: key as Column['key'], name: column.name, type };
  });
}

/**
 * One multi-row INSERT a batch: each column goes as one array parameter and `unnest` turns the arrays
 * back into rows, so a batch of 20,000 rows is one statement of 30 parameters, parsed and planned once.
 */
function insertStatement(columns: Column[]) {
  const names = columns.map((c) => `"${c.name}"`).join(', ');
  const arrays = columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ');
  return `insert into candidates (${names}) select * from unnest(${arrays})`;
}

function batchValues(columns: Column[], batch: { id: number; row: NewCandidate }[]): unknown[][] {
  return columns.map(({ key }) =>
    key === 'id'
      ? batch.map((b) => b.id)
      : batch.map(({ row }) => {
          const value = row[key];
          return value instanceof Date ? value.toISOString() : (value ?? null);
        }),
  );
}

/** A plain SQL connection beside Drizzle: pg for PostgreSQL, the PGlite instance itself for PGlite. */
export interface RawSql {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[]; count: number }>;
  close(): Promise<void>;
}

/** A new pg connection to PostgreSQL, or (PGlite: one connection only) the open PGlite instance. */
export async function rawSql(target: DatabaseTarget, pglite?: PGlite): Promise<RawSql> {
  if (target.driver === 'postgres') {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    return {
      async query(text, values) {
        const result = await client.query(text, values);
        return { rows: result.rows, count: result.rowCount ?? 0 };
      },
      close: () => client.end(),
    };
  }
  if (!pglite) throw new Error('rawSql on PGlite needs the open PGlite instance');
  return {
    async query(text, values) {
      const result = await pglite.query<Record<string, unknown>>(text, values);
      return { rows: result.rows, count: result.affectedRows ?? 0 };
    },
    close: async () => {},
  };
}

/** The candidates table's indexes and constraints, as the database would write them again. */
async function tableShape(raw: RawSql) {
  const { rows: indexes } = await raw.query(
    `select i.relname as name, pg_get_indexdef(i.oid) as definition,
            exists (select 1 from pg_constraint c where c.conindid = i.oid and c.conrelid = x.indrelid) as constraint
       from pg_index x join pg_class i on i.oid = x.indexrelid
      where x.indrelid = 'candidates'::regclass order by 1`,
  );
  const { rows: constraints } = await raw.query(
    `select conname as name, contype as type, pg_get_constraintdef(oid) as definition
       from pg_constraint where conrelid = 'candidates'::regclass order by 1`,
  );
  return {
    indexes: indexes as { name: string; definition: string; constraint: boolean }[],
    constraints: constraints as { name: string; type: string; definition: string }[],
  };
}

/**
 * Drops the candidates table's foreign keys and its indexes but the primary key's (which other tables'
 * foreign keys need), runs `load`, adds the foreign keys again (each checks every row as it is added),
 * then builds the indexes, spread over `builders` connections, and checks that the table ends with
 * exactly the indexes and constraints it started with.
 */
async function withIndexesDeferred(raw: RawSql, builders: RawSql[], load: () => Promise<void>, log: boolean) {
  const before = await tableShape(raw);
  const foreignKeys = before.constraints.filter((c) => c.type === 'f');
  const indexes = before.indexes.filter((index) => !index.constraint);
  for (const fk of foreignKeys) await raw.query(`alter table candidates drop constraint "${fk.name}"`);
  for (const index of indexes) await raw.query(`drop index "${index.name}"`);
  try {
    await load();
  } finally {
    const started = performance.now();
    for (const fk of foreignKeys) {
      await raw.query(`alter table candidates add constraint "${fk.name}" ${fk.definition}`);
    }
    const queue = [...indexes];
    await Promise.all(
      builders.map(async (builder) => {
        for (let index = queue.shift(); index; index = queue.shift()) await builder.query(index.definition);
      }),
    );
    if (log) {
      console.log(
        `  ${foreignKeys.length} foreign keys and ${indexes.length} indexes made again in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
  }
  const after = await tableShape(raw);
  if (JSON.stringify(after) !== JSON.stringify(before)) {
    throw new Error(
      `the candidates table's indexes or constraints differ after the load:\n${JSON.stringify(before)}\n${JSON.stringify(after)}`,
    );
  }
}

/**
 * Migrates, seeds the demo's sign-ins and the schools, then candidates until the table holds `total`
 * rows: the rows of candidateRow in order, less any that the table's unique indexes would refuse (the
 * same person at the same school and course header, or an index number already given), as the portal's
 * own insert refuses them. Each row keeps the id the sequence would have given it had every row been
 * tried (a refused row uses up its id), so rows and ids are those an insert of one row at a time would
 * make, whatever the batch size.
 */
export async function seedDatabase(target: DatabaseTarget, options: SeedOptions): Promise<Seeded> {
  const { total = TOTAL, analyze, deferIndexes = !KEEP_INDEXES, log = true } = options;
  const handle = await openDatabase(target);
  try {
    const { db } = handle;
    await handle.migrate();
    await ensureReferenceData(db);
    if (await isEmpty(db)) await seedSignIns(db);

    const existing = await db.select({ code: trainingSchools.code }).from(trainingSchools);
    const codes = new Set(existing.map((s) => s.code));
    const more = PLACES.map(([city, state], i) => {
      const kind = ['SHT', 'CHT', 'CHS', 'SON'][i % 4];
      const name = {
        SHT: 'School of Health Technology',
        CHT: 'College of Health Technology',
        CHS: 'College of Health Sciences',
        SON: 'School of Nursing',
      }[kind];
      return {
        code: `${kind}-${city.replace(/-/g, '').slice(0, 3).toUpperCase()}`,
        name: `${name}, ${city}`,
        state,
      };
    }).filter((s) => !codes.has(s.code));
    if (more.length) await db.insert(trainingSchools).values(more);

    const schools = await db
      .select({ id: trainingSchools.id, code: trainingSchools.code })
      .from(trainingSchools);
    const headers = await db.select({ id: courseHeaders.id, code: courseHeaders.code }).from(courseHeaders);
    const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, ADMIN));

    const raw = await rawSql(target, handle.pglite);
    const builders = target.driver === 'postgres' ? [raw, await rawSql(target)] : [raw];
    try {
      // One sort in memory an index build, on every connection that builds.
      if (target.driver === 'postgres') {
        for (const builder of builders) await builder.query(`set maintenance_work_mem = '512MB'`);
      }
      // What the unique indexes hold already (nothing, in a new database), as the loader checks it.
      const taken = new Set<string>();
      const personKey = (school: unknown, header: unknown, first: string, last: string, birth: unknown) =>
        `p ${school} ${header} ${first.toLowerCase()} ${last.toLowerCase()} ${birth}`;
      const { rows: present } = await raw.query(
        `select training_school_id, course_header_id, first_name, last_name, date_of_birth::text as birth,
                candidate_index from candidates`,
      );
      for (const r of present) {
        taken.add(
          personKey(
            r.training_school_id,
            r.course_header_id,
            String(r.first_name),
            String(r.last_name),
            r.birth,
          ),
        );
        taken.add(`i ${r.candidate_index}`);
      }

      const rng = random(20_261_123);
      // Zipf-like school sizes: the first schools are the big ones (the demo's SHT-IB among them).
      const schoolWeights = schools.map((_, i) => 1 / (1 + i * 0.35));
      const headerWeights = headers.map((h) => HEADER_WEIGHTS[h.code] ?? 50);
      const started = performance.now();
      let rows = present.length;
      let sequence = 0;
      let firstId = 0;
      if (rows < total) {
        const { rows: ids } = await raw.query(
          `select nextval(pg_get_serial_sequence('candidates', 'id'))::int as id`,
        );
        firstId = Number(ids[0].id);
      }
      /** The next `size` rows the table takes, each with its id, generated in order. */
      const generate = (size: number) => {
        const batch: { id: number; row: NewCandidate }[] = [];
        // Bounded: duplicates are rare (about one in 100,000 rows), far below one in two.
        for (let tries = 0; batch.length < size && tries < size * 2 + 100; tries++) {
          const row = candidateRow(
            rng,
            ++sequence,
            rng.weighted(schools, schoolWeights),
            rng.weighted(headers, headerWeights),
            admin.id,
          );
          const person = personKey(
            row.trainingSchoolId,
            row.courseHeaderId,
            row.first_name,
            row.last_name,
            row.date_of_birth,
          );
          const index = `i ${row.candidateIndex}`;
          if (taken.has(person) || taken.has(index)) continue;
          taken.add(person);
          taken.add(index);
          batch.push({ id: firstId + sequence - 1, row });
        }
        return batch;
      };

      const load = async () => {
        let columns: Column[] | null = null;
        let statement = '';
        let reported = rows;
        // The next batch is made while the last one is inserted: on PostgreSQL the server inserts on one
        // core while this process makes rows on the other.
        let flight: Promise<unknown> | null = null;
        while (rows < total) {
          const batch = generate(
            Math.min(target.driver === 'postgres' ? BATCH.postgres : BATCH.pglite, total - rows),
          );
          if (!batch.length) throw new Error('no new candidate rows could be generated');
          columns ??= insertColumns(batch[0].row);
          statement ||= insertStatement(columns);
          if (flight) await flight;
          flight = raw.query(statement, batchValues(columns, batch));
          rows += batch.length;
          if (log && rows - reported >= 100_000) {
            reported = rows;
            console.log(
              `  ${rows.toLocaleString('en')} rows sent, ${((performance.now() - started) / 1000).toFixed(1)} s`,
            );
          }
        }
        if (flight) await flight;
      };
      if (deferIndexes) await withIndexesDeferred(raw, builders, load, log);
      else await load();
      if (sequence) {
        // As if each generated row had taken its id from the sequence; the index numbers' sequence too.
        await raw.query(`select setval(pg_get_serial_sequence('candidates', 'id'), $1)`, [
          firstId + sequence - 1,
        ]);
      }
      await raw.query(`select setval('candidate_index_seq', $1)`, [sequence + 1]);
      // Registrations per diet (the seed's two): about half the verified for the current diet, a third
      // of everyone for the past one, written as the portal writes them, one row a candidate and diet.
      await raw.query(`delete from registrations`);
      await raw.query(
        `insert into registrations (diet_id, candidate_id, reg_status)
         select d.id, c.id, 'registered' from candidates c, diets d
         where (d.current and c.verified and c.id % 2 = 0) or (d.closed_at is not null and c.id % 3 = 0)`,
      );
      if (analyze) await raw.query('analyze');
      const seconds = (performance.now() - started) / 1000;

      const { rows: sample } = await raw.query(
        `select candidate_index from candidates order by md5(candidate_index) limit 500`,
      );
      const { rows: past } = await raw.query(`select code from diets where closed_at is not null limit 1`);
      return {
        rows,
        seconds,
        indexNumbers: sample.map((r) => String(r.candidate_index)),
        schools: schools.map((s) => s.code),
        headers: headers.map((h) => h.code),
        pastDiet: String(past[0].code),
      };
    } finally {
      await Promise.all(builders.map((builder) => builder.close()));
    }
  } finally {
    await handle.close();
  }
}

/** Runs ANALYZE on the PGlite directory; answers how long it took, in seconds. */
async function analyzePglite(dataDir: string): Promise<number> {
  const handle = await openDatabase({ driver: 'pglite', dataDir });
  try {
    const started = performance.now();
    await handle.db.execute(sql`analyze`);
    return (performance.now() - started) / 1000;
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// The portal in its own process, and the HTTP side.

export interface Running {
  url: string;
  /** The portal's process (scripts/start.mjs runs the server in its own process). */
  pid: number;
  stop(): Promise<void>;
}

/** `limitMs`: how long the start (a build when stale, the demo's seeding) may take before it is given up. */
export async function startServer(
  env: Record<string, string>,
  port: number,
  limitMs = 180_000,
  /** Another checkout's portal (a baseline beside this one): its root, with its own dist-server. */
  dir = root,
): Promise<Running> {
  // BENCH_PORTAL_NODE_ARGS: Node's own options for the portal's process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
  // to profile what a part measures (Node refuses --cpu-prof in NODE_OPTIONS).
  const nodeArgs = (process.env.BENCH_PORTAL_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, path.join(dir, 'scripts/start.mjs')], {
    cwd: dir,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', QUIET: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the portal exited at start:\n${stderr}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return { url, pid: child.pid!, stop };
    } catch {
      // Not listening yet.
    }
    if (performance.now() - started > limitMs) {
      await stop();
      throw new Error(`the portal did not become healthy in ${limitMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function post(url: string, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { data?: Record<string, string> };
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`);
  return json.data!;
}

/** The whole sign-in: password, then the code the portal mailed (written under DATA_DIR/mail). */
export async function signIn(url: string, dataDir: string, email: string): Promise<string> {
  const { login_id } = await post(`${url}/api/auth/login`, { email, password: DEMO_PASSWORD });
  const dir = path.join(dataDir, 'mail');
  const newest = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(`-${email}.eml`))
    .sort()
    .pop();
  const code =
    newest && /^Subject: Your sign-in code: (\d{6})$/m.exec(fs.readFileSync(path.join(dir, newest), 'utf8'));
  if (!code) throw new Error(`no sign-in code mailed to ${email}`);
  const { access_token } = await post(`${url}/api/auth/confirm-code`, { login_id, code: code[1] });
  return access_token;
}

interface Timing {
  median: number;
  p95: number;
  samples: number;
}

interface Figures extends Timing {
  /** Rows the answers said matched, on average (from the answer's total, when it gives one). */
  matched: number | null;
}

const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];

/** The total a list answer reports, wherever the envelope keeps it. */
function totalOf(body: unknown): number | null {
  const data = (body as { data?: Record<string, unknown> })?.data;
  const meta = (data?.meta ?? data?.pagination ?? data) as Record<string, unknown> | undefined;
  const total = meta?.total ?? meta?.total_count;
  return typeof total === 'number' ? total : null;
}

async function measure(url: string, token: string, pathOf: (i: number) => string): Promise<Figures> {
  const times: number[] = [];
  const totals: number[] = [];
  const deadline = performance.now() + QUERY_TIME_LIMIT_MS;
  for (let i = 0; i < WARM_UP + SAMPLES && performance.now() < deadline; i++) {
    const route = pathOf(i);
    const started = performance.now();
    const response = await fetch(url + route, {
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    });
    const body = await response.json();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`GET ${route}: ${response.status} ${JSON.stringify(body)}`);
    if (i < WARM_UP) continue;
    times.push(elapsed);
    const total = totalOf(body);
    if (total !== null) totals.push(total);
  }
  times.sort((a, b) => a - b);
  return {
    median: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    samples: times.length,
    matched: totals.length ? Math.round(totals.reduce((a, b) => a + b, 0) / totals.length) : null,
  };
}

interface Query {
  label: string;
  as: 'admin' | 'school_admin';
  path: (i: number) => string;
}

function queries(seeded: Seeded): Query[] {
  const rng = random(7);
  const words = [...FIRST_NAMES, ...LAST_NAMES].map((w) => w.toLowerCase());
  const q = (params: Record<string, string | number>) =>
    new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  return [
    {
      label: 'name search, page 1 (one name, or its first 4 letters)',
      as: 'admin',
      path: () => {
        const word = rng.pick(words);
        return `${CANDIDATE_ENDPOINTS.list.path}?${q({ search: rng.next() < 0.25 ? word.slice(0, 4) : word, page: 1 })}`;
      },
    },
    {
      label: 'index-number search (a whole index number)',
      as: 'admin',
      path: () => `${CANDIDATE_ENDPOINTS.list.path}?${q({ search: rng.pick(seeded.indexNumbers), page: 1 })}`,
    },
    {
      label: 'filtered list: school + course header, pages 1-3',
      as: 'admin',
      path: () =>
        `${CANDIDATE_ENDPOINTS.list.path}?${q({
          school: rng.pick(seeded.schools.slice(0, 20)),
          course_header: rng.pick(seeded.headers),
          page: rng.int(1, 3),
        })}`,
    },
    {
      label: 'registered list of a school admin (SHT-IB), pages 1-5',
      as: 'school_admin',
      path: () => `${REGISTRATION_ENDPOINTS.registered.school_admin.path}?${q({ page: rng.int(1, 5) })}`,
    },
    {
      label: 'registered candidates of the current diet (registered filter), pages 1-3',
      as: 'admin',
      path: () =>
        `${REGISTRATION_ENDPOINTS.registered.admin.path}?${q({ reg_status: 'registered', page: rng.int(1, 3) })}`,
    },
    {
      label: 'registered candidates of the past diet (diet filter), pages 1-3',
      as: 'admin',
      path: () =>
        `${REGISTRATION_ENDPOINTS.registered.admin.path}?${q({ diet: seeded.pastDiet, reg_status: 'registered', page: rng.int(1, 3) })}`,
    },
    // Harder cases than the aim's: what a user typing produces on the way to a name.
    {
      label: 'extra: two-word name search (first and last name)',
      as: 'admin',
      path: () =>
        `${CANDIDATE_ENDPOINTS.list.path}?${q({ search: `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`, page: 1 })}`,
    },
    {
      label: 'extra: one- or two-letter search (start of a name)',
      as: 'admin',
      path: () =>
        `${CANDIDATE_ENDPOINTS.list.path}?${q({ search: rng.pick(words).slice(0, rng.int(1, 2)), page: 1 })}`,
    },
    {
      label: 'extra: the whole list, no filter, page 1',
      as: 'admin',
      path: () => `${CANDIDATE_ENDPOINTS.list.path}?${q({ page: 1 })}`,
    },
  ];
}

interface Round {
  label: string;
  rows: number;
  seedSeconds: number;
  results: { query: string; figures: Figures; raw: Timing | null }[];
}

/** Measured beside the candidates' portal on PostgreSQL, while it runs on the seeded database. */
export type BesidePortal = (portal: {
  url: string;
  databaseUrl: string;
  tokens: { admin: string; school_admin: string };
}) => Promise<void>;

async function measureRound(
  label: string,
  target: DatabaseTarget,
  dataDir: string,
  port: number,
  seeded: Seeded,
  besidePostgres?: BesidePortal,
): Promise<Round['results']> {
  console.log(`  measuring ${label}...`);
  const env: Record<string, string> =
    target.driver === 'postgres' ? { DATABASE_URL: target.url, DATA_DIR: dataDir } : { DATA_DIR: dataDir };
  const server = await startServer(env, port);
  const results: Round['results'] = [];
  try {
    const tokens = {
      admin: await signIn(server.url, dataDir, ADMIN),
      school_admin: await signIn(server.url, dataDir, SCHOOL_ADMIN),
    };
    for (const query of queries(seeded)) {
      results.push({
        query: query.label,
        figures: await measure(server.url, tokens[query.as], query.path),
        raw: null,
      });
    }
    // Issue 28: what bench.ts measures beside this portal on PostgreSQL (the list page beside its own
    // statements: scripts/bench-endpoint.ts), given rather than imported so neither file imports the other.
    if (target.driver === 'postgres')
      await besidePostgres?.({ url: server.url, databaseUrl: target.url, tokens });
  } finally {
    await server.stop();
  }
  // After the portal has stopped: a PGlite directory is open in one process at a time.
  const raw = await measureRawSql(target, seeded);
  for (const [i, result] of results.entries()) result.raw = raw[i];
  return results;
}

/**
 * The same queries, with the same parameters, as SQL sent straight to the database: the statements the
 * portal sends for a list request (server/candidates/list.ts candidateListStatements), through pg on
 * PostgreSQL and through the PGlite client on PGlite, in this process. The page's statement always; the
 * total's only when the portal would run them (the page is full: it returned more than per_page rows).
 * What it leaves out is the portal's own work: HTTP, the token check, JSON, and its driver.
 */
async function measureRawSql(target: DatabaseTarget, seeded: Seeded): Promise<Timing[]> {
  const handle = await openDatabase(target);
  const raw = await rawSql(target, handle.pglite);
  try {
    const { rows: school } = await raw.query(`select training_school_id from users where email = $1`, [
      SCHOOL_ADMIN,
    ]);
    const scopes: Record<Query['as'], ListScope> = {
      admin: { kind: 'board' },
      school_admin: { kind: 'school', schoolId: Number(school[0].training_school_id) },
    };
    const timings: Timing[] = [];
    for (const query of queries(seeded)) {
      const times: number[] = [];
      const deadline = performance.now() + QUERY_TIME_LIMIT_MS;
      for (let i = 0; i < WARM_UP + SAMPLES && performance.now() < deadline; i++) {
        const asked = new URL(query.path(i), 'http://bench');
        const params = Object.fromEntries(asked.searchParams);
        const perPage = Number(params.per_page ?? DEFAULT_PER_PAGE);
        const page = Number(params.page ?? 1);
        const list = asked.pathname === CANDIDATE_ENDPOINTS.list.path ? 'candidates' : 'registered';
        const [first, ...total] = await candidateListStatements(handle.db, list, scopes[query.as], params, {
          page,
          perPage,
          offset: (page - 1) * perPage,
        });
        const started = performance.now();
        const { rows } = await raw.query(first.text, first.values);
        if (rows.length > perPage || (rows.length === 0 && page > 1)) {
          for (const statement of total) await raw.query(statement.text, statement.values);
        }
        const elapsed = performance.now() - started;
        if (i >= WARM_UP) times.push(elapsed);
      }
      times.sort((a, b) => a - b);
      timings.push({ median: percentile(times, 0.5), p95: percentile(times, 0.95), samples: times.length });
    }
    return timings;
  } finally {
    await raw.close();
    await handle.close();
  }
}

async function pgliteRounds(port: number): Promise<Round[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-candidates-'));
  try {
    console.log(`PGlite: seeding ${TOTAL.toLocaleString('en')} candidates in ${dataDir}...`);
    const seeded = await seedDatabase({ driver: 'pglite', dataDir }, { analyze: false });
    console.log(`  ${seeded.rows.toLocaleString('en')} rows in ${seeded.seconds.toFixed(1)} s`);
    const rounds: Round[] = [];
    // As the portal runs it: PGlite has no autovacuum; the portal's own upkeep runs ANALYZE a second
    // after it starts listening (server/portal.ts), so the warm-up may or may not have met it.
    rounds.push({
      label: 'PGlite as the portal leaves it',
      rows: seeded.rows,
      seedSeconds: seeded.seconds,
      results: await measureRound('PGlite', { driver: 'pglite', dataDir }, dataDir, port, seeded),
    });
    const analyzed = await analyzePglite(dataDir);
    console.log(`  ANALYZE of the whole database took ${analyzed.toFixed(2)} s`);
    rounds.push({
      label: 'PGlite after ANALYZE',
      rows: seeded.rows,
      seedSeconds: seeded.seconds,
      results: await measureRound(
        'PGlite after ANALYZE',
        { driver: 'pglite', dataDir },
        dataDir,
        port,
        seeded,
      ),
    });
    return rounds;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A PostgreSQL database made for one bench run, dropped by `drop()`. */
export interface BenchDatabase {
  name: string;
  url: string;
  /** The server's version, e.g. "15.14". */
  version: string;
  drop(): Promise<void>;
}

/**
 * A PostgreSQL database with `total` seeded candidates for a bench part: BENCH_KEEP_DATABASE names one
 * kept between runs (seeded once, reused; drop it by hand), otherwise one of its own, dropped after.
 */
export async function seededPostgres(suffix: string, total: number) {
  const keep = process.env.BENCH_KEEP_DATABASE;
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!keep) {
    const database = await createBenchDatabase(suffix);
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

/**
 * Creates `portal_bench_<suffix>_<pid>` on the PostgreSQL server (DATABASE_URL, or the local one); null,
 * with a line saying so, when the server cannot be reached.
 */
export async function createBenchDatabase(suffix: string): Promise<BenchDatabase | null> {
  const name = `portal_bench_${suffix}_${process.pid}`;
  const admin = new pg.Client({ connectionString: POSTGRES_SERVER });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`PostgreSQL: not reachable at ${POSTGRES_SERVER} (${(error as Error).message}); skipped.`);
    return null;
  }
  try {
    const version = await admin.query<{ server_version: string }>('show server_version');
    await admin.query(`create database ${name}`);
    const url = new URL(POSTGRES_SERVER);
    url.pathname = `/${name}`;
    return {
      name,
      url: url.toString(),
      version: version.rows[0].server_version.split(' ')[0],
      async drop() {
        try {
          await admin.query(`drop database if exists ${name} with (force)`);
        } finally {
          await admin.end();
        }
      },
    };
  } catch (error) {
    await admin.end();
    throw error;
  }
}

/**
 * Runs one bench against a fresh portal on each database BENCH_DRIVERS names: embedded PGlite in a
 * temporary data directory, then a PostgreSQL database made for the run (skipped when unreachable).
 * Each round gets its label, the portal's environment and its data directory; both are removed after.
 */
/**
 * A round's label as a figure key's part: `pglite` or `postgres` for onEachDatabase's two ("PGlite
 * (embedded)", "PostgreSQL 16.4"), and any other round's label made a key ("PGlite after ANALYZE").
 */
export const databaseKey = (label: string) =>
  figureKey(label.replace(/^PostgreSQL.*/, 'postgres').replace(/ \(embedded\)$/, ''));

export async function onEachDatabase<T>(
  suffix: string,
  round: (label: string, env: Record<string, string>, dataDir: string) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  if (DRIVERS.includes('pglite')) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-bench-${suffix}-`));
    try {
      results.push(await round('PGlite (embedded)', { DATA_DIR: dataDir }, dataDir));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (DRIVERS.includes('postgres')) {
    const database = await createBenchDatabase(suffix);
    if (database) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-bench-${suffix}-`));
      try {
        const env = { DATA_DIR: dataDir, DATABASE_URL: database.url, SEED_DEMO: '1' };
        results.push(await round(`PostgreSQL ${database.version}`, env, dataDir));
      } finally {
        await database.drop().catch(() => {});
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
  return results;
}

async function postgresRounds(port: number, besidePostgres?: BesidePortal): Promise<Round[]> {
  const database = await createBenchDatabase('candidates');
  if (!database) return [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-candidates-pg-'));
  try {
    console.log(
      `PostgreSQL ${database.version}: seeding ${TOTAL.toLocaleString('en')} candidates in database ${database.name}...`,
    );
    // This server may run no autovacuum, and would analyze the table only within a minute of the load
    // if it did; ANALYZE makes it certain.
    const seeded = await seedDatabase({ driver: 'postgres', url: database.url }, { analyze: true });
    console.log(`  ${seeded.rows.toLocaleString('en')} rows in ${seeded.seconds.toFixed(1)} s`);
    return [
      {
        label: `PostgreSQL ${database.version}`,
        rows: seeded.rows,
        seedSeconds: seeded.seconds,
        results: await measureRound(
          'PostgreSQL',
          { driver: 'postgres', url: database.url },
          dataDir,
          port,
          seeded,
          besidePostgres,
        ),
      },
    ];
  } finally {
    await database.drop().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchCandidates({
  port,
  besidePostgres,
}: {
  port: number;
  besidePostgres?: BesidePortal;
}): Promise<void> {
  console.log(
    `\nCandidates at scale: ${TOTAL.toLocaleString('en')} candidates, ${SAMPLES} timed requests a query after ${WARM_UP} warm-up`,
  );
  const rounds: Round[] = [];
  if (DRIVERS.includes('pglite')) rounds.push(...(await pgliteRounds(port)));
  if (DRIVERS.includes('postgres')) rounds.push(...(await postgresRounds(port, besidePostgres)));
  if (!rounds.length) return;

  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(
    `\n| query | ${rounds.map((r) => `${r.label}: HTTP median / p95 | ${r.label}: raw SQL median / p95`).join(' | ')} |`,
  );
  console.log(`|---|${rounds.map(() => '---:|---:|').join('')}`);
  for (const [i, { query }] of rounds[0].results.entries()) {
    const cells = rounds.map((round) => {
      const f = round.results[i].figures;
      // The aim (p95 under 30 ms) is for every list page and search, the extras included.
      const flag = f.p95 < AIM_P95_MS ? '' : ` (aim ${AIM_P95_MS} ms missed by ${ms(f.p95 - AIM_P95_MS)})`;
      const raw = round.results[i].raw;
      return `${ms(f.median)} / ${ms(f.p95)}${flag} | ${raw ? `${ms(raw.median)} / ${ms(raw.p95)}` : '—'}`;
    });
    console.log(`| ${query} | ${cells.join(' | ')} |`);
    // The raw SQL is this figure's anchor: the ratio moves less with the machine's load than the times.
    for (const round of rounds) {
      const { figures: f, raw } = round.results[i];
      if (!raw?.median || !raw.p95) continue;
      const key = `candidates.${databaseKey(round.label)}.n${TOTAL}.${figureKey(query)}`;
      recordFigure(`${key}.http_over_sql_median`, ratio(f.median, raw.median), 'ratio', 'lower');
      recordFigure(`${key}.http_over_sql_p95`, ratio(f.p95, raw.p95), 'ratio', 'lower');
    }
  }
  console.log(
    '\nRaw SQL: the statements of the same requests sent straight to the database from the bench process ' +
      '(pg; the PGlite client), after the portal stopped, so after its own ANALYZE on PGlite.',
  );
  console.log("\nRows matched per answer, on average (the answer's total):");
  for (const round of rounds) {
    console.log(
      `  ${round.label}: ${round.results.map((r) => `${r.figures.matched ?? '?'}`).join(', ')} (${round.results
        .map((r) => r.figures.samples)
        .join(
          '/',
        )} samples); ${round.rows.toLocaleString('en')} rows seeded in ${round.seedSeconds.toFixed(1)} s`,
    );
  }
}
