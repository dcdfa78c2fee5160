/**
 * A part of `npm run bench` (scripts/bench.ts): Lighthouse, mobile preset (issue 28).
 *
 * Lighthouse (the npm package, its default form factor and simulated throttling: a mid-range phone, slow
 * 4G, the CPU 4x slower) audits the portal as `npm start` runs it (scripts/start.mjs on a fresh data
 * directory, so the demo is seeded) on: /login; the Dashboard of the board admin and of a school admin;
 * a school admin's Registered Candidates list; the board admin's printable candidate list of the current
 * diet for SHT-IB (/print-document/candidate-list). Beside it, in the same run, the one-form React login
 * of ../shared/anchors/lean-login (built with the project's own Vite, served at /login by a second portal
 * started with DIST_DIR), because Lighthouse's performance score moves with the machine's load: the
 * rounds are interleaved (every page once, then again, BENCH_LIGHTHOUSE_RUNS times, default 3).
 *
 * Chromium (CHROMIUM_PATH, default /usr/bin/chromium) is launched here, headless, with a remote-debugging
 * port Lighthouse connects to. The SPA keeps its session in two cookies (the token and the role,
 * src/api/cookies.ts), which Lighthouse does not clear between runs (it clears the cache and the origin's
 * service workers and cache storage): before each signed-in page, the cookies of a real two-step sign-in
 * (bench-candidates' signIn, once per role) are set in the browser, and before /login they are cleared.
 *
 * Printed per page: the performance, accessibility and best-practices scores (median and range), FCP,
 * LCP, TBT, CLS and bytes transferred (medians), and Lighthouse's top 3 opportunities and diagnostics by
 * estimated savings (medians over the runs). Recorded (scripts/benchRecord.ts): the ratios to the
 * anchor, the bytes, and the accessibility and best-practices scores. Never fails on a figure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import type { DocumentCatalogue } from '../contract/documents';
import { DOCUMENT_ENDPOINTS } from '../contract/documents.endpoints';
import { HOME_PATH, LOGIN_PATH, PRINT_DOCUMENT_PREFIX } from '../contract/paths';
import { ROLE_COOKIE, TOKEN_COOKIE, type Role } from '../contract/roles';
import { ADMIN, SCHOOL_ADMIN, signIn, startServer, type Running } from './bench-candidates';
import { buildAnchor } from './benchAnchor';
import { median, ratio, recordFigure } from './benchRecord';
import { freePort } from './ports';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3));
/**
 * Another build of the SPA (a dist folder, e.g. the previous commit's): its signed-in pages are audited
 * too, in the same rounds, from a third portal, for a before-and-after on the same load. Nothing is
 * recorded in docs/bench/figures.json on such a run.
 */
const BASELINE_DIST = process.env.BENCH_LIGHTHOUSE_BASELINE_DIST;
/** A folder each run's whole Lighthouse report (JSON) is written to, to read its trace-based audits. */
const REPORTS_DIR = process.env.BENCH_LIGHTHOUSE_REPORTS;
/** Only these pages (their keys, comma-separated), to look at one page closely. */
const ONLY_PAGES = process.env.BENCH_LIGHTHOUSE_PAGES?.split(',').filter(Boolean);
/** Building the app and the server and seeding the demo: minutes on a busy shared machine. */
const START_LIMIT_MS = 600_000;
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const METRICS = {
  fcp: 'first-contentful-paint',
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  bytes: 'total-byte-weight',
} as const;
type Metric = keyof typeof METRICS;

interface Page {
  /** The key its figures are recorded under. */
  key: string;
  label: string;
  /** 'anchor': the lean login's portal; 'baseline': another build of the SPA (BENCH_LIGHTHOUSE_BASELINE_DIST). */
  portal: 'ours' | 'anchor' | 'baseline';
  path: string;
  /** Signed in as this role, or signed out. */
  as: Role | null;
}

interface Run {
  scores: Record<(typeof CATEGORIES)[number], number>;
  metrics: Record<Metric, number>;
  /** Audit id → [title, estimated savings in ms, in bytes]. */
  savings: Map<string, { title: string; ms: number; bytes: number }>;
  warnings: string[];
  /** The accessibility and best-practices audits that did not pass: what stands between them and 100. */
  failed: string[];
  /** Where the page ended (a signed-in page that lands on /login lost its session). */
  landed: string;
  /** The largest contentful paint's element, as Lighthouse's LCP breakdown names it (its text, or its tag). */
  lcpElement: string | null;
}

// ---------------------------------------------------------------------------------------------------
// The anchor, the portals and the browser.

interface Browser {
  port: number;
  stop(): Promise<void>;
}

/** Chromium, headless, with a remote-debugging port and a profile of its own. */
async function launchChromium(profileDir: string): Promise<Browser> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    [
      '--headless=new',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profileDir}`,
      '--no-first-run',
      '--no-default-browser-check',
      // Chromium refuses to run as root with its sandbox (this machine's bench runs as root).
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error('Chromium exited at start');
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) return { port, stop };
    } catch {
      // Not listening yet.
    }
    if (performance.now() - started > 30_000) {
      await stop();
      throw new Error('Chromium did not open its debugging port in 30 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The browser's cookies for 127.0.0.1 (both portals: cookies do not tell ports apart): none, or a session's. */
async function setSession(browser: Browser, url: string, session: { token: string; role: Role } | null) {
  const connected = await chromium.connectOverCDP(`http://127.0.0.1:${browser.port}`);
  try {
    const context = connected.contexts()[0];
    await context.clearCookies();
    if (session) {
      await context.addCookies(
        [
          [TOKEN_COOKIE, session.token],
          [ROLE_COOKIE, session.role],
        ].map(([name, value]) => ({ name, value, url, sameSite: 'Strict' as const })),
      );
    }
  } finally {
    // Connected, not launched: this disconnects and leaves the browser running.
    await connected.close();
  }
}

/** The current diet's code, from the documents' catalogue as the board admin gets it. */
async function currentDiet(url: string, token: string): Promise<string> {
  const response = await fetch(url + DOCUMENT_ENDPOINTS.catalogue.admin.path, {
    headers: { accept: 'application/json', authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as { data: DocumentCatalogue };
  if (!response.ok) throw new Error(`the documents' catalogue: ${response.status}`);
  const diets = body.data.options.diets;
  return (diets.find((d) => d.current) ?? diets[0]).code;
}

// ---------------------------------------------------------------------------------------------------
// Lighthouse.

async function audit(url: string, port: number, reportName: string): Promise<Run | string> {
  const flags: Flags = {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
  };
  let lhr: Result;
  try {
    const result = await lighthouse(url, flags);
    if (!result) return 'Lighthouse gave no result';
    lhr = result.lhr;
  } catch (error) {
    return `Lighthouse failed: ${(error as Error).message}`;
  }
  if (lhr.runtimeError) return `Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
  if (REPORTS_DIR) {
    fs.mkdirSync(REPORTS_DIR, { recursive: true });
    fs.writeFileSync(path.join(REPORTS_DIR, `${reportName}.json`), JSON.stringify(lhr));
  }
  const scores = Object.fromEntries(
    CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
  ) as Run['scores'];
  const metrics = Object.fromEntries(
    Object.entries(METRICS).map(([name, id]) => [name, lhr.audits[id]?.numericValue ?? NaN]),
  ) as Run['metrics'];
  // Opportunities and diagnostics: the performance category's audits that did not pass, with the time
  // Lighthouse estimates fixing them saves (its metric savings, FCP + LCP + TBT) and the bytes.
  const savings: Run['savings'] = new Map();
  for (const ref of lhr.categories.performance?.auditRefs ?? []) {
    const result = lhr.audits[ref.id];
    if (!result || result.score === null || result.score >= 0.9 || ref.group === 'metrics') continue;
    const s = result.metricSavings ?? {};
    const details = (result.details ?? {}) as { overallSavingsMs?: number; overallSavingsBytes?: number };
    const ms = (s.FCP ?? 0) + (s.LCP ?? 0) + (s.TBT ?? 0) || (details.overallSavingsMs ?? 0);
    const bytes = details.overallSavingsBytes ?? 0;
    if (ms > 0 || bytes > 0)
      savings.set(ref.id, {
        title: `${result.title}${result.displayValue ? ` (${result.displayValue})` : ''}`,
        ms,
        bytes,
      });
  }
  const failed = (['accessibility', 'best-practices'] as const).flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => {
        // What the console said or the Issues panel held: the first item of the audit's table.
        const items = (lhr.audits[ref.id].details as { items?: Record<string, unknown>[] } | undefined)
          ?.items;
        const first = items?.[0];
        const said = first ? String(first.description ?? first.issueType ?? first.source ?? '') : '';
        return `${category}: ${lhr.audits[ref.id].title}${said ? ` (${items!.length}; first: ${said.slice(0, 200)})` : ''}`;
      }),
  );
  const breakdown = lhr.audits['lcp-breakdown-insight']?.details as
    { items?: { type?: string; nodeLabel?: string; snippet?: string }[] } | undefined;
  const lcpNode = breakdown?.items?.find((item) => item.type === 'node');
  const final = new URL(lhr.finalDisplayedUrl);
  return {
    scores,
    metrics,
    savings,
    warnings: lhr.runWarnings,
    failed,
    landed: final.pathname + final.search,
    lcpElement: lcpNode ? `${lcpNode.snippet ?? ''} "${(lcpNode.nodeLabel ?? '').slice(0, 60)}"` : null,
  };
}

// ---------------------------------------------------------------------------------------------------
// The report.

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

function scoreCell(values: number[]) {
  if (!values.length) return '—';
  const low = Math.min(...values);
  const high = Math.max(...values);
  return `${median(values)}${low === high ? '' : ` (${low}-${high})`}`;
}

function metricCell(runs: Run[], metric: Metric) {
  const values = runs.map((r) => r.metrics[metric]).filter(Number.isFinite);
  if (!values.length) return '—';
  const m = median(values);
  if (metric === 'cls') return `${m.toFixed(3)}`;
  if (metric === 'bytes') return kb(m);
  if (metric === 'tbt') return `${Math.round(m)} ms`;
  return seconds(m);
}

function topSavings(runs: Run[]) {
  const ids = new Set(runs.flatMap((r) => [...r.savings.keys()]));
  return [...ids]
    .map((id) => {
      const found = runs.map((r) => r.savings.get(id));
      const title = found.find(Boolean)!.title;
      return {
        title,
        ms: median(found.map((f) => f?.ms ?? 0)),
        bytes: median(found.map((f) => f?.bytes ?? 0)),
      };
    })
    .filter((t) => t.ms > 0 || t.bytes > 0)
    .sort((a, b) => b.ms - a.ms || b.bytes - a.bytes)
    .slice(0, 3);
}

function report(pages: Page[], results: Map<Page, Run[]>, failures: Map<Page, string[]>) {
  console.log(
    '\n| page | performance | accessibility | best practices | FCP | LCP | TBT | CLS | transferred | runs |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const page of pages) {
    const runs = results.get(page)!;
    const failed = failures.get(page)!.length;
    console.log(
      `| ${page.label} | ${CATEGORIES.map((c) => scoreCell(runs.map((r) => r.scores[c]))).join(' | ')} | ${(
        Object.keys(METRICS) as Metric[]
      )
        .map((m) => metricCell(runs, m))
        .join(' | ')} | ${runs.length}${failed ? ` (and ${failed} failed)` : ''} |`,
    );
  }
  console.log(
    '\nTop 3 opportunities and diagnostics by estimated savings (medians over the runs), and the accessibility and best-practices audits that did not pass:',
  );
  for (const page of pages) {
    const runs = results.get(page)!;
    const top = topSavings(runs);
    console.log(`  ${page.label}:`);
    if (!top.length) console.log('    none with a saving');
    for (const t of top)
      console.log(
        `    ${t.title}: ${t.ms ? `${Math.round(t.ms)} ms` : ''}${t.ms && t.bytes ? ', ' : ''}${t.bytes ? kb(t.bytes) : ''}`,
      );
    for (const failure of failures.get(page)!) console.log(`    an attempt failed: ${failure}`);
    for (const failed of new Set(runs.flatMap((r) => r.failed))) console.log(`    did not pass: ${failed}`);
    for (const element of new Set(runs.map((r) => r.lcpElement)))
      if (element) console.log(`    largest contentful paint: ${element}`);
    for (const landed of new Set(runs.map((r) => r.landed)))
      if (landed !== page.path) console.log(`    LANDED ON ${landed}, not ${page.path}`);
    const warnings = new Set(runs.flatMap((r) => r.warnings));
    for (const warning of warnings) console.log(`    Lighthouse warned: ${warning}`);
  }
}

/** Ratios to the anchor's /login (the machine's load moves both), the bytes and the two steady scores. */
function record(pages: Page[], results: Map<Page, Run[]>) {
  const anchor = results.get(pages.find((p) => p.portal === 'anchor')!)!;
  const of = (runs: Run[], pick: (r: Run) => number) => median(runs.map(pick).filter(Number.isFinite));
  for (const page of pages) {
    const runs = results.get(page)!;
    if (page.portal === 'anchor' || !runs.length) continue;
    const key = `lighthouse.${page.key}`;
    if (anchor.length) {
      const anchorScore = of(anchor, (r) => r.scores.performance);
      if (anchorScore > 0)
        recordFigure(
          `${key}.performance_vs_anchor_login`,
          ratio(
            of(runs, (r) => r.scores.performance),
            anchorScore,
          ),
          'ratio',
          'higher',
        );
      for (const metric of ['fcp', 'lcp'] as const) {
        const anchorMs = of(anchor, (r) => r.metrics[metric]);
        if (anchorMs > 0)
          recordFigure(
            `${key}.${metric}_vs_anchor_login`,
            ratio(
              of(runs, (r) => r.metrics[metric]),
              anchorMs,
            ),
            'ratio',
            'lower',
          );
      }
    }
    recordFigure(`${key}.bytes`, Math.round(of(runs, (r) => r.metrics.bytes)), 'bytes', 'lower');
    recordFigure(
      `${key}.accessibility`,
      of(runs, (r) => r.scores.accessibility),
      'score',
      'higher',
    );
    recordFigure(
      `${key}.best_practices`,
      of(runs, (r) => r.scores['best-practices']),
      'score',
      'higher',
    );
  }
}

// ---------------------------------------------------------------------------------------------------

export async function benchLighthouse({
  port,
  anchorPort,
}: {
  port: number;
  anchorPort: number;
}): Promise<void> {
  console.log(
    `\nLighthouse, mobile preset (its default form factor and simulated throttling), ${RUNS} interleaved round${RUNS === 1 ? '' : 's'}, beside the one-form React login; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-lighthouse-'));
  const serverBuildDir = `dist-server-bench-lighthouse-${process.pid}`;
  let ours: Running | null = null;
  let anchor: Running | null = null;
  let baseline: Running | null = null;
  let browser: Browser | null = null;
  try {
    buildAnchor(path.join(tmp, 'anchor-dist'));
    const dataDir = path.join(tmp, 'data');
    ours = await startServer(
      { DATA_DIR: dataDir, DIST_DIR: path.join(tmp, 'dist'), SERVER_BUILD_DIR: serverBuildDir },
      port,
      START_LIMIT_MS,
    );
    // The same server bundle (built by the first start), the lean page as its web app.
    anchor = await startServer(
      {
        DATA_DIR: path.join(tmp, 'anchor-data'),
        DIST_DIR: path.join(tmp, 'anchor-dist'),
        SERVER_BUILD_DIR: serverBuildDir,
      },
      anchorPort,
      START_LIMIT_MS,
    );
    const sessions: Record<Role, { token: string; role: Role }> = {
      admin: { token: await signIn(ours.url, dataDir, ADMIN), role: 'admin' },
      school_admin: { token: await signIn(ours.url, dataDir, SCHOOL_ADMIN), role: 'school_admin' },
    };
    const diet = await currentDiet(ours.url, sessions.admin.token);
    let baselineSessions: typeof sessions | null = null;
    if (BASELINE_DIST) {
      // Copied first: fresh files, which start.mjs does not take for stale and rebuild from our sources.
      fs.cpSync(BASELINE_DIST, path.join(tmp, 'baseline-dist'), { recursive: true });
      const baselineData = path.join(tmp, 'baseline-data');
      baseline = await startServer(
        {
          DATA_DIR: baselineData,
          DIST_DIR: path.join(tmp, 'baseline-dist'),
          SERVER_BUILD_DIR: serverBuildDir,
        },
        await freePort(),
        START_LIMIT_MS,
      );
      baselineSessions = {
        admin: { token: await signIn(baseline.url, baselineData, ADMIN), role: 'admin' },
        school_admin: { token: await signIn(baseline.url, baselineData, SCHOOL_ADMIN), role: 'school_admin' },
      };
    }
    const pages: Page[] = [
      { key: 'login', label: '/login', portal: 'ours', path: LOGIN_PATH, as: null },
      {
        key: 'anchor_login',
        label: 'anchor: one-form React login',
        portal: 'anchor',
        path: LOGIN_PATH,
        as: null,
      },
      {
        key: 'dashboard_admin',
        label: 'Dashboard, board admin',
        portal: 'ours',
        path: HOME_PATH,
        as: 'admin',
      },
      {
        key: 'dashboard_school',
        label: 'Dashboard, school admin',
        portal: 'ours',
        path: HOME_PATH,
        as: 'school_admin',
      },
      {
        key: 'registered_list_school',
        label: 'Registered Candidates, school admin',
        portal: 'ours',
        path: '/candidate/candidate-registered',
        as: 'school_admin',
      },
      {
        key: 'print_candidate_list',
        label: 'candidate list to print (SHT-IB, current diet), board admin',
        portal: 'ours',
        path: `${PRINT_DOCUMENT_PREFIX}candidate-list?${new URLSearchParams({ diet, school: 'SHT-IB' })}`,
        as: 'admin',
      },
    ];
    // Each of our pages, then the same page of the baseline build: side by side in every round.
    if (baseline)
      pages.splice(
        0,
        pages.length,
        ...pages.flatMap((page) =>
          page.portal === 'ours' && page.as
            ? [
                page,
                {
                  ...page,
                  key: `baseline_${page.key}`,
                  label: `baseline: ${page.label}`,
                  portal: 'baseline' as const,
                },
              ]
            : [page],
        ),
      );
    if (ONLY_PAGES)
      pages.splice(
        0,
        pages.length,
        ...pages.filter((p) => ONLY_PAGES.includes(p.key.replace(/^baseline_/, ''))),
      );
    browser = await launchChromium(path.join(tmp, 'profile'));
    const results = new Map(pages.map((p) => [p, [] as Run[]]));
    const failures = new Map(pages.map((p) => [p, [] as string[]]));
    for (let round = 1; round <= RUNS; round++) {
      for (const page of pages) {
        const base = { ours: ours.url, anchor: anchor.url, baseline: baseline?.url ?? '' }[page.portal];
        const signedIn = page.portal === 'baseline' ? baselineSessions! : sessions;
        await setSession(browser, base, page.as ? signedIn[page.as] : null);
        const started = performance.now();
        const reportName = `${page.key}-${round}`;
        let run = await audit(base + page.path, browser.port, reportName);
        // Lighthouse's own failures (NO_NAVSTART on a loaded machine) get one more try, reported as such.
        if (typeof run === 'string') {
          console.log(`  round ${round}, ${page.label}: ${run}; once more`);
          failures.get(page)!.push(run);
          run = await audit(base + page.path, browser.port, `${reportName}-again`);
        }
        console.log(
          `  round ${round}, ${page.label}: ${
            typeof run === 'string' ? run : `performance ${run.scores.performance}`
          } (${seconds(performance.now() - started)}; load ${os.loadavg()[0].toFixed(2)})`,
        );
        if (typeof run === 'string') failures.get(page)!.push(run);
        else results.get(page)!.push(run);
      }
    }
    report(pages, results, failures);
    if (!baseline && !ONLY_PAGES) record(pages, results);
    console.log(
      `\nLoad average at the end: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await browser?.stop();
    await anchor?.stop();
    await baseline?.stop();
    await ours?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(path.join(root, serverBuildDir), { recursive: true, force: true });
  }
}
