/**
 * The bench's figures, kept machine-readable so the next run can see a regression (issue 28, item 7).
 *
 * A bench part records a named figure beside its printed table (`recordFigure`), with the direction
 * that is better and its unit. After each part of `npm run bench`, scripts/bench.ts calls `saveRecordedFigures`:
 * it compares each figure recorded since the last save against the last committed run (docs/bench/figures.json as git's HEAD
 * has it; the file on disk when git has none), prints a loud REGRESSION block for each figure that moved
 * more than 20 % the wrong way, and writes the file merged by key, so running one part updates only its
 * own figures. It prints and never fails the process: benchmarks do not fail on their figures.
 *
 * Absolute times move with the machine's load, so a part records a ratio to its anchor where one runs
 * beside it in the same run (ours / the anchor: the raw SQL, the one-form React login), and absolute
 * figures only where the machine does not move them (bytes, scores of a11y and best practices) or no
 * anchor exists (docs/decisions.md, "Bench figures and the regression check"). A figure measured at a
 * size the run may change (candidates, entries, a PDF's count, connections) carries that size in its key
 * (`n100000`, `c50`), so a quick run at small sizes is never compared with a full one.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Which way is better: a time or a size goes down, a score or a throughput goes up. */
export type Better = 'lower' | 'higher';

interface Figure {
  value: number;
  /** 'ms', 'bytes', 'score', 'ratio', … as the part prints it. */
  unit: string;
  better: Better;
  /** When it was measured (ISO 8601) and the machine's 1-minute load average then. */
  measuredAt: string;
  load: number;
}

export type Figures = Record<string, Figure>;

export interface Regression {
  key: string;
  was: number;
  now: number;
  unit: string;
  /** How far it moved the wrong way, as a fraction of the earlier value (0.23 for 23 %). */
  worse: number;
}

/** A figure moving more than this fraction the wrong way is reported. */
const REGRESSION_THRESHOLD = 0.2;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The committed figures, relative to the project's root. */
const FIGURES_FILE = 'docs/bench/figures.json';

const recorded: Figures = {};

/** Records one figure of this run (a later record under the same key replaces it). */
export function recordFigure(key: string, value: number, unit: string, better: Better): void {
  if (!Number.isFinite(value)) return;
  recorded[key] = {
    value,
    unit,
    better,
    measuredAt: new Date().toISOString(),
    load: Number(os.loadavg()[0].toFixed(2)),
  };
}

/** The middle of some figures (the mean of the two middle ones when they are even in number). */
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Ours over the anchor measured beside it in the same run, to three decimals (NaN, which is not
 * recorded, when the anchor is not above zero): the one way a part turns a pair of times into a figure.
 */
export const ratio = (ours: number, anchor: number) =>
  anchor > 0 ? Number((ours / anchor).toFixed(3)) : Number.NaN;

/**
 * How far `now` moved the wrong way from `was`, as a fraction of `was` (0 when it moved the right way
 * or not at all). From a `was` of 0 no fraction can be taken: a lower-is-better figure (errors, say)
 * that left 0 moved infinitely far the wrong way; otherwise, and below 0, null (not compared).
 */
export function wrongWay(was: number, now: number, better: Better): number | null {
  if (was === 0 && better === 'lower') return now > 0 ? Number.POSITIVE_INFINITY : 0;
  if (!(was > 0)) return null;
  const change = (now - was) / was;
  return Math.max(0, better === 'lower' ? change : -change);
}

/** The figures of `current` that moved more than `threshold` the wrong way against `previous`. */
export function regressions(
  previous: Figures,
  current: Figures,
  threshold = REGRESSION_THRESHOLD,
): Regression[] {
  const found: Regression[] = [];
  for (const [key, figure] of Object.entries(current)) {
    const before = previous[key];
    // A figure whose direction or unit changed is a new figure, not a regression.
    if (!before || before.better !== figure.better || before.unit !== figure.unit) continue;
    const worse = wrongWay(before.value, figure.value, figure.better);
    if (worse !== null && worse > threshold)
      found.push({ key, was: before.value, now: figure.value, unit: figure.unit, worse });
  }
  return found;
}

export function regressionMessage(r: Regression): string {
  const moved = Number.isFinite(r.worse) ? `${Math.round(r.worse * 100)} %` : 'off 0';
  return `REGRESSION: ${r.key} moved ${moved} the wrong way (was ${r.was} ${r.unit}, now ${r.now} ${r.unit})`;
}

function parse(text: string | null): Figures {
  if (!text) return {};
  try {
    return JSON.parse(text) as Figures;
  } catch {
    return {};
  }
}

/** The last committed run: the file as HEAD has it, else as it is on disk. */
function committedFigures(file: string): Figures {
  try {
    return parse(
      execFileSync('git', ['show', `HEAD:${FIGURES_FILE}`], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    );
  } catch {
    return parse(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null);
  }
}

/** The loud block of regression lines, or the one line saying there were none. */
export function printRegressions(found: Regression[], what = 'recorded figure'): void {
  if (!found.length) {
    console.log(`\nNo ${what} moved more than ${REGRESSION_THRESHOLD * 100} % the wrong way.`);
    return;
  }
  const rule = '!'.repeat(100);
  console.log(`\n${rule}`);
  for (const r of found) console.log(regressionMessage(r));
  console.log(
    `(against the last committed ${FIGURES_FILE}; more than ${REGRESSION_THRESHOLD * 100} % the wrong way)`,
  );
  console.log(rule);
}

/**
 * Compares the figures recorded since the last save with the last committed run, prints the regressions
 * loudly, writes the file merged by key (the figures this run did not measure stay as they were) and
 * forgets them. scripts/bench.ts saves after each part, so a part's regressions print beside its tables
 * and a bench stopped halfway keeps the figures of the parts that ended. BENCH_FIGURES_FILE writes them
 * to another file (a quick run at small sizes, which must not touch the committed one); they are still
 * compared with the committed run. Returns the regressions.
 */
export function saveRecordedFigures(
  file = path.resolve(root, process.env.BENCH_FIGURES_FILE || FIGURES_FILE),
): Regression[] {
  const keys = Object.keys(recorded);
  if (!keys.length) return [];
  const found = regressions(committedFigures(file), recorded);
  printRegressions(found);
  const merged = { ...parse(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null), ...recorded };
  const sorted = Object.fromEntries(
    Object.keys(merged)
      .sort()
      .map((key) => [key, merged[key]]),
  );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(
    `${keys.length} figure${keys.length === 1 ? '' : 's'} written to ${path.relative(root, file)}.`,
  );
  for (const key of keys) delete recorded[key];
  return found;
}

/** A figure's key from its parts: each lowercased, anything but letters and digits one underscore. */
export const figureKey = (...parts: string[]) =>
  parts
    .map((part) =>
      part
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '_')
        .replace(/^_|_$/g, '')
        .slice(0, 60),
    )
    .join('.');
