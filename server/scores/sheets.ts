import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  SCORE_MESSAGES as M,
  thirdMarkerRefusal,
  type Grid,
  type SheetRow,
  type SheetState,
} from '../../contract/scores';
import type { sheetValidator } from '../../contract/scores.validators';
import { audit, changeAudited, userOf, type Actor } from '../audit';
import type { Database } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import {
  candidates,
  courseHeaders,
  diets,
  inCourseScores,
  papers,
  registrations,
  scoreSheets,
  scriptMarks,
  trainingSchools,
  users,
} from '../db/schema';
import { dietCodeIs, namedDiet } from '../diets/byCode';
import { Invalid, NotFound, Refused } from '../errors';
import { unblinded, visibleFlagged } from './blind';
import { courseHeaderByCode } from './papers';
import { agreementsOf, isWaiting } from './agreement';
import { rosterCount, rosterOf, rosterOfSheet, selectRoster, type StoredSheet } from './roster';
import { activeBoardAdmin } from '../users';

/**
 * Score sheets: a diet x course header x paper (optionally one school's), its markers, and its life
 * (contract SheetState; machines/scoreSheet.machine.ts is the same life as the screen sees it). Every
 * change of state locks the sheet's row, so a mark saved meanwhile (which holds the row shared) is
 * either before it or refused after it; each is audited and bumps the sheet's version.
 *
 * The scores folder imports one way, in layers (eslint.config.js SCORE_LAYERS keeps it so): roster.ts
 * (the sheet as stored), blind.ts and papers.ts at the bottom; agreement.ts (the markers' agreement) on
 * them; this file and results.ts on the agreement; marks.ts on the sheets; import.ts (marks from paper)
 * on top.
 */

type SheetInput = Awaited<ReturnType<typeof sheetValidator.validate>>;

const markerOne = alias(users, 'marker_one');
const markerTwo = alias(users, 'marker_two');
const markerThree = alias(users, 'marker_three');

const selectSheets = (db: Database) =>
  db
    .select({
      sheet: scoreSheets,
      diet: { id: diets.id, code: diets.code },
      course_header: { id: courseHeaders.id, code: courseHeaders.code },
      paperName: papers.name,
      schoolCode: trainingSchools.code,
      one: markerOne.name,
      two: markerTwo.name,
      three: markerThree.name,
    })
    .from(scoreSheets)
    .innerJoin(diets, eq(diets.id, scoreSheets.dietId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, scoreSheets.courseHeaderId))
    .leftJoin(papers, eq(papers.id, scoreSheets.paperId))
    .leftJoin(trainingSchools, eq(trainingSchools.id, scoreSheets.trainingSchoolId))
    .innerJoin(markerOne, eq(markerOne.id, scoreSheets.markerOneId))
    .leftJoin(markerTwo, eq(markerTwo.id, scoreSheets.markerTwoId))
    .leftJoin(markerThree, eq(markerThree.id, scoreSheets.markerThreeId))
    .$dynamic();

type SelectedSheet = Awaited<ReturnType<ReturnType<typeof selectSheets>['execute']>>[number];

const ref = (id: number | null, name: string | null) => (id === null || name === null ? null : { id, name });

const toSheetRow = (row: SelectedSheet, candidateCount: number): SheetRow => ({
  id: row.sheet.id,
  kind: row.sheet.kind,
  state: row.sheet.state,
  diet: row.diet,
  course_header: row.course_header,
  paper: row.sheet.paperId === null ? null : { id: row.sheet.paperId, name: row.paperName ?? '' },
  school:
    row.sheet.trainingSchoolId === null
      ? null
      : { id: row.sheet.trainingSchoolId, code: row.schoolCode ?? '' },
  marker_one: ref(row.sheet.markerOneId, row.one),
  marker_two: ref(row.sheet.markerTwoId, row.two),
  marker_three: ref(row.sheet.markerThreeId, row.three),
  candidates: candidateCount,
  flagged: visibleFlagged(row.sheet),
  version: row.sheet.version,
});

export async function readSheet(db: Database, id: number): Promise<SheetRow> {
  const [row] = await selectSheets(db).where(eq(scoreSheets.id, id));
  if (!row) throw new NotFound(M.sheetNotFound);
  return toSheetRow(row, await rosterCount(db, row.sheet));
}

/** The sheets of a diet (every diet's when none is named), by course header and paper. */
export async function listSheets(db: Database, dietCode: string | null): Promise<SheetRow[]> {
  const rows = await selectSheets(db)
    .where(dietCode ? dietCodeIs(dietCode) : undefined)
    .orderBy(asc(courseHeaders.code), asc(scoreSheets.kind), asc(papers.name), asc(scoreSheets.id));
  if (!rows.length) return [];
  // Each sheet's candidates, counted in one query grouped by sheet.
  const counts = await db
    .select({ id: scoreSheets.id, total: sql<number>`count(${candidates.id})::int` })
    .from(scoreSheets)
    .innerJoin(registrations, rosterOfSheet.registration)
    .innerJoin(candidates, and(eq(candidates.id, registrations.candidateId), rosterOfSheet.candidate))
    .where(
      inArray(
        scoreSheets.id,
        rows.map((row) => row.sheet.id),
      ),
    )
    .groupBy(scoreSheets.id);
  const byId = new Map(counts.map((c) => [c.id, c.total]));
  return rows.map((row) => toSheetRow(row, byId.get(row.sheet.id) ?? 0));
}

async function adminId(db: Database, id: number, field: string): Promise<number> {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, id), activeBoardAdmin()));
  if (!user) throw new Invalid({ [field]: [M.markerUnknown] });
  return user.id;
}

/** The board's administrators who can mark (the sheet form's choices). */
export const markers = (db: Database) =>
  db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(activeBoardAdmin())
    .orderBy(asc(users.name));

export async function createSheet(tx: Database, actor: Actor, input: SheetInput): Promise<SheetRow> {
  const diet = await namedDiet(tx, input.diet);
  const header = await courseHeaderByCode(tx, input.course_header);
  let paperId: number | null = null;
  if (input.kind === 'exam') {
    if (!input.paper_id) throw new Invalid({ paper_id: [M.paperRequired] });
    const [paper] = await tx.select().from(papers).where(eq(papers.id, input.paper_id));
    if (!paper) throw new Invalid({ paper_id: [M.paperRequired] });
    if (paper.courseHeaderId !== header.id) throw new Invalid({ paper_id: [M.paperWrongCourse] });
    paperId = paper.id;
    if (!input.marker_two) throw new Invalid({ marker_two: [M.markersRequired] });
    if (input.marker_two === input.marker_one) throw new Invalid({ marker_two: [M.markersSame] });
  }
  let schoolId: number | null = null;
  if (input.school) {
    const [school] = await tx
      .select({ id: trainingSchools.id })
      .from(trainingSchools)
      .where(eq(trainingSchools.code, input.school));
    if (!school) throw new Invalid({ school: [M.schoolUnknown] });
    schoolId = school.id;
  }
  const one = await adminId(tx, input.marker_one, 'marker_one');
  const two = input.kind === 'exam' ? await adminId(tx, input.marker_two!, 'marker_two') : null;
  const scope = { dietId: diet.id, courseHeaderId: header.id, paperId, schoolId };
  const refuse = async () => {
    const existing = await overlappingSheet(tx, scope);
    return new Invalid({ school: [existing ? M.sheetOverlaps(existing) : M.sheetExists] });
  };
  // Said in words before trying; the score_sheets exclusion constraint is what holds under a race.
  if (await overlappingSheet(tx, scope)) throw await refuse();
  let created: StoredSheet;
  try {
    // A savepoint: the constraint's refusal leaves the transaction usable to name the sheet that won.
    created = await tx.transaction(async (inner) => {
      const [row] = await inner
        .insert(scoreSheets)
        .values({
          kind: input.kind,
          dietId: diet.id,
          courseHeaderId: header.id,
          paperId,
          trainingSchoolId: schoolId,
          markerOneId: one,
          markerTwoId: two,
          createdBy: userOf(actor),
        })
        .returning();
      return row;
    });
  } catch (error) {
    if (isOverlap(error)) throw await refuse();
    throw error;
  }
  await audit(tx, actor, { action: 'score_sheet.created', entityId: created.id, after: snapshotOf(created) });
  return readSheet(tx, created.id);
}

/** PostgreSQL's exclusion_violation or unique_violation on a sheet's scope, from either driver. */
function isOverlap(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (candidate.code === '23P01' && candidate.constraint === 'score_sheets_one_sheet_per_candidate')
      return true;
    if (candidate.code === '23505') return isUniqueViolation(current, 'score_sheets_key');
    current = candidate.cause;
  }
  return false;
}

/**
 * The sheet, if any, that already decides some of these candidates' paper: same diet, course header
 * and paper (null: the in-course sheet), and a school in common (a sheet of all schools has every
 * school in common). Named in words: 'The A1 Paper I sheet of all schools (DEC-2026)'.
 */
async function overlappingSheet(
  db: Database,
  scope: { dietId: number; courseHeaderId: number; paperId: number | null; schoolId: number | null },
): Promise<string | null> {
  const [row] = await selectSheets(db)
    .where(
      and(
        eq(scoreSheets.dietId, scope.dietId),
        eq(scoreSheets.courseHeaderId, scope.courseHeaderId),
        scope.paperId === null ? isNull(scoreSheets.paperId) : eq(scoreSheets.paperId, scope.paperId),
        scope.schoolId === null
          ? undefined
          : or(isNull(scoreSheets.trainingSchoolId), eq(scoreSheets.trainingSchoolId, scope.schoolId)),
      ),
    )
    .orderBy(asc(scoreSheets.id))
    .limit(1);
  if (!row) return null;
  const what = row.sheet.paperId === null ? 'in-course' : (row.paperName ?? 'paper');
  const whose = row.schoolCode ? `of ${row.schoolCode}` : 'of all schools';
  return `The ${row.course_header.code} ${what} sheet ${whose} (${row.diet.code}, sheet ${row.sheet.id})`;
}

const snapshotOf = (sheet: StoredSheet) => ({
  kind: sheet.kind,
  state: sheet.state,
  diet_id: sheet.dietId,
  course_header_id: sheet.courseHeaderId,
  paper_id: sheet.paperId,
  training_school_id: sheet.trainingSchoolId,
  marker_one_id: sheet.markerOneId,
  marker_two_id: sheet.markerTwoId,
  marker_three_id: sheet.markerThreeId,
  flagged: sheet.flagged,
});

export async function findSheet(db: Database, id: number): Promise<StoredSheet> {
  const [sheet] = await db.select().from(scoreSheets).where(eq(scoreSheets.id, id));
  if (!sheet) throw new NotFound(M.sheetNotFound);
  return sheet;
}

/** The sheet, locked against changes of state (`update`) or against them alone (`share`: a mark saved). */
async function lockSheet(tx: Database, id: number, mode: 'update' | 'share'): Promise<StoredSheet> {
  const [sheet] = await tx
    .select()
    .from(scoreSheets)
    .where(eq(scoreSheets.id, id))
    .for(mode === 'update' ? 'update' : 'share');
  if (!sheet) throw new NotFound(M.sheetNotFound);
  return sheet;
}

/** The marker a grid is entered by (in-course: the sheet's one clerk, its marker one). */
const markerOfGrid = (sheet: StoredSheet, grid: Grid): number | null =>
  grid === 'one' || grid === 'in-course'
    ? sheet.markerOneId
    : grid === 'two'
      ? sheet.markerTwoId
      : sheet.markerThreeId;

const gridFits = (sheet: StoredSheet, grid: Grid) => (grid === 'in-course') === (sheet.kind === 'in_course');

/** Why the caller may not change marks in this grid now (null: they may), and whether a reason is due. */
export function mayWrite(
  sheet: StoredSheet,
  grid: Grid,
  userId: number,
): { refusal: string | null; reason: boolean } {
  if (sheet.state === 'locked' || sheet.state === 'published')
    return { refusal: M.sheetLocked, reason: false };
  if (!gridFits(sheet, grid) || markerOfGrid(sheet, grid) !== userId)
    return { refusal: M.notYourGrid, reason: false };
  if (grid === 'three') {
    return { refusal: sheet.state === 'reconciling' ? null : M.gridClosed, reason: false };
  }
  if (grid === 'in-course') return { refusal: null, reason: false };
  const submitted = grid === 'one' ? sheet.markerOneSubmittedAt : sheet.markerTwoSubmittedAt;
  return { refusal: null, reason: submitted !== null };
}

/** Bumps the sheet's version and stamps it, with what else changed: every change of state does. */
const stateChange = (values: Partial<typeof scoreSheets.$inferInsert>) => ({
  ...values,
  version: sql`${scoreSheets.version} + 1`,
});

/** Recounts the scripts waiting for a third mark (both submitted); returns the count. */
async function refreshFlagged(tx: Database, sheet: StoredSheet): Promise<number> {
  if (sheet.kind !== 'exam' || !unblinded(sheet)) return 0;
  const waiting = (await agreementsOf(tx, sheet)).filter(isWaiting).length;
  if (waiting !== sheet.flagged) {
    await tx.update(scoreSheets).set({ flagged: waiting }).where(eq(scoreSheets.id, sheet.id));
  }
  return waiting;
}

/** Marks missing in a marker's grid: roster candidates with no complete row (marks for each question, or absent). */
async function missingMarks(tx: Database, sheet: StoredSheet, marker: 1 | 2): Promise<number> {
  const [row] = (await selectRoster(tx, { total: sql<number>`count(*)::int` })
    .leftJoin(
      scriptMarks,
      and(
        eq(scriptMarks.sheetId, sheet.id),
        eq(scriptMarks.candidateId, candidates.id),
        eq(scriptMarks.marker, marker),
      ),
    )
    .where(
      and(
        rosterOf(sheet),
        sql`(${scriptMarks.candidateId} is null or (not ${scriptMarks.absent} and ${scriptMarks.totalScore} is null))`,
      ),
    )) as { total: number }[];
  return row.total;
}

/** A marker submits their grid: every candidate marked (or absent). The second submission starts reconciling. */
export async function submitGrid(tx: Database, actor: Actor, id: number, grid: 'one' | 'two') {
  const sheet = await lockSheet(tx, id, 'update');
  if (sheet.kind !== 'exam' || markerOfGrid(sheet, grid) !== userOf(actor))
    throw new Refused(403, M.notYourGrid);
  if (sheet.state === 'locked' || sheet.state === 'published') throw new Refused(409, M.sheetLocked);
  const submitted = grid === 'one' ? sheet.markerOneSubmittedAt : sheet.markerTwoSubmittedAt;
  if (submitted) throw new Refused(409, M.alreadySubmitted);
  const missing = await missingMarks(tx, sheet, grid === 'one' ? 1 : 2);
  if (missing) throw new Refused(409, M.submitIncomplete(missing));
  const now = new Date();
  const other = grid === 'one' ? sheet.markerTwoSubmittedAt : sheet.markerOneSubmittedAt;
  const state: SheetState = other
    ? 'reconciling'
    : grid === 'one'
      ? 'marker_one_submitted'
      : 'marker_two_submitted';
  const [updated] = await tx
    .update(scoreSheets)
    .set(
      stateChange({
        state,
        ...(grid === 'one' ? { markerOneSubmittedAt: now } : { markerTwoSubmittedAt: now }),
      }),
    )
    .where(eq(scoreSheets.id, id))
    .returning();
  const flagged = await refreshFlagged(tx, updated);
  await audit(tx, actor, {
    action: 'score_sheet.submitted',
    entityId: id,
    before: { state: sheet.state },
    after: { state, grid, flagged },
  });
  return readSheet(tx, id);
}

/**
 * Names the third marker of a reconciling sheet with scripts waiting (contract `thirdMarkerRefusal`,
 * the one rule): checked and recorded under the sheet's row lock, so a lock or a change of marks at the
 * same time is before it or after it.
 */
export async function setMarkerThree(tx: Database, actor: Actor, id: number, markerThreeId: number) {
  const [person] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, markerThreeId), activeBoardAdmin()));
  await changeAudited(tx, actor, {
    table: scoreSheets,
    id,
    notFound: M.sheetNotFound,
    action: 'score_sheet.marker_three_set',
    snapshot: (sheet) => ({ marker_three_id: sheet.markerThreeId }),
    set: (sheet) => {
      const refusal = thirdMarkerRefusal(
        {
          kind: sheet.kind,
          state: sheet.state,
          flagged: visibleFlagged(sheet),
          marker_one_id: sheet.markerOneId,
          marker_two_id: sheet.markerTwoId,
        },
        { id: markerThreeId, board_admin: person !== undefined },
      );
      if (refusal?.status === 422) throw new Invalid({ marker_three: [refusal.message] });
      if (refusal) throw new Refused(409, refusal.message);
      return stateChange({ markerThreeId: markerThreeId });
    },
  });
  return readSheet(tx, id);
}

/** In-course rows missing: roster candidates with no semester score at all. */
async function missingInCourse(tx: Database, sheet: StoredSheet): Promise<number> {
  const [row] = (await selectRoster(tx, { total: sql<number>`count(*)::int` })
    .leftJoin(
      inCourseScores,
      and(eq(inCourseScores.sheetId, sheet.id), eq(inCourseScores.candidateId, candidates.id)),
    )
    .where(and(rosterOf(sheet), sql`${inCourseScores.totalScore} is null`))) as { total: number }[];
  return row.total;
}

/** Locks a sheet: both submitted and every flagged script decided (an in-course sheet: every row scored). */
export async function lockSheetMarks(tx: Database, actor: Actor, id: number) {
  const sheet = await lockSheet(tx, id, 'update');
  if (sheet.state === 'locked' || sheet.state === 'published') throw new Refused(409, M.sheetLocked);
  if (sheet.kind === 'in_course') {
    const missing = await missingInCourse(tx, sheet);
    if (missing) throw new Refused(409, M.inCourseLockNotReady(missing));
  } else {
    if (sheet.state !== 'reconciling') throw new Refused(409, M.lockNotReady);
    const waiting = await refreshFlagged(tx, sheet);
    if (waiting) throw new Refused(409, M.lockNotReady);
  }
  await tx
    .update(scoreSheets)
    .set(stateChange({ state: 'locked', lockedAt: new Date(), flagged: 0 }))
    .where(eq(scoreSheets.id, id));
  await audit(tx, actor, {
    action: 'score_sheet.locked',
    entityId: id,
    before: { state: sheet.state },
    after: { state: 'locked' },
  });
  return readSheet(tx, id);
}

/** Unlocks a locked sheet for a correction, with the reason; a published sheet's results are withdrawn first. */
export async function unlockSheet(tx: Database, actor: Actor, id: number, reason: string) {
  const sheet = await lockSheet(tx, id, 'update');
  if (sheet.state === 'published') throw new Refused(409, M.publishedSheet);
  if (sheet.state !== 'locked') throw new Refused(409, M.notLocked);
  const state: SheetState = sheet.kind === 'in_course' ? 'open' : 'reconciling';
  const [updated] = await tx
    .update(scoreSheets)
    .set(stateChange({ state, lockedAt: null }))
    .where(eq(scoreSheets.id, id))
    .returning();
  await refreshFlagged(tx, updated);
  await audit(tx, actor, {
    action: 'score_sheet.unlocked',
    entityId: id,
    before: { state: sheet.state },
    after: { state, reason },
  });
  return readSheet(tx, id);
}
