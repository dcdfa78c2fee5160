import { GRIDS, IMPORT_MAX_BYTES, REASON_MAX, SCORE_MESSAGES as M, type Grid } from '../../contract/scores';
import { SCORE_ENDPOINTS as E } from '../../contract/scores.endpoints';
import { Invalid, NotFound } from '../errors';
import { actorOf, callerOf, dbOf, transact, type AppContext } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';
import { checkedForm } from '../http/validate';
import { importMarks } from '../scores/import';
import { gridPage, reconciliation, saveInCourse, saveMarks } from '../scores/marks';
import { courseScoring, createPaper, deletePaper, setResultRules, updatePaper } from '../scores/papers';
import {
  computeAudited,
  holdResult,
  openHolds,
  publicationPreview,
  publications,
  publishResults,
  releaseHold,
  withdrawResults,
} from '../scores/results';
import {
  createSheet,
  listSheets,
  lockSheetMarks,
  markers,
  readSheet,
  setMarkerThree,
  submitGrid,
  unlockSheet,
} from '../scores/sheets';

/**
 * Score entry and results (server/scores/), the board's alone: papers and result rules per course
 * header; sheets, their grids row by row, submission, the third marker, lock; results computed,
 * published and withdrawn per diet and course header; holds. The results lists (both roles) are made
 * from their definitions (contract/lists.ts RESULTS_LISTS).
 */

const sheetId = (c: AppContext) => idOf(c, M.sheetNotFound);
const candidateId = (c: AppContext) => idOf(c, M.candidateNotOnSheet, 'candidate');
const userId = (c: AppContext) => callerOf(c).userId;

/** The `:code` of a course header in the path, or the 404 any other text gets. */
function courseCodeOf(c: AppContext): string {
  const code = c.req.param('code') ?? '';
  if (!/^[A-Za-z][0-9]{1,2}$/.test(code)) throw new NotFound(M.courseHeaderNotFound);
  return code;
}

/**
 * The `:grid` of the path, one of `grids`, or the 404 of a sheet without it. A path that names its
 * grids (`:grid{one|two}`) is matched by Hono only for those, so there the check narrows the type.
 */
function gridOf<G extends Grid>(c: AppContext, grids: readonly G[]): G {
  const grid = c.req.param('grid');
  if (!grids.includes(grid as G)) throw new NotFound(M.sheetNotFound);
  return grid as G;
}

/** The grids whose rows are a marker's marks (the in-course grid's are semester scores). */
const MARK_GRIDS = ['one', 'two', 'three'] as const;
/** The grids a marker submits. */
const SUBMITTED_GRIDS = ['one', 'two'] as const;

const courseRoutes: Route[] = [
  serve(E.courseScoring, async (c) => ok(c, await courseScoring(dbOf(c), courseCodeOf(c)))),
  serve(E.rules, async (c) => {
    const code = courseCodeOf(c);
    const rules = await transact(c, (tx, actor) => setResultRules(tx, actor, code, c.req.valid('json')));
    return ok(c, rules, M.rulesSaved);
  }),
  serve(E.createPaper, async (c) => {
    const paper = await transact(c, (tx, actor) => createPaper(tx, actor, c.req.valid('json')));
    return ok(c, paper, M.paperSaved);
  }),
  serve(E.updatePaper, async (c) => {
    const id = idOf(c, M.paperNotFound);
    const paper = await transact(c, (tx, actor) => updatePaper(tx, actor, id, c.req.valid('json')));
    return ok(c, paper, M.paperSaved);
  }),
  serve(E.deletePaper, async (c) => {
    const id = idOf(c, M.paperNotFound);
    await transact(c, (tx, actor) => deletePaper(tx, actor, id));
    return ok(c, undefined, M.paperDeleted);
  }),
];

const sheetRoutes: Route[] = [
  serve(E.sheets, async (c) => {
    const { diet } = c.req.valid('query');
    const [sheets, people] = [await listSheets(dbOf(c), diet ?? null), await markers(dbOf(c))];
    return ok(c, { sheets, markers: people });
  }),
  serve(E.createSheet, async (c) => {
    const sheet = await transact(c, (tx, actor) => createSheet(tx, actor, c.req.valid('json')));
    return ok(c, sheet, M.sheetCreated);
  }),
  serve(E.sheet, async (c) => ok(c, await readSheet(dbOf(c), sheetId(c)))),
  serve(E.markerThree, async (c) => {
    const id = sheetId(c);
    const { marker_three } = c.req.valid('json');
    const sheet = await transact(c, (tx, actor) => setMarkerThree(tx, actor, id, marker_three));
    return ok(c, sheet, M.markerThreeSet);
  }),
  serve(E.lock, async (c) => {
    const id = sheetId(c);
    return ok(c, await transact(c, (tx, actor) => lockSheetMarks(tx, actor, id)), M.locked);
  }),
  serve(E.unlock, async (c) => {
    const id = sheetId(c);
    const { reason } = c.req.valid('json');
    return ok(c, await transact(c, (tx, actor) => unlockSheet(tx, actor, id, reason)), M.unlocked);
  }),
  serve(E.reconciliation, async (c) => ok(c, await reconciliation(dbOf(c), sheetId(c), userId(c)))),
];

const gridRoutes: Route[] = [
  serve(E.grid, async (c) => {
    const { page } = c.req.valid('query');
    return ok(c, await gridPage(dbOf(c), sheetId(c), gridOf(c, GRIDS), userId(c), page ?? 1));
  }),
  // A marker's row: grids one, two and three take marks; the in-course grid its semester scores.
  serve(E.markRow, async (c) => {
    const [id, grid, candidate] = [sheetId(c), gridOf(c, MARK_GRIDS), candidateId(c)];
    const row = await transact(c, (tx, actor) =>
      saveMarks(tx, actor, id, grid, candidate, c.req.valid('json')),
    );
    return ok(c, row, M.rowSaved);
  }),
  serve(E.inCourseRow, async (c) => {
    const [id, candidate] = [sheetId(c), candidateId(c)];
    const row = await transact(c, (tx, actor) => saveInCourse(tx, actor, id, candidate, c.req.valid('json')));
    return ok(c, row, M.rowSaved);
  }),
  serve(E.submit, async (c) => {
    const [id, grid] = [sheetId(c), gridOf(c, SUBMITTED_GRIDS)];
    return ok(c, await transact(c, (tx, actor) => submitGrid(tx, actor, id, grid)), M.submitted);
  }),
];

/** A marks CSV and its options, checked for what it is before a row is read (rows: server/scores/import.ts). */
const marksCsv = checkedForm(
  async (body) => {
    const csv = body.csv instanceof File && body.csv.size > 0 ? body.csv : null;
    if (!csv) throw new Invalid({ csv: [M.importNotCsv] });
    if (csv.size > IMPORT_MAX_BYTES) throw new Invalid({ csv: [M.importTooLarge] });
    const reason = typeof body.reason === 'string' ? body.reason.trim() : '';
    if (reason.length > REASON_MAX) throw new Invalid({ reason: [M.reasonTooLong] });
    return { csv, dryRun: body.dry_run !== '0', reason: reason || undefined };
  },
  {
    maxBytes: IMPORT_MAX_BYTES + 16 * 1024,
    parts: { csv: { bytes: IMPORT_MAX_BYTES, tooLarge: M.importTooLarge } },
  },
);

const importRoutes: Route[] = [
  serve(E.importMarks, marksCsv, async (c) => {
    const [id, grid] = [sheetId(c), gridOf(c, GRIDS)];
    const { csv, dryRun, reason } = c.req.valid('form');
    const bytes = new Uint8Array(await csv.arrayBuffer());
    const { database } = c.get('deps');
    const report = await importMarks(database.db, actorOf(c), id, grid, bytes, { dryRun, reason });
    return ok(c, report, dryRun ? M.importChecked(report.good, report.bad) : M.imported(report.saved));
  }),
];

const resultRoutes: Route[] = [
  serve(E.publications, async (c) => {
    const { diet } = c.req.valid('query');
    return ok(c, await publications(dbOf(c), diet ?? null));
  }),
  serve(E.compute, async (c) => {
    const row = await transact(c, (tx, actor) => computeAudited(tx, actor, c.req.valid('json')));
    return ok(c, row, M.computed);
  }),
  serve(E.publish, async (c) => {
    const row = await transact(c, (tx, actor) => publishResults(tx, actor, c.req.valid('json')));
    return ok(c, row, M.published);
  }),
  // What compute, publish and withdraw would do (their questions' numbers, the refusal, the changes).
  serve(E.preview, async (c) => ok(c, await publicationPreview(dbOf(c), c.req.valid('query')))),
  serve(E.withdraw, async (c) => {
    const row = await transact(c, (tx, actor) => withdrawResults(tx, actor, c.req.valid('json')));
    return ok(c, row, M.withdrawn);
  }),
  serve(E.holds, async (c) => {
    const { diet } = c.req.valid('query');
    return ok(c, await openHolds(dbOf(c), diet ?? null));
  }),
  serve(E.hold, async (c) => {
    const hold = await transact(c, (tx, actor) => holdResult(tx, actor, c.req.valid('json')));
    return ok(c, { id: hold.id }, M.holdCreated);
  }),
  serve(E.releaseHold, async (c) => {
    const id = idOf(c, M.holdNotFound);
    await transact(c, (tx, actor) => releaseHold(tx, actor, id));
    return ok(c, undefined, M.holdReleased);
  }),
];

export const scoreRoutes: Route[] = [
  ...courseRoutes,
  ...sheetRoutes,
  ...gridRoutes,
  ...importRoutes,
  ...resultRoutes,
];
