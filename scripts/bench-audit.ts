/**
 * A part of `npm run bench` (scripts/bench.ts, BENCH_ONLY=audit): the audit trail at 1,000,000 entries
 * (issue 27), on PGlite and on PostgreSQL.
 *
 * For each database: migrated, the demo's sign-ins, 100 schools and 300 school admins, then
 * BENCH_AUDIT_ROWS (1,000,000) entries in one INSERT ... SELECT FROM generate_series, the audit log's
 * indexes dropped for the load and made again after it, then ANALYZE: eight months of entries, 20 s
 * apart, each action of the catalogue in turn, a user in turn, one in 200 behind an impersonation by the
 * board admin, nine in ten filed under a school. Then the portal is started as `npm start` runs it and
 * each filter of GET /api/admin/audit-trail is timed over HTTP (median, p95), its parameters varied at
 * each request; after the portal stopped (PGlite is one process's), the same requests' SQL as the list
 * sends it (server/lists/route.ts listStatements: the page, and the total's statements when the page is
 * full), straight to the database. The aim is a p95 under 100 ms for each filter on both.
 */
import os from 'node:os';
import { AUDIT_ACTIONS } from '../contract/audit';
import { AUDIT_TRAIL_LIST } from '../contract/lists';
import { DEFAULT_PER_PAGE } from '../contract/pagination';
import { auditTrailSource } from '../server/auditTrail/source';
import { openDatabase, type DatabaseTarget } from '../server/db/client';
import { ensureReferenceData } from '../server/db/reference';
import { isEmpty, seedSignIns } from '../server/demo';
import { listStatements } from '../server/lists/route';
import { ADMIN, databaseKey, onEachDatabase, rawSql, signIn, startServer } from './bench-candidates';
import { figureKey, ratio, recordFigure } from './benchRecord';

const ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
const WARM_UP = 10;
const AIM_P95_MS = 100;
const STEP_SECONDS = 20;

const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];

interface Timing {
  median: number;
  p95: number;
  samples: number;
}

const summary = (times: number[]): Timing => {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), samples: sorted.length };
};

const ACTIONS = Object.entries(AUDIT_ACTIONS);
const sqlText = (values: string[]) => `array[${values.map((v) => `'${v}'`).join(',')}]`;

/** The schools, the school admins and the million entries (see the top of this file). */
async function seed(target: DatabaseTarget): Promise<{ seconds: number; maxId: number; days: number }> {
  const handle = await openDatabase(target);
  const raw = await rawSql(target, handle.pglite);
  const started = performance.now();
  try {
    await handle.migrate();
    await ensureReferenceData(handle.db);
    if (await isEmpty(handle.db)) await seedSignIns(handle.db);
    const q = (text: string) => raw.query(text);
    await q(`insert into training_schools (code, name, state, status)
      select 'AT-' || lpad(g::text, 4, '0'), 'Audit Bench School ' || g, 'Lagos', 'active'
      from generate_series(1, 100) g on conflict do nothing`);
    await q(`insert into users (name, email, role, training_school_id, password_hash)
      select 'Bench Admin ' || g, 'bench' || g || '@example.org', 'school_admin',
        (select id from training_schools where code = 'AT-' || lpad((1 + g % 100)::text, 4, '0')), 'x'
      from generate_series(1, 300) g on conflict do nothing`);
    const { rows: indexes } = await q(
      `select indexname, indexdef from pg_indexes where tablename = 'audit_log' and indexname <> 'audit_log_pkey'`,
    );
    for (const index of indexes) await q(`drop index ${String(index.indexname)}`);
    await q(`insert into audit_log (at, actor_id, impersonator_id, action, entity, entity_id, school_id, before, after, ip, request_id)
      select now() - ((${ROWS} - g) * interval '${STEP_SECONDS} seconds'),
        u.ids[1 + (g::bigint * 7919) % array_length(u.ids, 1)],
        case when g % 200 = 0 then a.id end,
        (${sqlText(ACTIONS.map(([action]) => action))})[1 + g % ${ACTIONS.length}],
        (${sqlText(ACTIONS.map(([, entity]) => entity))})[1 + g % ${ACTIONS.length}],
        (g % 50000)::text,
        case when g % 10 <> 0 then s.ids[1 + (g::bigint * 31) % array_length(s.ids, 1)] end,
        jsonb_build_object('status', 'before', 'n', g % 7),
        jsonb_build_object('status', 'after', 'n', g % 11),
        '10.0.' || (g % 250) || '.' || (g % 200), 'bench-' || g
      from generate_series(1, ${ROWS}) g,
        (select array_agg(id order by id) ids from users) u,
        (select array_agg(id order by id) ids from training_schools) s,
        (select id from users where email = '${ADMIN}') a`);
    for (const index of indexes) await q(String(index.indexdef));
    await q('analyze');
    const { rows } = await q('select max(id) as id from audit_log');
    return {
      seconds: (performance.now() - started) / 1000,
      maxId: Number(rows[0].id),
      days: Math.floor((ROWS * STEP_SECONDS) / 86_400),
    };
  } finally {
    await raw.close();
    await handle.close();
  }
}

/** A day `back` days before today, YYYY-MM-DD (UTC: near enough to a Lagos day for a range). */
const dayBefore = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);

interface Filter {
  label: string;
  params: (i: number) => Record<string, string>;
}

function filters(seeded: { maxId: number; days: number }): Filter[] {
  const some = (i: number, n: number) => (i * 37) % n;
  return [
    { label: 'no filter (the newest page)', params: () => ({}) },
    { label: 'actor (one of 303 users)', params: (i) => ({ actor: `bench${1 + some(i, 300)}@example.org` }) },
    { label: 'impersonator (1 in 200 entries)', params: () => ({ impersonator: ADMIN }) },
    {
      label: 'action (one of the catalogue)',
      params: (i) => ({ action: ACTIONS[some(i, ACTIONS.length)][0] }),
    },
    {
      label: 'record and its number (a History)',
      params: (i) => {
        const g = 1 + some(i * 101, seeded.maxId - 1);
        return { entity: ACTIONS[g % ACTIONS.length][1], entity_id: String(g % 50000) };
      },
    },
    {
      label: 'school (one of 100)',
      params: (i) => ({ school: `AT-${String(1 + some(i, 100)).padStart(4, '0')}` }),
    },
    {
      label: 'one day, anywhere in eight months',
      params: (i) => {
        const day = dayBefore(1 + some(i, seeded.days - 2));
        return { from: day, to: day };
      },
    },
    {
      label: 'school + action + a month',
      params: (i) => ({
        school: `AT-${String(1 + some(i, 100)).padStart(4, '0')}`,
        action: ACTIONS[some(i, ACTIONS.length)][0],
        from: dayBefore(30 + some(i, 150)),
      }),
    },
    {
      label: 'a deep page by cursor (no filter)',
      params: (i) => ({ page: '2', after: String(1 + some(i * 7919, seeded.maxId - 1)) }),
    },
  ];
}

interface Row {
  label: string;
  seedSeconds: number;
  http: Timing[];
  raw: Timing[];
}

export async function benchAudit({ port }: { port: number }): Promise<void> {
  console.log(
    `\nThe audit trail at ${ROWS.toLocaleString('en')} entries: ${SAMPLES} timed requests a filter after ${WARM_UP} warm-up`,
  );
  let shown: Filter[] = [];
  const rows = await onEachDatabase('audit', async (label, env, dataDir): Promise<Row> => {
    const target: DatabaseTarget = env.DATABASE_URL
      ? { driver: 'postgres', url: env.DATABASE_URL }
      : { driver: 'pglite', dataDir };
    console.log(`${label}: seeding...`);
    const seeded = await seed(target);
    console.log(`  ${ROWS.toLocaleString('en')} entries in ${seeded.seconds.toFixed(1)} s`);
    const list = filters(seeded);
    shown = list;
    const http: Timing[] = [];
    const server = await startServer(env, port);
    try {
      const token = await signIn(server.url, dataDir, ADMIN);
      for (const filter of list) {
        const times: number[] = [];
        for (let i = 0; i < WARM_UP + SAMPLES; i++) {
          const query = new URLSearchParams(filter.params(i));
          const started = performance.now();
          const response = await fetch(`${server.url}${AUDIT_TRAIL_LIST.path}?${query}`, {
            headers: { accept: 'application/json', authorization: `Bearer ${token}` },
          });
          await response.json();
          if (response.status !== 200) throw new Error(`GET ${query}: ${response.status}`);
          if (i >= WARM_UP) times.push(performance.now() - started);
        }
        http.push(summary(times));
      }
    } finally {
      await server.stop();
    }
    // The same requests' SQL, straight to the database, once the portal has let it go.
    const handle = await openDatabase(target);
    const raw = await rawSql(target, handle.pglite);
    const sqlTimes: Timing[] = [];
    try {
      for (const filter of list) {
        const times: number[] = [];
        for (let i = 0; i < WARM_UP + SAMPLES; i++) {
          const params = filter.params(i);
          const page = Number(params.page ?? 1);
          const [first, ...total] = await listStatements(
            handle.db,
            AUDIT_TRAIL_LIST,
            auditTrailSource,
            { kind: 'board' },
            params,
          );
          const started = performance.now();
          const { rows: found } = await raw.query(first.text, first.values);
          if (found.length > DEFAULT_PER_PAGE || (found.length === 0 && page > 1)) {
            for (const statement of total) await raw.query(statement.text, statement.values);
          }
          if (i >= WARM_UP) times.push(performance.now() - started);
        }
        sqlTimes.push(summary(times));
      }
    } finally {
      await raw.close();
      await handle.close();
    }
    return { label, seedSeconds: seeded.seconds, http, raw: sqlTimes };
  });
  const ms = (t: Timing) => `${t.median.toFixed(1)} / ${t.p95.toFixed(1)} ms`;
  for (const row of rows) {
    console.log(`\n${row.label} (seeded in ${row.seedSeconds.toFixed(0)} s)`);
    console.log('| filter | HTTP median / p95 | its SQL alone, median / p95 |');
    console.log('|---|---:|---:|');
    shown.forEach((filter, i) => {
      const flag = row.http[i].p95 < AIM_P95_MS ? '' : ` (aim ${AIM_P95_MS} ms missed)`;
      console.log(`| ${filter.label} | ${ms(row.http[i])}${flag} | ${ms(row.raw[i])} |`);
      // Its SQL alone is the anchor, as the candidates part's.
      const key = `audit.${databaseKey(row.label)}.n${ROWS}.${figureKey(filter.label)}`;
      recordFigure(
        `${key}.http_over_sql_median`,
        ratio(row.http[i].median, row.raw[i].median),
        'ratio',
        'lower',
      );
      recordFigure(`${key}.http_over_sql_p95`, ratio(row.http[i].p95, row.raw[i].p95), 'ratio', 'lower');
    });
  }
  console.log(
    `  load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} (${os.cpus().length} cores)`,
  );
}
