import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { eq, sql } from 'drizzle-orm';
import { fillPath } from '../contract/endpoint';
import { GRID_PAGE_SIZE, type GridPage, type MarkRow, type SheetRow } from '../contract/scores';
import { SCORE_ENDPOINTS } from '../contract/scores.endpoints';
import { openDatabase, type DatabaseTarget } from '../server/db/client';
import { courseHeaders, diets, results, scoreSheets, users } from '../server/db/schema';
import { computeResults } from '../server/scores/compute';
import { resultRowsInProcess } from '../server/scores/computeInProcess';
import { CHROMIUM_ARGS } from '../playwright.config';
import {
  createBenchDatabase,
  databaseKey,
  rawSql,
  seedDatabase,
  signIn,
  startServer,
  type RawSql,
} from './bench-candidates';
import { json, ms, percentile } from './bench-payments';
import { oneStatement, resultsHash } from './bench-results-sql';
import { ratio, recordFigure } from './benchRecord';

/**
 * Score entry's figures (docs/performance.md):
 *  1. A row save over HTTP (`POST …/grids/one/rows/:candidate`, marker one of the living demo's open
 *     sheet), one after another, each from the version the last answered: median and p95, on PGlite and
 *     on PostgreSQL, beside the same check-and-write sent straight to the database.
 *  2. Results computed for 100,000 registered candidates (ten course headers, a double-marked paper each,
 *     one script in twelve out of tolerance and settled by a third marker), on both databases, beside
 *     the same rule written by hand as one `insert … select`, interleaved, the rows checked by a hash.
 *  3. Keystroke to paint on a 500-row grid in Chromium (the portal on part 2's PGlite data): each key's
 *     time from keydown to the frame after it, p50 and p95, at desk speed and with the CPU 4x slower.
 * BENCH_SAVES sizes part 1, BENCH_RESULT_CANDIDATES part 2, BENCH_KEYS part 3; BENCH_DRIVERS the databases;
 * BENCH_SCORES_PARTS which parts (saves,results,keys); BENCH_RESULT_ROUNDS part 2's rounds.
 */

const SAVES = Number(process.env.BENCH_SAVES ?? 300);
const CANDIDATES = Number(process.env.BENCH_RESULT_CANDIDATES ?? 100_000);
const KEYS = Number(process.env.BENCH_KEYS ?? 200);
const DRIVERS = (process.env.BENCH_DRIVERS ?? 'pglite,postgres').split(',').map((d) => d.trim());
const ROUNDS = Number(process.env.BENCH_RESULT_ROUNDS ?? 3);
/** BENCH_RESULTS_BEFORE=0: not the computation in TypeScript too (the slowest part at 100,000). */
const BEFORE = process.env.BENCH_RESULTS_BEFORE !== '0';
/** Which parts run: saves, results, keys (all by default); keys needs results' PGlite data. */
const PARTS = (process.env.BENCH_SCORES_PARTS ?? 'saves,results,keys').split(',').map((p) => p.trim());

// ---------------------------------------------------------------------------------------------------
// 1. Row saves.

/** One row save through pg, as the portal checks and writes it: lock the row, update it from its version. */
async function rawSave(raw: RawSql, sheetId: number, candidate: number, i: number) {
  const started = performance.now();
  await raw.query('begin');
  const { rows } = await raw.query(
    'select version from script_marks where sheet_id = $1 and candidate_id = $2 and marker = 1 for update',
    [sheetId, candidate],
  );
  await raw.query(
    'update script_marks set q1 = $4, version = version + 1, updated_at = now() where sheet_id = $1 and candidate_id = $2 and marker = 1 and version = $3',
    [sheetId, candidate, rows[0].version, (i % 20) * 10],
  );
  await raw.query('commit');
  return performance.now() - started;
}

/**
 * The row saves over HTTP; on PostgreSQL (`raw` given) each beside one raw save in the same loop, the
 * order alternating (issue 28 item 4's figure), the two sides on different rows of the grid (a raw save
 * would make the row's version the portal's client holds stale).
 */
async function httpSaves(
  env: Record<string, string>,
  dataDir: string,
  port: number,
  raw: RawSql | null = null,
) {
  const server = await startServer(env, port);
  try {
    const token = await signIn(server.url, dataDir, 'marker1@example.org');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const { sheets } = await json<{ sheets: SheetRow[] }>(
      await fetch(`${server.url}${SCORE_ENDPOINTS.sheets.path}`, { headers }),
    );
    const sheet = sheets.find((s) => s.state === 'open' && s.kind === 'exam' && s.candidates > 0)!;
    const grid = await json<GridPage<MarkRow>>(
      await fetch(server.url + fillPath(SCORE_ENDPOINTS.grid.path, { id: sheet.id, grid: 'one' }), {
        headers,
      }),
    );
    const versions = new Map(grid.rows.map((row) => [row.candidate_id, row.version]));
    const ours = raw ? grid.rows.filter((_, k) => k % 2 === 0) : grid.rows;
    const theirs = grid.rows.filter((_, k) => k % 2 === 1).map((row) => row.candidate_id);
    const timings: number[] = [];
    const rawTimings: number[] = [];
    const save = async (i: number, row = ours[i % ours.length]) => {
      const body = JSON.stringify({
        q1: String(i % 20),
        q2: '10',
        q3: '10.5',
        q4: '9',
        q5: '12',
        version: versions.get(row.candidate_id),
      });
      const started = performance.now();
      const saved = await json<MarkRow>(
        await fetch(
          server.url +
            fillPath(SCORE_ENDPOINTS.markRow.path, {
              id: sheet.id,
              grid: 'one',
              candidate: row.candidate_id,
            }),
          {
            method: 'POST',
            headers,
            body,
          },
        ),
      );
      versions.set(row.candidate_id, saved.version);
      return performance.now() - started;
    };
    // The raw side's rows saved once first: a row's marks are stored at its first save.
    if (raw) for (const row of grid.rows.filter((_, k) => k % 2 === 1)) await save(0, row);
    for (let i = 0; i < SAVES + 10; i += 1) {
      let h: number;
      let r = 0;
      if (!raw) h = await save(i);
      else if (i % 2) {
        h = await save(i);
        r = await rawSave(raw, sheet.id, theirs[i % theirs.length], i);
      } else {
        r = await rawSave(raw, sheet.id, theirs[i % theirs.length], i);
        h = await save(i);
      }
      if (i >= 10) {
        timings.push(h);
        if (raw) rawTimings.push(r);
      }
    }
    return { timings, rawTimings, sheetId: sheet.id, candidates: grid.rows.map((r) => r.candidate_id) };
  } finally {
    await server.stop();
  }
}

/**
 * The row saves over HTTP beside the same check-and-write sent straight to the database: on PostgreSQL
 * interleaved with the portal running; on PGlite after it (the portal stopped: PGlite has one connection).
 */
async function rowSaves(
  label: string,
  env: Record<string, string>,
  dataDir: string,
  port: number,
  target: DatabaseTarget,
) {
  if (target.driver === 'postgres') {
    const raw = await rawSql(target);
    try {
      const { timings, rawTimings } = await httpSaves(env, dataDir, port, raw);
      return saveLine(`${label} (interleaved)`, timings, rawTimings);
    } finally {
      await raw.close();
    }
  }
  const { timings, sheetId, candidates } = await httpSaves(env, dataDir, port);
  const handle = await openDatabase(target);
  const raw = await rawSql(target, handle.pglite);
  const rawTimings: number[] = [];
  try {
    for (let i = 0; i < SAVES; i += 1) {
      rawTimings.push(await rawSave(raw, sheetId, candidates[i % candidates.length], i));
    }
  } finally {
    await raw.close();
    await handle.close();
  }
  return saveLine(`${label} (one after the other)`, timings, rawTimings);
}

/** A line of the row saves' table, its figures recorded: the save over HTTP over its raw SQL's. */
function saveLine(label: string, timings: number[], rawTimings: number[]) {
  const [http, raw] = [timings, rawTimings].map((t) => [percentile(t, 50), percentile(t, 95)]);
  const key = `scores.${databaseKey(label.replace(/ \(.*\)$/, ''))}.row_save`;
  recordFigure(`${key}.http_over_sql_median`, ratio(http[0], raw[0]), 'ratio', 'lower');
  recordFigure(`${key}.http_over_sql_p95`, ratio(http[1], raw[1]), 'ratio', 'lower');
  return `| ${label} | ${SAVES} | ${ms(http[0])} / **${ms(http[1])}** | ${ms(raw[0])} / ${ms(raw[1])} | ${(raw[0] / http[0]).toFixed(2)}x |`;
}

// ---------------------------------------------------------------------------------------------------
// 2. Results for 100,000 candidates.

/** Every seeded candidate registered for the current diet, a double-marked paper per course header. */
async function seedMarks(target: DatabaseTarget) {
  const handle = await openDatabase(target);
  try {
    const { db } = handle;
    const [diet] = await db.select().from(diets).where(eq(diets.current, true));
    const markers = await db
      .insert(users)
      .values(
        [1, 2, 3].map((n) => ({
          name: `Bench marker ${n}`,
          email: `bench-marker${n}@example.org`,
          role: 'admin',
          passwordHash: sql`(select password_hash from users where email = 'admin@example.org')`,
        })),
      )
      .returning({ id: users.id });
    const [m1, m2, m3] = markers.map((m) => m.id);
    await db.execute(sql`insert into registrations (diet_id, candidate_id, reg_status)
      select ${diet.id}, id, 'registered' from candidates on conflict do nothing`);
    await db.execute(sql`insert into papers (course_header_id, name, q_max, tolerance_question, tolerance_total)
      select id, 'Paper I', '{200,200,200,200,200}', 20, 50 from course_headers`);
    await db.execute(sql`insert into score_sheets (kind, diet_id, course_header_id, paper_id, state, marker_one_id,
        marker_two_id, marker_three_id, marker_one_submitted_at, marker_two_submitted_at)
      select 'exam', ${diet.id}, course_header_id, id, 'reconciling', ${m1}, ${m2}, ${m3}, now(), now() from papers`);
    await db.execute(sql`with base as (
        select s.id as sheet, c.id as cand,
          (abs(hashtext(c.id::text || 'a')) % 170) + 10 as q1, (abs(hashtext(c.id::text || 'b')) % 170) + 10 as q2,
          (abs(hashtext(c.id::text || 'c')) % 170) + 10 as q3, (abs(hashtext(c.id::text || 'd')) % 170) + 10 as q4,
          (abs(hashtext(c.id::text || 'e')) % 170) + 10 as q5, abs(hashtext(c.id::text || 'f')) % 12 = 0 as apart
        from candidates c join score_sheets s on s.course_header_id = c.course_header_id and s.diet_id = ${diet.id})
      insert into script_marks (sheet_id, candidate_id, marker, q1, q2, q3, q4, q5, absent, total_score, updated_by)
      select sheet, cand, 1, q1, q2, q3, q4, q5, false, q1 + q2 + q3 + q4 + q5, ${m1}::int from base
      union all
      select sheet, cand, 2, case when apart then q1 + 40 else q1 + 5 end, q2, q3, q4, q5, false,
        q1 + q2 + q3 + q4 + q5 + case when apart then 40 else 5 end, ${m2}::int from base
      union all
      select sheet, cand, 3, q1 + 10, q2, q3, q4, q5, false, q1 + q2 + q3 + q4 + q5 + 10, ${m3}::int from base where apart`);
    const headers = await db.select({ id: courseHeaders.id }).from(courseHeaders);
    return { dietId: diet.id, headers: headers.map((h) => h.id), markerEmail: 'bench-marker1@example.org' };
  } finally {
    await handle.close();
  }
}

/** One figure of seconds from a start. */
const since = (started: number) => (performance.now() - started) / 1000;

/**
 * The diet's results, interleaved round by round: the portal's computation (computeResults for each
 * course header in its own transaction: the contract's rule compiled to SQL) and the one statement
 * written by hand (scripts/bench-results-sql.ts), in turn first, each into an emptied `results`, their rows compared by
 * a hash over every result; then once the computation in this process (the portal before issue 28,
 * kept as the tests' oracle). A different hash stops the bench.
 */
async function computeAll(target: DatabaseTarget, dietId: number, headers: number[]) {
  const handle = await openDatabase(target);
  const raw = await rawSql(target, handle.pglite);
  try {
    const [portal, one]: number[][] = [[], []];
    let checked = { rows: 0, hash: '' };
    const byThePortal = async () => {
      await raw.query('delete from results where diet_id = $1', [dietId]);
      const started = performance.now();
      for (const header of headers) await handle.db.transaction((tx) => computeResults(tx, dietId, header));
      portal.push(since(started));
      return resultsHash(raw, dietId);
    };
    const byOneStatement = async () => {
      one.push(await oneStatement(raw, dietId));
      return resultsHash(raw, dietId);
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      // The order alternates: whichever runs first after `results` is emptied finds colder pages.
      const portalFirst = round % 2 === 0;
      const ours = portalFirst ? await byThePortal() : null;
      const theirs = await byOneStatement();
      const mine = ours ?? (await byThePortal());
      if (mine.hash !== theirs.hash || mine.rows !== theirs.rows)
        throw new Error(`Results differ: ${JSON.stringify(mine)} against ${JSON.stringify(theirs)}`);
      checked = mine;
      console.log(
        `  round ${round + 1} (${portalFirst ? 'portal' : 'one statement'} first): portal ${portal[round].toFixed(2)} s, one statement ${one[round].toFixed(2)} s`,
      );
    }
    let before: number | null = null;
    if (BEFORE) {
      await raw.query('delete from results where diet_id = $1', [dietId]);
      const started = performance.now();
      for (const header of headers)
        await handle.db.transaction(async (tx) => {
          const rows = await resultRowsInProcess(tx, dietId, header);
          for (let i = 0; i < rows.length; i += 1000)
            await tx.insert(results).values(rows.slice(i, i + 1000));
        });
      before = since(started);
      const then = await resultsHash(raw, dietId);
      if (then.hash !== checked.hash) throw new Error('The computation in TypeScript differs');
    }
    const [sheet] = await handle.db
      .select({ id: scoreSheets.id })
      .from(scoreSheets)
      .where(eq(scoreSheets.dietId, dietId))
      .limit(1);
    return { portal, one, before, ...checked, sheet: sheet.id };
  } finally {
    await raw.close();
    await handle.close();
  }
}

const median = (xs: number[]) => percentile(xs, 50);

/** A line of the results table. */
function computeLine(label: string, c: Awaited<ReturnType<typeof computeAll>>) {
  const [p, o] = [median(c.portal), median(c.one)];
  // The one statement written by hand is the anchor, run interleaved with the portal's computation.
  const key = `scores.${databaseKey(label)}.n${CANDIDATES}.results`;
  recordFigure(`${key}.portal_over_one_statement`, ratio(p, o), 'ratio', 'lower');
  return `| ${label} | ${c.rows.toLocaleString('en')} | **${p.toFixed(2)} s** | ${o.toFixed(2)} s | **${(p / o).toFixed(2)}x** | ${c.portal.map((x) => x.toFixed(2)).join(', ')} / ${c.one.map((x) => x.toFixed(2)).join(', ')} | ${c.before === null ? '-' : `${c.before.toFixed(1)} s`} | \`${c.hash.slice(0, 12)}\` |`;
}

// ---------------------------------------------------------------------------------------------------
// 3. Keystroke to paint.

async function keystrokes(url: string, token: string, sheetId: number, throttle: number) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const context = await browser.newContext();
    await context.addCookies([
      { name: 'token', value: token, url },
      { name: 'user_role', value: 'admin', url },
    ]);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await page.goto(`${url}/score/sheet?sheet=${sheetId}&grid=one`);
    const inputs = page.getByRole('textbox', { name: /^Q1: / });
    await inputs.first().waitFor({ timeout: 60_000 });
    const rows = await inputs.count();
    if (throttle > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    // Each key: from its keydown to the frame painted after React has rendered what it typed.
    await page.evaluate(() => {
      const samples: number[] = [];
      (window as unknown as { keySamples: number[] }).keySamples = samples;
      document.addEventListener(
        'keydown',
        (event) => {
          const start = event.timeStamp;
          requestAnimationFrame(() => setTimeout(() => samples.push(performance.now() - start), 0));
        },
        true,
      );
    });
    await inputs.first().focus();
    for (let i = 0; i < KEYS; i += 1) {
      await page.keyboard.press(i % 3 === 2 ? 'Tab' : String((i * 7) % 10));
      await page.waitForTimeout(30);
    }
    await page.waitForTimeout(1500);
    const samples = await page.evaluate(() => (window as unknown as { keySamples: number[] }).keySamples);
    return { rows, p50: percentile(samples, 50), p95: percentile(samples, 95) };
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------------------------------

export async function benchScores({ port }: { port: number }) {
  const saveLines: string[] = [];
  const computeLines: string[] = [];
  const keyLines: string[] = [];

  if (DRIVERS.includes('pglite')) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-scores-'));
    try {
      const target: DatabaseTarget = { driver: 'pglite', dataDir };
      if (PARTS.includes('saves'))
        saveLines.push(await rowSaves('PGlite (embedded)', { DATA_DIR: dataDir }, dataDir, port, target));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    const bigDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-results-'));
    try {
      const target: DatabaseTarget = { driver: 'pglite', dataDir: bigDir };
      console.log(`PGlite: seeding ${CANDIDATES.toLocaleString('en')} candidates and their marks...`);
      await seedDatabase(target, { total: CANDIDATES, analyze: true, log: false });
      const seeded = await seedMarks(target);
      const computed = await computeAll(target, seeded.dietId, seeded.headers);
      computeLines.push(computeLine('PGlite (embedded)', computed));
      // The grid: a sheet of ~10,000 candidates, shown 500 a page, in Chromium.
      const server = PARTS.includes('keys') ? await startServer({ DATA_DIR: bigDir }, port) : null;
      if (server)
        try {
          const token = await signIn(server.url, bigDir, seeded.markerEmail);
          for (const throttle of [1, 4]) {
            const keys = await keystrokes(server.url, token, computed.sheet, throttle);
            // No anchor: keystroke to paint is absolute, read with the load beside it.
            recordFigure(
              `scores.keystroke.n${CANDIDATES}.cpu_${throttle}x.p95_ms`,
              Number(keys.p95.toFixed(1)),
              'ms',
              'lower',
            );
            keyLines.push(
              `| ${throttle === 1 ? 'desk (no throttling)' : 'CPU 4x slower'} | ${keys.rows} | ${KEYS} | ${ms(keys.p50)} / **${ms(keys.p95)}** |`,
            );
          }
        } finally {
          await server.stop();
        }
    } finally {
      fs.rmSync(bigDir, { recursive: true, force: true });
    }
  }

  if (DRIVERS.includes('postgres')) {
    const database = PARTS.includes('saves') ? await createBenchDatabase('scores') : null;
    if (database) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-scores-'));
      try {
        const target: DatabaseTarget = { driver: 'postgres', url: database.url };
        const env = { DATA_DIR: dataDir, DATABASE_URL: database.url, SEED_DEMO: '1' };
        saveLines.push(await rowSaves(`PostgreSQL ${database.version}`, env, dataDir, port, target));
      } finally {
        await database.drop().catch(() => {});
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
    const big = PARTS.includes('results') ? await createBenchDatabase('results') : null;
    if (big) {
      try {
        const target: DatabaseTarget = { driver: 'postgres', url: big.url };
        console.log(`PostgreSQL: seeding ${CANDIDATES.toLocaleString('en')} candidates and their marks...`);
        await seedDatabase(target, { total: CANDIDATES, analyze: true, log: false });
        const seeded = await seedMarks(target);
        const computed = await computeAll(target, seeded.dietId, seeded.headers);
        computeLines.push(computeLine(`PostgreSQL ${big.version}`, computed));
      } finally {
        await big.drop().catch(() => {});
      }
    }
  }

  console.log(
    `\nA row save over HTTP, ${SAVES} one after another (ms, median / p95; load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}):`,
  );
  console.log(
    '| database | saves | over HTTP | raw SQL (lock, check the version, update) | raw / HTTP (medians) |',
  );
  console.log('| --- | --: | --: | --: | --: |');
  for (const line of saveLines) console.log(line);
  console.log(
    `\nResults computed for every registered candidate of a diet (${ROUNDS} rounds, interleaved; load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}):`,
  );
  console.log(
    '| database | results | portal (median) | one statement (median) | portal / statement | each round: portal / statement | in TypeScript (before) | hash of every row (both) |',
  );
  console.log('| --- | --: | --: | --: | --: | --- | --: | --- |');
  for (const line of computeLines) console.log(line);
  console.log(`\nKeystroke to paint on a grid page of ${GRID_PAGE_SIZE} rows (ms, median / p95):`);
  console.log('| CPU | rows on the page | keys | keydown to the next frame |');
  console.log('| --- | --: | --: | --: |');
  for (const line of keyLines) console.log(line);
}
