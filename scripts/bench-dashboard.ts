/**
 * A part of `npm run bench` (scripts/bench.ts, BENCH_ONLY=dashboard): the board's Dashboard at
 * 100,000 candidates and 1,000 schools, on PGlite and on PostgreSQL.
 *
 * For each database: 1,000 training schools, then the candidates' seed of the candidates part
 * (scripts/bench-candidates.ts seedDatabase: 100,000 candidates, half the verified registered for the
 * current diet, a third of everyone for the past one), and what makes a dashboard mid-year: the current
 * diet's registrations spread over 30 days, its registration fee credited for four in five registered
 * (one payment each, paid over the last ten days), the past diet's results published for every course
 * header (a published result for each of its registrations, three in four passed), 40 score sheets with
 * scripts waiting for a third mark, 5,000 notifications (200 unread) and 50 open reconciliation items.
 * Then the portal is started as `npm start` runs it and GET /api/admin/dashboard (and a school admin's)
 * is timed over HTTP; beside it, the same service called in this process (its SQL without HTTP).
 */
import { openDatabase, type DatabaseTarget } from '../server/db/client';
import { ensureReferenceData } from '../server/db/reference';
import { trainingSchools } from '../server/db/schema';
import { isEmpty, seedSignIns } from '../server/demo';
import { boardDashboard } from '../server/dashboard/service';
import { DASHBOARD_ENDPOINTS } from '../contract/dashboard.endpoints';
import {
  ADMIN,
  SCHOOL_ADMIN,
  TOTAL,
  databaseKey,
  onEachDatabase,
  rawSql,
  seedDatabase,
  signIn,
  startServer,
} from './bench-candidates';
import { ratio, recordFigure } from './benchRecord';
import os from 'node:os';

const SCHOOLS = Number(process.env.BENCH_SCHOOLS ?? 1_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const WARM_UP = 20;
const AIM_P95_MS = 100;

const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];

interface Timing {
  median: number;
  p95: number;
  samples: number;
}

async function time(run: () => Promise<void>): Promise<Timing> {
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + SAMPLES; i++) {
    const started = performance.now();
    await run();
    if (i >= WARM_UP) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), p95: percentile(times, 0.95), samples: times.length };
}

/** 1,000 schools before the candidates' seed spreads its candidates over them. */
async function seedSchools(target: DatabaseTarget) {
  const handle = await openDatabase(target);
  try {
    await handle.migrate();
    await ensureReferenceData(handle.db);
    if (await isEmpty(handle.db)) await seedSignIns(handle.db);
    const rows = Array.from({ length: SCHOOLS - 40 }, (_, i) => ({
      code: `BS-${String(i + 1).padStart(4, '0')}`,
      name: `Bench School of Health Technology ${i + 1}`,
      state: 'Lagos',
      status: i % 25 === 0 ? ('suspended' as const) : ('active' as const),
    }));
    for (let start = 0; start < rows.length; start += 500) {
      await handle.db
        .insert(trainingSchools)
        .values(rows.slice(start, start + 500))
        .onConflictDoNothing();
    }
  } finally {
    await handle.close();
  }
}

/** What makes the dashboard mid-year, in a few statements (see the top of this file). */
async function seedMidYear(target: DatabaseTarget) {
  const handle = await openDatabase(target);
  const raw = await rawSql(target, handle.pglite);
  try {
    const q = (text: string) => raw.query(text);
    await q(`update registrations r set created_at = now() - ((r.candidate_id % 30) * interval '1 day')
      - ((r.candidate_id % 17) * interval '1 hour') from diets d where d.id = r.diet_id and d.current`);
    await q(`insert into fees (title, kind, basis, amount_kobo, diet_id)
      select 'Registration fee', 'registration', 'candidate', 1500000, id from diets where current`);
    await q(`insert into payments (reference, provider, fee_id, training_school_id, amount_kobo, status, email, paid_at)
      select 'BENCH-' || c.id, 'sandbox', f.id, c.training_school_id, 1500000, 'paid', 'bench@example.org',
        now() - ((c.id % 10) * interval '1 day')
      from registrations r join diets d on d.id = r.diet_id and d.current
      join candidates c on c.id = r.candidate_id
      join fees f on f.diet_id = d.id and f.kind = 'registration'
      where c.id % 5 <> 0`);
    await q(`insert into payment_items (payment_id, fee_id, training_school_id, candidate_id, amount_kobo, credited)
      select p.id, p.fee_id, p.training_school_id, substr(p.reference, 7)::int, p.amount_kobo, true
      from payments p where p.reference like 'BENCH-%'`);
    await q(`insert into result_publications (diet_id, course_header_id, published_at)
      select d.id, h.id, now() - interval '60 days' from diets d, course_headers h where d.closed_at is not null`);
    await q(`insert into published_results (diet_id, course_header_id, candidate_id, training_school_id, final_mark, grade, outcome, published_at)
      select r.diet_id, c.course_header_id, c.id, c.training_school_id, 600, 'C', case when c.id % 4 = 0 then 'fail' else 'pass' end,
        now() - interval '60 days'
      from registrations r join diets d on d.id = r.diet_id and d.closed_at is not null
      join candidates c on c.id = r.candidate_id`);
    const [{ id: admin }] = (await q(`select id from users where email = '${ADMIN}'`)).rows;
    await q(`insert into score_sheets (kind, diet_id, course_header_id, marker_one_id, state, flagged)
      select 'in_course', d.id, h.id, ${Number(admin)}, (array['open','reconciling','locked'])[1 + h.id % 3], h.id % 7
      from diets d, course_headers h where d.current`);
    await q(`insert into notifications (kind, title, body, created_at, read_at)
      select 'message', 'Bench message ' || g, 'A message', now() - g * interval '1 minute',
        case when g > 200 then now() end from generate_series(1, 5000) g`);
    await q(`insert into payment_issues (kind, reference, detail)
      select 'amount_mismatch', 'BENCH-ISSUE-' || g, 'A bench item' from generate_series(1, 50) g`);
    await q('analyze');
  } finally {
    await raw.close();
    await handle.close();
  }
}

interface Row {
  label: string;
  board: Timing;
  school: Timing;
  service: Timing;
  counts: string;
}

export async function benchDashboard({ port }: { port: number }): Promise<void> {
  console.log(
    `\nThe Dashboard at scale: ${SCHOOLS.toLocaleString('en')} schools, ${SAMPLES} timed requests after ${WARM_UP} warm-up`,
  );
  const rows = await onEachDatabase('dashboard', async (label, env, dataDir): Promise<Row> => {
    const target: DatabaseTarget = env.DATABASE_URL
      ? { driver: 'postgres', url: env.DATABASE_URL }
      : { driver: 'pglite', dataDir };
    console.log(`${label}: seeding...`);
    const started = performance.now();
    await seedSchools(target);
    const seeded = await seedDatabase(target, { analyze: false, log: false });
    await seedMidYear(target);
    console.log(
      `  ${seeded.rows.toLocaleString('en')} candidates in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const server = await startServer(env, port);
    let board: Timing, school: Timing;
    try {
      const admin = await signIn(server.url, dataDir, ADMIN);
      const schoolAdmin = await signIn(server.url, dataDir, SCHOOL_ADMIN);
      const get = (path: string, token: string) => async () => {
        const response = await fetch(server.url + path, {
          headers: { accept: 'application/json', authorization: `Bearer ${token}` },
        });
        await response.json();
        if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
      };
      board = await time(get(DASHBOARD_ENDPOINTS.overview.admin.path, admin));
      school = await time(get(DASHBOARD_ENDPOINTS.overview.school_admin.path, schoolAdmin));
    } finally {
      await server.stop();
    }
    // The service's statements in this process (no HTTP, no token, no JSON), after the portal stopped.
    const handle = await openDatabase(target);
    try {
      const answer = await boardDashboard(handle.db, new Date());
      const service = await time(async () => {
        await boardDashboard(handle.db, new Date());
      });
      const counts = `${answer.schools.active + answer.schools.suspended} schools, ${answer.candidates.indexed} indexed, ${answer.candidates.registered} registered, ${answer.candidates.paid} paid, ${answer.pass_rates?.results ?? 0} published results`;
      return { label, board, school, service, counts };
    } finally {
      await handle.close();
    }
  });
  const ms = (t: Timing) => `${t.median.toFixed(1)} / ${t.p95.toFixed(1)} ms`;
  console.log(
    `\n| database | board: HTTP median / p95 | school admin: HTTP median / p95 | board: the service's SQL alone |`,
  );
  console.log('|---|---:|---:|---:|');
  for (const row of rows) {
    const flag = row.board.p95 < AIM_P95_MS ? '' : ` (aim ${AIM_P95_MS} ms missed)`;
    console.log(`| ${row.label} | ${ms(row.board)}${flag} | ${ms(row.school)} | ${ms(row.service)} |`);
    // The board's service called in this process is its anchor; the school admin's has none (its p95 is
    // absolute, the load stored beside it).
    const key = `dashboard.${databaseKey(row.label)}.n${TOTAL}`;
    recordFigure(
      `${key}.board.http_over_sql_median`,
      ratio(row.board.median, row.service.median),
      'ratio',
      'lower',
    );
    recordFigure(`${key}.board.http_over_sql_p95`, ratio(row.board.p95, row.service.p95), 'ratio', 'lower');
    recordFigure(`${key}.school_admin.p95_ms`, Number(row.school.p95.toFixed(1)), 'ms', 'lower');
  }
  for (const row of rows) console.log(`  ${row.label}: ${row.counts}`);
  console.log(
    `  load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} (${os.cpus().length} cores)`,
  );
}
