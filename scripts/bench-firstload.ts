/**
 * A part of `npm run bench` (scripts/bench.ts): the first load as users get it, on a slow link.
 *
 * The portal is started as `npm start` starts it (scripts/start.mjs in its own process, on a fresh data
 * directory, so the demo is seeded) and driven in Debian's Chromium through Playwright. Every page gets,
 * through its own CDP session and before it navigates, the "slow 3G" profile: 400 kbit/s each way, a
 * 400 ms round trip, and the CPU slowed four times. Each measured visit starts from an empty cache (a new
 * browser context), except the first visit of each area after signing in, which happens in the context
 * of the sign-in, as a user clicking through the sidebar would get it (chunks an earlier visit loaded are
 * cached then, as they would be for the user).
 *
 * Measured: /login cold (median of 3 runs); /verify/<code> cold (median of 3 runs), the code of a
 * photocard the board admin prints from the living demo through the API (the hall door's case: a phone
 * scans the card's QR code); signing in as the board admin, from submitting the mailed
 * code to the Dashboard being usable; then the first visit of every sidebar entry of the admin; then the
 * same for a school admin, and Score Entry alone for a marker (board staff); then signed-in pages opened
 * cold (a session's cookies, an empty cache: SIGNED_IN_COLD), beside another build when
 * BENCH_FIRSTLOAD_BASELINE_DIST names one. For each visit: the requests it made, the bytes over the
 * wire (CDP's encodedDataLength: headers and body as received, so compressed when the server
 * compresses), each response's content-encoding and kind, and the time until the page is usable.
 *
 * "Usable" is checked in the page (a predicate polled on every animation frame by Playwright's
 * waitForFunction) and timed in the page too: for a navigation, performance.now() when the predicate first
 * holds, which counts from the start of the navigation; for a click, that moment minus the click event's
 * timeStamp (recorded by a capture listener the context installs in every page). So the figures leave out
 * Playwright's own round trips. The predicates:
 *  - /login: the Email address field and the Sign in button are visible and enabled (the session has
 *    finished starting and the form is shown);
 *  - /verify/<code>: the verification status ("✓ Genuine" or "! Changed since printed") or an alert is
 *    shown (the answer has come and been drawn);
 *  - an area (and the Dashboard after sign-in, with the sidebar shown): the main heading reads the
 *    sidebar entry's label, nothing in <main> is aria-busy or says "Loading…", no error alert is shown,
 *    and the main content is there: table rows or the "nothing matches" line, else the form's first
 *    field (enabled), else a list, else the page's text (the Dashboard's welcome, a placeholder).
 * /login is measured beside the one-form React page of ../shared/anchors/lean-login (built with the
 * project's Vite into this run's directory, served by a second portal with DIST_DIR), run by run
 * interleaved: bytes on load and with what focusing the form and typing a key fetched, the time the form is
 * shown and the time it is usable (React owns it), and the ratios against the aim (1.2x).
 * BENCH_FIRSTLOAD_COLD_ONLY=1 measures the cold visits alone.
 * A visit that is not usable in 60 s is reported as such and the run goes on. Benchmarks never fail on
 * their figures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import type { DocumentCatalogue, PrintedDocument } from '../contract/documents';
import { DOCUMENT_ENDPOINTS } from '../contract/documents.endpoints';
import { fillPath } from '../contract/endpoint';
import { sidebarFor } from '../contract/navigation';
import { HOME_PATH, LOGIN_PATH, VERIFY_PATH } from '../contract/paths';
import { ROLE_COOKIE, TOKEN_COOKIE, type Role } from '../contract/roles';
import { CHROMIUM_ARGS } from '../playwright.config';
import { signIn, startServer, type Running } from './bench-candidates';
import { buildAnchor } from './benchAnchor';
import { ratio as ratioOf, recordFigure } from './benchRecord';
import { freePort } from './ports';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PASSWORD = 'demo-password';
/** Who signs in through the pages; `only`: the sidebar entries this user visits (all when absent). */
const USERS: { role: Role; email: string; who: string; only?: string[] }[] = [
  { role: 'admin', email: 'admin@example.org', who: 'board admin' },
  { role: 'school_admin', email: 'school1@example.org', who: 'school admin (SHT-IB)' },
  // Board staff who marks (issue 28 item 6): Score Entry straight after signing in, no list seen before.
  { role: 'admin', email: 'marker1@example.org', who: 'marker (board staff)', only: ['/score'] },
];
const LOGIN_RUNS = 3;
/** Runs of each signed-in page opened cold (BENCH_FIRSTLOAD_SIGNED_IN_RUNS). */
const SIGNED_IN_RUNS = Number(process.env.BENCH_FIRSTLOAD_SIGNED_IN_RUNS ?? 3);
/** BENCH_FIRSTLOAD_SIGNED_IN_ONLY=1: the signed-in pages opened cold alone. */
const SIGNED_IN_ONLY = process.env.BENCH_FIRSTLOAD_SIGNED_IN_ONLY === '1';
/** Another build of the SPA (a dist folder) whose signed-in cold visits are interleaved with this one's. */
const BASELINE_DIST = process.env.BENCH_FIRSTLOAD_BASELINE_DIST;
/** Slow 3G: 400 kbit/s each way, a 400 ms round trip, the CPU four times slower. */
const NETWORK = {
  offline: false,
  latency: 400,
  downloadThroughput: 400_000 / 8,
  uploadThroughput: 400_000 / 8,
};
const CPU_SLOWDOWN = 4;
/** A visit not usable in this time is reported as such. */
const USABLE_LIMIT_MS = 60_000;
/** After a visit is usable, the requests it started are awaited (no new one for QUIET_MS), at most this. */
const SETTLE_LIMIT_MS = 20_000;
const QUIET_MS = 750;
const AIM_LOGIN_MS = 3_500;
const AIM_LOGIN_BYTES = 110 * 1024;
const AIM_AREA_MS = 2_500;
/** BENCH_FIRSTLOAD_COLD_ONLY=1: /login and /verify/<code> cold only, without signing in through the pages. */
const COLD_ONLY = process.env.BENCH_FIRSTLOAD_COLD_ONLY === '1';

/**
 * The one-form React page /login is measured against (issue 28): React and react-dom in production, one
 * form, built with the project's Vite as its README says and served by a second portal (DIST_DIR).
 * BENCH_ANCHOR_DIR names another copy of its source.
 */
const ANCHOR_LABEL = 'one-form React page (the anchor)';
/** /login's aim against the anchor, in bytes and in time to usable. */
const AIM_ANCHOR_RATIO = 1.2;

const KINDS = ['JS', 'CSS', 'HTML', 'JSON', 'other'] as const;
type Kind = (typeof KINDS)[number];

// ---------------------------------------------------------------------------------------------------
// The portal, as `npm start` runs it.

/**
 * scripts/start.mjs on a fresh data directory (bench-candidates' startServer). The web app and the
 * server bundle are built into this run's own directories (DIST_DIR, SERVER_BUILD_DIR), so another
 * `npm start` rebuilding ./dist while the bench reads it cannot pull files from under it; Vite builds the
 * app in a few seconds.
 */
const startPortal = (port: number, dataDir: string, distDir: string, serverBuildDir: string) =>
  startServer({ DATA_DIR: dataDir, DIST_DIR: distDir, SERVER_BUILD_DIR: serverBuildDir }, port);

/** The sign-in code the portal mailed to `email` after `since` (DATA_DIR/mail), waited for up to 30 s. */
async function mailedCode(dataDir: string, email: string, since: number): Promise<string> {
  const dir = path.join(dataDir, 'mail');
  const started = performance.now();
  while (performance.now() - started < 30_000) {
    const newest = fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .filter((name) => name.endsWith(`-${email}.eml`))
          .map((name) => path.join(dir, name))
          .filter((file) => fs.statSync(file).mtimeMs >= since)
          .sort()
          .pop()
      : undefined;
    const code = newest && /^Subject: Your sign-in code: (\d{6})$/m.exec(fs.readFileSync(newest, 'utf8'));
    if (code) return code[1];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no sign-in code mailed to ${email} in 30 s`);
}

// ---------------------------------------------------------------------------------------------------
// The network, as CDP sees it.

interface Request {
  id: string;
  method: string;
  url: string;
  kind: Kind;
  /** content-encoding of the response, or 'none'. */
  encoding: string;
  status: number | null;
  bytes: number;
  done: boolean;
  failed: string | null;
  cached: boolean;
  /** Node-side times (performance.now()) the request was sent and finished. */
  sentAt: number;
  endedAt: number | null;
}

function kindOf(type: string | undefined, mimeType: string, url: string): Kind {
  if (type === 'Document' || mimeType === 'text/html') return 'HTML';
  if (type === 'Script' || /javascript/.test(mimeType) || /\.m?js(\?|$)/.test(url)) return 'JS';
  if (type === 'Stylesheet' || mimeType === 'text/css') return 'CSS';
  if (/json/.test(mimeType)) return 'JSON';
  return 'other';
}

/** Sets the slow profile on a page and records its requests, each under the visit open when it was sent. */
class Recorder {
  private visit: Request[] | null = null;
  private readonly byId = new Map<string, Request>();

  private constructor(private readonly cdp: CDPSession) {}

  static async attach(context: BrowserContext, page: Page): Promise<Recorder> {
    const cdp = await context.newCDPSession(page);
    const recorder = new Recorder(cdp);
    cdp.on('Network.requestWillBeSent', (e) => {
      // A redirect reuses the request id: the hop is one more request.
      const prior = recorder.byId.get(e.requestId);
      if (prior && e.redirectResponse) {
        prior.done = true;
        prior.endedAt = performance.now();
        prior.status = e.redirectResponse.status;
      }
      // data: URLs (an input's built-in icon) never reach the network.
      if (!recorder.visit || !/^https?:/.test(e.request.url)) return;
      const request: Request = {
        id: e.requestId,
        method: e.request.method,
        url: e.request.url,
        kind: kindOf(e.type, '', e.request.url),
        encoding: 'none',
        status: null,
        bytes: 0,
        done: false,
        failed: null,
        cached: false,
        sentAt: performance.now(),
        endedAt: null,
      };
      recorder.byId.set(e.requestId, request);
      recorder.visit.push(request);
    });
    cdp.on('Network.responseReceived', (e) => {
      const request = recorder.byId.get(e.requestId);
      if (!request) return;
      const headers = Object.fromEntries(
        Object.entries(e.response.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
      );
      request.kind = kindOf(e.type, e.response.mimeType, request.url);
      request.encoding = headers['content-encoding'] || 'none';
      request.status = e.response.status;
      request.cached = Boolean(e.response.fromDiskCache || e.response.fromPrefetchCache);
    });
    cdp.on('Network.dataReceived', (e) => {
      const request = recorder.byId.get(e.requestId);
      // The fallback when loadingFinished never comes; loadingFinished's total replaces it.
      if (request && !request.done) request.bytes += e.encodedDataLength;
    });
    cdp.on('Network.loadingFinished', (e) => {
      const request = recorder.byId.get(e.requestId);
      if (!request) return;
      request.bytes = Math.max(request.bytes, e.encodedDataLength);
      request.done = true;
      request.endedAt = performance.now();
    });
    cdp.on('Network.loadingFailed', (e) => {
      const request = recorder.byId.get(e.requestId);
      if (!request) return;
      request.done = true;
      request.failed = e.canceled ? 'canceled' : e.errorText;
      request.endedAt = performance.now();
    });
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    return recorder;
  }

  /** From now on, requests belong to a new visit (whose list this returns, filled as they come). */
  open(): Request[] {
    this.visit = [];
    return this.visit;
  }

  /** Waits until the visit's requests have finished and no new one came for QUIET_MS (bounded). */
  async settle(requests: Request[]) {
    const started = performance.now();
    let quietSince = performance.now();
    let seen = requests.length;
    while (performance.now() - started < SETTLE_LIMIT_MS) {
      if (requests.length !== seen || requests.some((r) => !r.done)) {
        seen = requests.length;
        quietSince = performance.now();
      } else if (performance.now() - quietSince >= QUIET_MS) {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    this.visit = null;
  }

  async detach() {
    await this.cdp.detach().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------------
// "Usable", checked in the page.

/**
 * login with `hydrated`: the form's field and button are React's own (React has attached to them, so a
 * submit runs the page's code); without it: the form is shown and enabled (painted, typing works).
 */
type Target =
  | { kind: 'login'; hydrated: boolean }
  | { kind: 'verify' }
  | { kind: 'area'; heading: string; shell: boolean; cold?: boolean };

interface Probe {
  /** 'usable', or 'error' when the page shows an error alert instead. */
  state: 'usable' | 'error';
  /** In-page milliseconds: from the start of the navigation, or from the click when there was one. */
  ms: number;
  clicked: boolean;
  /** What the main content was: rows, the "nothing matches" line, the first field, a list, text. */
  content: string;
  text: string;
}

/**
 * Runs in the page, on every animation frame, until it returns a Probe. Written without named inner
 * functions: tsx would wrap those in a helper (`__name`) that does not exist in the page.
 */
function probeUsable(target: Target): Probe | false {
  const mark = (window as unknown as { __benchClickAt?: number }).__benchClickAt;
  const now = performance.now();
  // [state, content, text] once the page is usable (or shows an error).
  let found: [Probe['state'], string, string] | null = null;
  if (target.kind === 'login') {
    const label = [...document.querySelectorAll('label')].find(
      (l) => l.textContent?.trim() === 'Email address',
    );
    const email = label ? (document.getElementById(label.htmlFor) as HTMLInputElement | null) : null;
    const button = [...document.querySelectorAll<HTMLButtonElement>('button[type="submit"]')].find(
      (b) => b.textContent?.trim() === 'Sign in',
    );
    if (!email || email.disabled || !email.checkVisibility()) return false;
    if (!button || button.disabled || !button.checkVisibility()) return false;
    // React keeps its fiber on each DOM node it owns (a key `__reactFiber$…`): there once it has
    // rendered or hydrated the node, absent from HTML rendered at build time until hydration.
    if (
      target.hydrated &&
      ![email, button].every((n) => Object.keys(n).some((k) => k.startsWith('__reactFiber$')))
    )
      return false;
    found = ['usable', 'the sign-in form', ''];
  } else if (target.kind === 'verify') {
    const status = document.querySelector('[data-testid="verification-status"]');
    const alert = [...document.querySelectorAll('main [role="alert"]')].find((a) => a.checkVisibility());
    if (status?.checkVisibility()) found = ['usable', 'the verification status', status.textContent ?? ''];
    else if (alert) found = ['usable', 'an alert', alert.textContent ?? ''];
    else return false;
  } else {
    if (target.shell && !document.querySelector('nav[aria-label="Main"]')?.checkVisibility()) return false;
    const main = document.querySelector('main');
    const heading = main?.querySelector('h1');
    if (!main || !heading?.checkVisibility() || heading.textContent?.trim() !== target.heading) return false;
    const alert = [...main.querySelectorAll('[role="alert"]')].find((a) => a.checkVisibility());
    if (alert) {
      found = ['error', 'an error', alert.textContent ?? ''];
    } else {
      if (main.querySelector('[aria-busy="true"]')) return false;
      const paragraphs = [...main.querySelectorAll('p')].filter((p) => p.checkVisibility());
      if (paragraphs.some((p) => /^Loading/.test(p.textContent?.trim() ?? ''))) return false;
      const row = main.querySelector('table tbody tr');
      const field = [...main.querySelectorAll('form:not([role="search"])')]
        .map((form) => form.querySelector<HTMLInputElement>('input, select, textarea'))
        .find((f) => f?.checkVisibility());
      const item = main.querySelector('ul li');
      const text = paragraphs.find((p) => (p.textContent?.trim() ?? '') !== '');
      if (row?.checkVisibility()) {
        const nothing = row.querySelectorAll('td').length === 1 && row.querySelector('td[colspan]');
        found = ['usable', nothing ? 'the "nothing matches" line' : 'table rows', row.textContent ?? ''];
      } else if (field) {
        if (field.disabled) return false;
        found = ['usable', 'the first field', field.name];
      } else if (item?.checkVisibility()) {
        found = ['usable', 'a list', item.textContent ?? ''];
      } else if (text) {
        const placeholder = /being built/.test(text.textContent ?? '');
        found = ['usable', placeholder ? 'a placeholder' : 'text', text.textContent ?? ''];
      }
    }
  }
  if (!found) return false;
  return {
    state: found[0],
    ms: mark === undefined ? now : now - mark,
    clicked: mark !== undefined,
    content: found[1],
    text: found[2].replace(/\s+/g, ' ').trim().slice(0, 80),
  };
}

/** Resolves with the in-page Probe, or null when the page is not usable within USABLE_LIMIT_MS. */
async function waitUsable(page: Page, target: Target): Promise<Probe | null> {
  try {
    const handle = await page.waitForFunction(probeUsable, target, {
      polling: 'raf',
      timeout: USABLE_LIMIT_MS,
    });
    return (await handle.jsonValue()) as Probe;
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') return null;
    throw error;
  }
}

/** What <main> (or the body) shows, for a visit that never became usable. */
async function screenText(page: Page) {
  return page
    .evaluate(() => (document.querySelector('main') ?? document.body).innerText.slice(0, 160))
    .then((text) => text.replace(/\s+/g, ' ').trim())
    .catch(() => '(the page could not be read)');
}

// ---------------------------------------------------------------------------------------------------
// Visits.

interface Visit {
  label: string;
  /** usable; error: the page showed an error; timeout: not usable in time; failed: not opened at all. */
  state: 'usable' | 'error' | 'timeout' | 'failed';
  /** Milliseconds until usable; null when it was not. */
  ms: number | null;
  /** For /login, the times of every run. */
  runs?: (number | null)[];
  /** For /login: when the form was first shown and enabled (before hydration when the HTML carries it). */
  shown?: number | null;
  /** For /login cold: what the page fetched once the email field was focused and a key typed (after it settled). */
  interaction?: Request[];
  requests: Request[];
  /** How many of the requests were sent after the page was usable. */
  afterUsable: number;
  content: string;
  note: string;
  aim: 'login' | 'area' | null;
}

async function newContext(browser: Browser) {
  const context = await browser.newContext();
  // The click that opens an area is timed from its event, in the page.
  await context.addInitScript(() => {
    addEventListener('click', (event) => Object.assign(window, { __benchClickAt: event.timeStamp }), true);
  });
  return context;
}

/** One visit: `act` navigates or clicks; the visit lasts until usable, then until its requests settle. */
async function measureVisit(
  page: Page,
  recorder: Recorder,
  label: string,
  target: Target,
  act: () => Promise<unknown>,
  aim: Visit['aim'],
): Promise<Visit> {
  await page.evaluate(() => delete (window as unknown as { __benchClickAt?: number }).__benchClickAt);
  const requests = recorder.open();
  const actStarted = performance.now();
  // Started before acting, so the first frame that is usable is the one timed.
  const usable = waitUsable(page, target);
  usable.catch(() => {});
  const shown = target.kind === 'login' ? waitUsable(page, { kind: 'login', hydrated: false }) : null;
  shown?.catch(() => {});
  let failed: string | null = null;
  try {
    await act();
  } catch (error) {
    // The click or the navigation itself did not happen in time (each is bounded): say so, go on.
    failed = error instanceof Error ? error.message.split('\n')[0] : String(error);
  }
  let probe = failed ? null : await usable;
  if (probe && !probe.clicked && target.kind === 'area' && !target.cold) {
    // A full page load replaced the document, and the click's time with it: time it from Node. (A cold
    // visit is a navigation: the page's own clock counts from its start.)
    probe = { ...probe, ms: performance.now() - actStarted };
  }
  const usableAt = performance.now();
  const note = failed
    ? `could not open it: ${failed}`
    : probe
      ? probe.state === 'error'
        ? `shows an error: "${probe.text}"`
        : ''
      : `not usable in ${USABLE_LIMIT_MS / 1000} s; the screen shows: "${await screenText(page)}"`;
  await recorder.settle(requests);
  const shownProbe = shown && !failed ? await shown.catch(() => null) : null;
  return {
    label,
    shown: shown ? (shownProbe?.ms ?? null) : undefined,
    state: failed ? 'failed' : !probe ? 'timeout' : probe.state,
    ms: probe && probe.state === 'usable' ? probe.ms : null,
    requests,
    afterUsable: requests.filter((r) => r.sentAt > usableAt).length,
    content: probe?.content ?? '',
    note,
    aim,
  };
}

/** One cold visit (a new context, empty cache); for /login, then the field focused and a key typed. */
async function coldRun(
  browser: Browser,
  url: string,
  where: string,
  label: string,
  target: Target,
  aim: Visit['aim'],
  session?: Session,
): Promise<Visit> {
  const context = await newContext(browser);
  try {
    if (session)
      await context.addCookies(
        [
          [TOKEN_COOKIE, session.token],
          [ROLE_COOKIE, session.role],
        ].map(([name, value]) => ({ name, value, url, sameSite: 'Strict' as const })),
      );
    const page = await context.newPage();
    const recorder = await Recorder.attach(context, page);
    const visit = await measureVisit(
      page,
      recorder,
      `${label}, cold`,
      target,
      () => page.goto(`${url}${where}`, { waitUntil: 'commit', timeout: USABLE_LIMIT_MS }),
      aim,
    );
    if (target.kind === 'login' && visit.ms !== null) {
      // What a user starting to type makes the page fetch: code loaded on interaction counts too.
      const more = recorder.open();
      await page.getByLabel('Email address').focus();
      await page.keyboard.type('a');
      await recorder.settle(more);
      visit.interaction = more;
    }
    await recorder.detach();
    return visit;
  } finally {
    await context.close();
  }
}

/** The median of runs (by time), labelled with every run's time. */
function medianVisit(runs: Visit[], label: string): Visit {
  const ordered = [...runs].sort((a, b) => (a.ms ?? Infinity) - (b.ms ?? Infinity));
  const middle = ordered[Math.floor(ordered.length / 2)];
  const shown = runs
    .map((r) => r.shown)
    .filter((ms): ms is number => typeof ms === 'number')
    .sort((a, b) => a - b);
  return {
    ...middle,
    label: `${label}, cold (median of ${runs.length}; the bytes of that run)`,
    runs: runs.map((r) => r.ms),
    shown: shown.length ? shown[Math.floor(shown.length / 2)] : null,
  };
}

/** A page opened cold LOGIN_RUNS times: the median run, with every run's time. */
async function coldVisit(
  browser: Browser,
  url: string,
  where: string,
  label: string,
  target: Target,
  aim: Visit['aim'],
): Promise<Visit> {
  const runs: Visit[] = [];
  for (let run = 0; run < LOGIN_RUNS; run++)
    runs.push(await coldRun(browser, url, where, label, target, aim));
  return medianVisit(runs, label);
}

/**
 * /login cold on the portal and on the one-form React page (the anchor, served by a second portal),
 * interleaved run by run, so the machine's load falls on both alike.
 */
async function loginColdBeside(browser: Browser, url: string, anchorUrl: string): Promise<[Visit, Visit]> {
  const ours: Visit[] = [];
  const anchor: Visit[] = [];
  const target: Target = { kind: 'login', hydrated: true };
  for (let run = 0; run < LOGIN_RUNS; run++) {
    ours.push(await coldRun(browser, url, LOGIN_PATH, LOGIN_PATH, target, 'login'));
    anchor.push(await coldRun(browser, anchorUrl, LOGIN_PATH, ANCHOR_LABEL, target, null));
  }
  return [medianVisit(ours, LOGIN_PATH), medianVisit(anchor, ANCHOR_LABEL)];
}

/**
 * A real code to verify: the first photocard of SHT-IB at the current diet, printed by the board admin
 * through the API (signed in through the real two-step sign-in), as a candidate's card carries it.
 */
async function printedCode(url: string, dataDir: string): Promise<string> {
  const token = await signIn(url, dataDir, USERS[0].email);
  const get = async <T>(route: string): Promise<T> => {
    const response = await fetch(url + route, {
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    });
    const body = (await response.json()) as { data: T };
    if (!response.ok) throw new Error(`GET ${route}: ${response.status} ${JSON.stringify(body)}`);
    return body.data;
  };
  const catalogue = await get<DocumentCatalogue>(DOCUMENT_ENDPOINTS.catalogue.admin.path);
  const diet = catalogue.options.diets.find((d) => d.current) ?? catalogue.options.diets[0];
  const printed = await get<PrintedDocument>(
    `${fillPath(DOCUMENT_ENDPOINTS.print.admin.path, { ending: 'photocard' })}?${new URLSearchParams({
      diet: diet.code,
      school: 'SHT-IB',
    })}`,
  );
  const cards = printed.blocks.find((b) => b.kind === 'cards');
  return cards?.kind === 'cards' && cards.cards.length
    ? cards.cards[0].verification.code
    : printed.verification.code;
}

const verifyCold = async (browser: Browser, url: string, dataDir: string) => {
  const code = await printedCode(url, dataDir);
  return coldVisit(browser, url, `${VERIFY_PATH}/${code}`, `${VERIFY_PATH}/<code>`, { kind: 'verify' }, null);
};

// ---------------------------------------------------------------------------------------------------
// Signed-in pages opened cold (issue 28 items 3 and 6).

/** A session as the SPA keeps it (its two cookies), from a real two-step sign-in through the API. */
interface Session {
  token: string;
  role: Role;
}

/**
 * A signed-in page opened with an empty cache, as after a bookmark or a link in a mail: the board's
 * Dashboard, a school's Registered list, and Score Entry as a marker (board staff), who has visited no
 * list before (the sidebar's walk above reaches it with the lists' chunks cached).
 */
const SIGNED_IN_COLD: { email: string; role: Role; who: string; path: string; heading: string }[] = [
  { email: USERS[0].email, role: 'admin', who: 'board admin', path: HOME_PATH, heading: 'Dashboard' },
  {
    email: USERS[1].email,
    role: 'school_admin',
    who: 'school admin',
    path: '/candidate/candidate-registered',
    heading: 'Registered Candidates',
  },
  { email: 'marker1@example.org', role: 'admin', who: 'marker', path: '/score', heading: 'Score Entry' },
];

/**
 * Each signed-in page cold, SIGNED_IN_RUNS times; with a baseline portal (another build of the SPA,
 * BENCH_FIRSTLOAD_BASELINE_DIST), run by run interleaved with it, so the machine's load falls on both.
 */
async function signedInCold(
  browser: Browser,
  portals: { name: string; url: string; dataDir: string }[],
): Promise<{ name: string; visits: Visit[] }[]> {
  const sessions = await Promise.all(
    portals.map(async (portal) => {
      const byEmail = new Map<string, string>();
      for (const { email } of SIGNED_IN_COLD)
        if (!byEmail.has(email)) byEmail.set(email, await signIn(portal.url, portal.dataDir, email));
      return byEmail;
    }),
  );
  const runs = portals.map(() => SIGNED_IN_COLD.map((): Visit[] => []));
  for (let run = 0; run < SIGNED_IN_RUNS; run++)
    for (const [page, visit] of SIGNED_IN_COLD.entries())
      for (const [i, portal] of portals.entries())
        runs[i][page].push(
          await coldRun(
            browser,
            portal.url,
            visit.path,
            `${visit.who}: ${visit.heading} (${visit.path})`,
            { kind: 'area', heading: visit.heading, shell: true, cold: true },
            'area',
            { token: sessions[i].get(visit.email)!, role: visit.role },
          ),
        );
  return portals.map((portal, i) => ({
    name: portal.name,
    visits: runs[i].map((visits, page) =>
      medianVisit(visits, `${portal.name}: ${SIGNED_IN_COLD[page].who}, ${SIGNED_IN_COLD[page].heading}`),
    ),
  }));
}

/** Signs in through the real pages, throttled; the measured visit is the code's submission. */
async function signInAndVisitAreas(
  browser: Browser,
  url: string,
  dataDir: string,
  user: (typeof USERS)[number],
): Promise<Visit[]> {
  const visits: Visit[] = [];
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(USABLE_LIMIT_MS);
    const recorder = await Recorder.attach(context, page);
    const login = await measureVisit(
      page,
      recorder,
      `${LOGIN_PATH} before sign-in`,
      { kind: 'login', hydrated: true },
      () => page.goto(`${url}${LOGIN_PATH}`, { waitUntil: 'commit' }),
      null,
    );
    if (login.ms === null) return [{ ...login, label: `${user.who}: ${login.label}` }];

    // The password step (not measured), each wait bounded by the page's default timeout.
    try {
      const since = Date.now() - 1000;
      await page.getByLabel('Email address').fill(user.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByLabel('Confirmation code').waitFor({ state: 'visible' });
      await page.getByLabel('Confirmation code').fill(await mailedCode(dataDir, user.email, since));
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      return [
        {
          ...login,
          label: `${user.who}: sign-in`,
          state: 'failed',
          ms: null,
          requests: [],
          afterUsable: 0,
          content: '',
          note: `the password step failed: ${reason}`,
        },
      ];
    }
    const signIn = await measureVisit(
      page,
      recorder,
      `${user.who}: sign-in, code submitted → Dashboard`,
      { kind: 'area', heading: 'Dashboard', shell: true },
      () => page.getByRole('button', { name: 'Confirm' }).click(),
      null,
    );
    visits.push(signIn);
    if (signIn.ms === null) return visits;

    const nav = page.locator('aside nav[aria-label="Main"]');
    for (const entry of sidebarFor(user.role)) {
      if (entry.path === HOME_PATH) continue; // Shown by the sign-in itself.
      if (user.only && !user.only.includes(entry.path)) continue;
      const visit = await measureVisit(
        page,
        recorder,
        `${user.who}: ${entry.label} (${entry.path})`,
        { kind: 'area', heading: entry.label, shell: true },
        () => nav.locator(`a[href="${entry.path}"]`).click(),
        'area',
      );
      if (visit.content === 'a placeholder') visit.label += ' [placeholder: "being built"]';
      visits.push(visit);
    }
    await recorder.detach();
  } finally {
    await context.close();
  }
  return visits;
}

// ---------------------------------------------------------------------------------------------------
// The report.

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const seconds = (ms: number | null) =>
  ms === null ? `not usable in ${USABLE_LIMIT_MS / 1000} s` : `${(ms / 1000).toFixed(2)}`;
const STATE_TEXT = { error: 'shows an error', failed: 'not opened' } as const;

function bytesCell(requests: Request[]) {
  const total = requests.reduce((sum, r) => sum + r.bytes, 0);
  const split = KINDS.map((kind) => {
    const bytes = requests.filter((r) => r.kind === kind).reduce((sum, r) => sum + r.bytes, 0);
    return bytes ? `${kind} ${kb(bytes)}` : null;
  }).filter(Boolean);
  return `${kb(total)} (${split.join(' / ') || 'nothing'})`;
}

function encodingsCell(requests: Request[]) {
  const cells = KINDS.map((kind) => {
    const seen = [...new Set(requests.filter((r) => r.kind === kind && r.bytes > 0).map((r) => r.encoding))];
    return seen.length ? `${kind} ${seen.join('+')}` : null;
  }).filter(Boolean);
  return cells.join(', ') || '—';
}

function aimCell(visit: Visit) {
  const bytes = visit.requests.reduce((sum, r) => sum + r.bytes, 0);
  const time = (aim: number) =>
    visit.ms === null
      ? `under ${aim / 1000} s: not usable`
      : visit.ms <= aim
        ? `under ${aim / 1000} s: met`
        : `under ${aim / 1000} s: missed by ${((visit.ms - aim) / 1000).toFixed(2)} s`;
  if (visit.aim === 'login') {
    const size =
      bytes <= AIM_LOGIN_BYTES
        ? `under ${AIM_LOGIN_BYTES / 1024} KB: met`
        : `under ${AIM_LOGIN_BYTES / 1024} KB: missed by ${kb(bytes - AIM_LOGIN_BYTES)} KB`;
    return `${time(AIM_LOGIN_MS)}; ${size}`;
  }
  if (visit.aim === 'area') return time(AIM_AREA_MS);
  return '—';
}

const total = (requests: Request[] | undefined) => (requests ?? []).reduce((sum, r) => sum + r.bytes, 0);

/** /login against the anchor: bytes (on load, and with what typing fetched) and time, with their ratios. */
function printBeside(login: Visit, anchor: Visit) {
  const ratio = (a: number | null | undefined, b: number | null | undefined) =>
    typeof a === 'number' && typeof b === 'number' && b > 0
      ? `${(a / b).toFixed(2)}x${a / b <= AIM_ANCHOR_RATIO ? '' : ` (aim ${AIM_ANCHOR_RATIO}x: missed)`}`
      : 'n/a';
  const loaded = [total(login.requests), total(anchor.requests)];
  const typed = [loaded[0] + total(login.interaction), loaded[1] + total(anchor.interaction)];
  console.log(
    `\n/login beside the ${ANCHOR_LABEL}, interleaved in this run (aim: within ${AIM_ANCHOR_RATIO}x):`,
  );
  console.log(`| | /login | anchor | ratio |\n|---|---:|---:|---:|`);
  console.log(
    `| KB over the wire, loaded | ${kb(loaded[0])} | ${kb(loaded[1])} | ${ratio(loaded[0], loaded[1])} |`,
  );
  console.log(
    `| KB over the wire, with what focusing the form and typing fetched | ${kb(typed[0])} | ${kb(typed[1])} | ${ratio(typed[0], typed[1])} |`,
  );
  console.log(
    `| form shown and enabled, s | ${seconds(login.shown ?? null)} | ${seconds(anchor.shown ?? null)} | ${ratio(login.shown, anchor.shown)} |`,
  );
  console.log(
    `| usable (React owns the form: a submit runs), s | ${seconds(login.ms)} | ${seconds(anchor.ms)} | ${ratio(login.ms, anchor.ms)} |`,
  );
  // Ratios to the anchor of the same run: they take out the machine's load, which moves both.
  recordFigure('firstload.login_cold.bytes_over_anchor', ratioOf(loaded[0], loaded[1]), 'ratio', 'lower');
  if (login.ms && anchor.ms)
    recordFigure('firstload.login_cold.usable_over_anchor', ratioOf(login.ms, anchor.ms), 'ratio', 'lower');
}

function printReport(visits: Visit[], distDir: string) {
  console.log(
    '\n| visit | requests | bytes over the wire, KB (split by kind) | encodings seen | time until usable (s) | aim |',
  );
  console.log('|---|---:|---|---|---:|---|');
  for (const visit of visits) {
    const cached = visit.requests.filter((r) => r.cached).length;
    const counts = [
      cached ? `${cached} from cache` : '',
      visit.afterUsable ? `${visit.afterUsable} after usable` : '',
    ]
      .filter(Boolean)
      .join(', ');
    const after = counts ? ` (${counts})` : '';
    const time =
      visit.state === 'error' || visit.state === 'failed'
        ? STATE_TEXT[visit.state]
        : visit.runs
          ? `${seconds(visit.ms)} (${visit.runs.map((ms) => seconds(ms)).join(', ')})${
              typeof visit.shown === 'number' ? `; form shown at ${seconds(visit.shown)}` : ''
            }`
          : seconds(visit.ms);
    const note = visit.note ? ` — ${visit.note}` : '';
    console.log(
      `| ${visit.label}${note} | ${visit.requests.length}${after} | ${bytesCell(visit.requests)} | ${encodingsCell(
        visit.requests,
      )} | ${time} | ${aimCell(visit)} |`,
    );
  }

  printBeside(visits[0], visits[1]);

  // Beside the bytes over the wire: the same files of /login gzipped on disk, as bench.ts's part 2 counts.
  const login = visits[0];
  const sides = (['JS', 'CSS'] as const).map((kind) => {
    const files = login.requests.filter(
      (r) => r.kind === kind && fs.existsSync(path.join(distDir, new URL(r.url).pathname)),
    );
    const gzip = files.reduce(
      (sum, r) => sum + gzipSync(fs.readFileSync(path.join(distDir, new URL(r.url).pathname))).length,
      0,
    );
    const wire = files.reduce((sum, r) => sum + r.bytes, 0);
    return `${kind}, ${files.length} file${files.length === 1 ? '' : 's'}: ${kb(wire)} KB over the wire (with headers), ${kb(gzip)} KB gzipped on disk`;
  });
  console.log(`\n/login cold: ${sides.join('; ')}.`);
  recordFigure(
    'firstload.login_cold.bytes',
    login.requests.reduce((sum, r) => sum + r.bytes, 0),
    'bytes',
    'lower',
  );

  printRequests(visits);
}

/** Each visit's requests, a waterfall: sent → finished, seconds after the visit's first request. */
function printRequests(visits: Visit[]) {
  console.log(
    '\nRequests per visit (kind, KB over the wire, encoding; sent → finished, seconds after the visit began):',
  );
  for (const visit of visits) {
    console.log(`  ${visit.label}${visit.content ? `, usable on ${visit.content}` : ''}:`);
    const began = Math.min(...visit.requests.map((r) => r.sentAt));
    for (const r of visit.requests) {
      const at = (t: number | null) => (t === null ? '…' : ((t - began) / 1000).toFixed(2));
      const state = r.failed ? ` FAILED (${r.failed})` : r.cached ? ' (from cache)' : '';
      const where = new URL(r.url);
      console.log(
        `    ${r.method} ${where.pathname}${where.search} ${r.status ?? '-'} ${r.kind} ${kb(r.bytes)} KB ${r.encoding}; ${at(
          r.sentAt,
        )} → ${at(r.endedAt)}${state}`,
      );
    }
    for (const r of visit.interaction ?? [])
      console.log(
        `    after focusing the form and typing: ${r.method} ${new URL(r.url).pathname} ${r.kind} ${kb(r.bytes)} KB`,
      );
  }
}

// ---------------------------------------------------------------------------------------------------

/**
 * The signed-in cold visits on this build, and beside a second portal serving BENCH_FIRSTLOAD_BASELINE_DIST
 * (copied into the run's directory first: fresh files, so start.mjs does not rebuild them as stale).
 */
async function signedInColdBeside(
  browser: Browser,
  url: string,
  dataDir: string,
  tmp: string,
  serverBuildDir: string,
) {
  const portals = [{ name: 'this build', url, dataDir }];
  let baseline: Running | null = null;
  try {
    if (BASELINE_DIST) {
      const dist = path.join(tmp, 'baseline-dist');
      fs.cpSync(BASELINE_DIST, dist, { recursive: true });
      const baselineData = path.join(tmp, 'baseline-data');
      baseline = await startPortal(await freePort(), baselineData, dist, serverBuildDir);
      const served = await (await fetch(`${baseline.url}/overview`)).text();
      if (served !== fs.readFileSync(path.join(dist, 'index.html'), 'utf8'))
        throw new Error('the baseline portal does not serve the baseline build');
      portals.push({ name: 'baseline', url: baseline.url, dataDir: baselineData });
    }
    return await signedInCold(browser, portals);
  } finally {
    await baseline?.stop();
  }
}

/** The signed-in pages opened cold: each portal's medians, and this build's against the baseline's. */
function printSignedIn(results: { name: string; visits: Visit[] }[]) {
  console.log(
    `\nSigned-in pages opened cold (a session's cookies, an empty cache; median of ${SIGNED_IN_RUNS}${
      results.length > 1 ? ', interleaved run by run with the baseline build' : ''
    }):`,
  );
  console.log('| page | build | requests | bytes over the wire, KB | usable, s (every run) | aim |');
  console.log('|---|---|---:|---|---|---|');
  SIGNED_IN_COLD.forEach((page, i) => {
    for (const { name, visits } of results) {
      const visit = visits[i];
      const runs = (visit.runs ?? []).map((ms) => seconds(ms)).join(', ');
      console.log(
        `| ${page.who}: ${page.heading} | ${name} | ${visit.requests.length} | ${bytesCell(visit.requests)} | ${seconds(
          visit.ms,
        )} (${runs})${visit.note ? ` — ${visit.note}` : ''} | ${aimCell(visit)} |`,
      );
    }
    if (results.length > 1) {
      const [ours, base] = results.map((r) => r.visits[i].ms);
      if (ours && base) console.log(`|  | ratio to the baseline | | | ${(ours / base).toFixed(2)}x | |`);
    }
  });
  for (const [i, page] of SIGNED_IN_COLD.entries()) {
    const visit = results[0].visits[i];
    if (visit.ms !== null)
      recordFigure(
        `firstload.signed_in_cold.${page.who.replace(/ /g, '_')}.usable_ms`,
        Math.round(visit.ms),
        'ms',
        'lower',
      );
  }
  printRequests(results.flatMap((r) => r.visits));
}

export async function benchFirstLoad({ port }: { port: number }): Promise<void> {
  console.log(
    `\nFirst load as users get it: slow 3G (${NETWORK.downloadThroughput * 8} bit/s each way, ${NETWORK.latency} ms round trip, CPU ${CPU_SLOWDOWN}x slower), Chromium`,
  );
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-firstload-'));
  const dataDir = path.join(tmp, 'data');
  const distDir = path.join(tmp, 'dist');
  const serverBuildDir = `dist-server-bench-firstload-${process.pid}`;
  const anchorDist = path.join(tmp, 'anchor-dist');
  let portal: Running | null = null;
  let anchorPortal: Running | null = null;
  let browser: Browser | null = null;
  try {
    buildAnchor(anchorDist);
    portal = await startPortal(port, dataDir, distDir, serverBuildDir);
    // Started after the first, which has bundled the server: the second finds the bundle fresh.
    anchorPortal = await startPortal(
      await freePort(),
      path.join(tmp, 'anchor-data'),
      anchorDist,
      serverBuildDir,
    );
    const served = await (await fetch(`${anchorPortal.url}${LOGIN_PATH}`)).text();
    if (served !== fs.readFileSync(path.join(anchorDist, 'index.html'), 'utf8'))
      throw new Error(`the second portal does not serve the anchor at ${LOGIN_PATH}`);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
      headless: true,
    });
    if (SIGNED_IN_ONLY) {
      await anchorPortal.stop();
      anchorPortal = null;
      printSignedIn(await signedInColdBeside(browser, portal.url, dataDir, tmp, serverBuildDir));
      return;
    }
    const [login, anchor] = await loginColdBeside(browser, portal.url, anchorPortal.url);
    await anchorPortal.stop();
    anchorPortal = null;
    const visits: Visit[] = [login, anchor, await verifyCold(browser, portal.url, dataDir)];
    if (!COLD_ONLY) {
      for (const user of USERS)
        visits.push(...(await signInAndVisitAreas(browser, portal.url, dataDir, user)));
    }
    printReport(visits, distDir);
    printSignedIn(await signedInColdBeside(browser, portal.url, dataDir, tmp, serverBuildDir));
  } finally {
    await browser?.close().catch(() => {});
    await portal?.stop();
    await anchorPortal?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(path.join(root, serverBuildDir), { recursive: true, force: true });
  }
}
