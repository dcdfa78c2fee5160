import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { formatPersonName } from '../../contract/format';
import {
  GRID_PAGE_SIZE,
  MARKER_OF,
  QUESTIONS,
  SCORE_MESSAGES as M,
  SEMESTERS,
  agreement,
  formatMark,
  inCourseTotal,
  parseMark,
  totalOf,
  type GridPage,
  type Grid,
  type InCourseRow,
  type MarkRow,
  type PaperRules,
  type ReconciliationRow,
} from '../../contract/scores';
import type { inCourseRowValidator, markRowValidator } from '../../contract/scores.validators';
import { audit, userOf, type Actor } from '../audit';
import type { Database } from '../db/client';
import {
  candidates,
  inCourseScores,
  papers,
  registrations,
  scoreSheets,
  scriptMarks,
  trainingSchools,
} from '../db/schema';
import { Invalid, NotFound, Refused, Stale } from '../errors';
import { assertMayRead, unblinded } from './blind';
import { agreementsOf, marksOf, paperRules, scriptOf, scriptWaits, type StoredMarks } from './agreement';
import { rosterOf, rosterOfSheet, selectRoster, type StoredSheet } from './roster';
import { findSheet, mayWrite, readSheet } from './sheets';
import { rulesOfPaper } from './papers';

/**
 * Marks: a grid's page, one row saved, and the agreement of the two markers (the rules are in
 * contract/scores.ts). A row is saved with the version it was loaded at and recorded only if that is
 * still the stored version (checked and written under the row's lock, or by the insert's conflict
 * target for a first save): a mark changed elsewhere meanwhile answers 409 with what is stored now.
 */

type MarkInput = Awaited<ReturnType<typeof markRowValidator.validate>>;
type InCourseInput = Awaited<ReturnType<typeof inCourseRowValidator.validate>>;
type StoredInCourse = typeof inCourseScores.$inferSelect;

const rosterColumns = {
  candidate_id: candidates.id,
  candidate_index: candidates.candidateIndex,
  first_name: candidates.first_name,
  middle_name: candidates.middle_name,
  last_name: candidates.last_name,
  school_code: trainingSchools.code,
  training_school_id: candidates.trainingSchoolId,
};
type RosterEntry = {
  candidate_id: number;
  candidate_index: string | null;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  school_code: string;
  training_school_id: number;
};

const toMarkRow = (entry: RosterEntry, row: StoredMarks | undefined): MarkRow => {
  const marks = marksOf(row).map(formatMark);
  return {
    candidate_id: entry.candidate_id,
    candidate_index: entry.candidate_index,
    name: formatPersonName(entry),
    school_code: entry.school_code,
    q1: marks[0],
    q2: marks[1],
    q3: marks[2],
    q4: marks[3],
    q5: marks[4],
    absent: row?.absent ?? false,
    total_score: formatMark(row?.totalScore ?? null),
    version: row?.version ?? 0,
  };
};

const toInCourseRow = (entry: RosterEntry, row: StoredInCourse | undefined): InCourseRow => ({
  candidate_id: entry.candidate_id,
  candidate_index: entry.candidate_index,
  name: formatPersonName(entry),
  school_code: entry.school_code,
  first_semester_score: formatMark(row?.firstSemesterScore ?? null),
  second_semester_score: formatMark(row?.secondSemesterScore ?? null),
  third_semester_score: formatMark(row?.thirdSemesterScore ?? null),
  total_score: formatMark(row?.totalScore ?? null),
  version: row?.version ?? 0,
});

/**
 * What a row's save reads before the marks' own row, in one statement (one round trip inside the row's
 * transaction, not three): the sheet, locked (`update` or `share`, as lockSheet), the candidate's
 * roster entry on it (null when not on its roster: the rule is roster.ts's rosterOfSheet) and its paper.
 * Only the sheet's row is locked (`of`), as before; the rest is read as the separate reads did.
 */
async function lockSheetForRow(tx: Database, sheetId: number, mode: 'update' | 'share', candidateId: number) {
  const [row] = (await tx
    .select({ sheet: scoreSheets, paper: papers, entry: rosterColumns })
    .from(scoreSheets)
    .leftJoin(papers, eq(papers.id, scoreSheets.paperId))
    .leftJoin(registrations, and(eq(registrations.candidateId, candidateId), rosterOfSheet.registration))
    .leftJoin(candidates, and(eq(candidates.id, registrations.candidateId), rosterOfSheet.candidate))
    .leftJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
    .where(eq(scoreSheets.id, sheetId))
    .limit(1)
    .for(mode, { of: scoreSheets })) as {
    sheet: StoredSheet;
    paper: typeof papers.$inferSelect | null;
    entry: RosterEntry | null;
  }[];
  if (!row) throw new NotFound(M.sheetNotFound);
  return row;
}

/** The roster entry lockSheetForRow read, or the 404 a candidate not on the sheet answers. */
function onRoster(entry: RosterEntry | null): RosterEntry {
  if (entry?.candidate_id == null) throw new NotFound(M.candidateNotOnSheet);
  return entry;
}

/** One page of a grid (by index number), as the caller may see it. */
export async function gridPage(
  db: Database,
  sheetId: number,
  grid: Grid,
  userId: number,
  page: number,
): Promise<GridPage<MarkRow | InCourseRow>> {
  const sheet = await findSheet(db, sheetId);
  assertMayRead(sheet, grid, userId);
  const sheetRow = await readSheet(db, sheetId);
  const pages = Math.max(1, Math.ceil(sheetRow.candidates / GRID_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pages);
  let entries = (await selectRoster(db, rosterColumns)
    .where(rosterOf(sheet))
    .orderBy(asc(candidates.candidateIndex), asc(candidates.id))
    .limit(GRID_PAGE_SIZE)
    .offset((current - 1) * GRID_PAGE_SIZE)) as RosterEntry[];
  const write = mayWrite(sheet, grid, userId);
  const rules = await paperRules(db, sheet);
  let rows: (MarkRow | InCourseRow)[];
  const ids = entries.map((e) => e.candidate_id);
  if (grid === 'in-course') {
    const stored = ids.length
      ? await db
          .select()
          .from(inCourseScores)
          .where(and(eq(inCourseScores.sheetId, sheetId), inArray(inCourseScores.candidateId, ids)))
      : [];
    const byId = new Map(stored.map((row) => [row.candidateId, row]));
    rows = entries.map((entry) => toInCourseRow(entry, byId.get(entry.candidate_id)));
  } else {
    if (grid === 'three' && rules) {
      // The third marker's grid lists the scripts out of tolerance only.
      const flagged = new Set(
        (await agreementsOf(db, sheet)).filter((a) => a.first.kind === 'flagged').map((a) => a.candidateId),
      );
      entries = entries.filter((entry) => flagged.has(entry.candidate_id));
    }
    const stored = ids.length
      ? await db
          .select()
          .from(scriptMarks)
          .where(
            and(
              eq(scriptMarks.sheetId, sheetId),
              eq(scriptMarks.marker, MARKER_OF[grid]),
              inArray(scriptMarks.candidateId, ids),
            ),
          )
      : [];
    const byId = new Map(stored.map((row) => [row.candidateId, row]));
    rows = entries.map((entry) => toMarkRow(entry, byId.get(entry.candidate_id)));
  }
  return {
    sheet: sheetRow,
    grid,
    rules,
    editable: write.refusal === null,
    reason_required: write.reason,
    rows,
    page: current,
    pages,
    total: sheetRow.candidates,
  };
}

/** Refuses the write with the grid's sentence, or requires the reason a submitted grid's change needs. */
function checkWrite(sheet: StoredSheet, grid: Grid, actor: Actor, reason: string | undefined) {
  const write = mayWrite(sheet, grid, userOf(actor));
  if (write.refusal)
    throw new Refused(
      write.refusal === M.sheetLocked || write.refusal === M.gridClosed ? 409 : 403,
      write.refusal,
    );
  if (write.reason && !reason) throw new Invalid({ reason: [M.reasonRequired] });
}

/** The marks typed, in tenths, each checked against its question's maximum (the grid's own sentence). */
function marksFrom(rules: PaperRules, input: MarkInput): (number | null)[] {
  const problems: Record<string, string[]> = {};
  const marks = QUESTIONS.map((q, i) => {
    const tenths = parseMark(input[q] ?? '');
    if (tenths === undefined) {
      problems[q] = [M.markInvalid];
      return null;
    }
    if (tenths !== null && tenths > rules.q_max[i]) problems[q] = [M.markTooHigh(formatMark(rules.q_max[i]))];
    return tenths;
  });
  if (Object.keys(problems).length) throw new Invalid(problems);
  return marks;
}

const markSnapshot = (row: StoredMarks | undefined) =>
  row ? { marks: marksOf(row), absent: row.absent, total_score: row.totalScore, version: row.version } : null;

/** Saves one candidate's row of a marker's grid (one, two or three). */
export async function saveMarks(
  tx: Database,
  actor: Actor,
  sheetId: number,
  grid: 'one' | 'two' | 'three',
  candidateId: number,
  input: MarkInput,
): Promise<MarkRow> {
  // The sheet's row is locked for the whole save: a change of state waits for it, and once both markers
  // have submitted the save moves the sheet's count of waiting scripts (two saves holding a shared lock
  // and both updating the row would deadlock each other).
  const { sheet, paper, entry: onSheet } = await lockSheetForRow(tx, sheetId, 'update', candidateId);
  if (sheet.kind !== 'exam') throw new Refused(403, M.notYourGrid);
  checkWrite(sheet, grid, actor, input.reason);
  const entry = onRoster(onSheet);
  const rules = rulesOfPaper(paper!);
  const counted = unblinded(sheet);
  const waitedBefore = counted && (await scriptWaits(tx, rules, sheet, candidateId));
  const marker = MARKER_OF[grid];
  const absent = input.absent ?? false;
  const marks = absent ? [null, null, null, null, null] : marksFrom(rules, input);
  if (grid === 'three') {
    const [one, two] = await Promise.all([
      storedMarks(tx, sheetId, candidateId, 1),
      storedMarks(tx, sheetId, candidateId, 2),
    ]);
    if (agreement(rules, scriptOf(one), scriptOf(two)).kind !== 'flagged')
      throw new Refused(409, M.notFlagged);
  }
  const total = totalOf(rules, { marks, absent });
  const values = {
    q1: marks[0],
    q2: marks[1],
    q3: marks[2],
    q4: marks[3],
    q5: marks[4],
    absent,
    totalScore: total,
    updatedBy: userOf(actor),
  };
  const key = and(
    eq(scriptMarks.sheetId, sheetId),
    eq(scriptMarks.candidateId, candidateId),
    eq(scriptMarks.marker, marker),
  );
  let before: StoredMarks | undefined;
  let saved: StoredMarks | undefined;
  if (input.version === 0) {
    [saved] = await tx
      .insert(scriptMarks)
      .values({ sheetId, candidateId, marker, ...values })
      .onConflictDoNothing()
      .returning();
  } else {
    [before] = await tx.select().from(scriptMarks).where(key).for('update');
    if (before && before.version === input.version) {
      const unchanged = marksOf(before).join() === marks.join() && before.absent === absent;
      if (unchanged) return toMarkRow(entry, before);
      [saved] = await tx
        .update(scriptMarks)
        .set({ ...values, version: before.version + 1, updatedAt: sql`now()` })
        .where(key)
        .returning();
    }
  }
  if (!saved) {
    const current = await storedMarks(tx, sheetId, candidateId, marker);
    throw new Stale(M.staleRow, { current: toMarkRow(entry, current) });
  }
  await audit(tx, actor, {
    action: 'mark.changed',
    entityId: sheetId,
    before: { candidate_id: candidateId, grid, ...markSnapshot(before) },
    after: { candidate_id: candidateId, grid, ...markSnapshot(saved), reason: input.reason ?? null },
  });
  if (counted) {
    // This script alone changed: the sheet's count moves by its difference, not by a recount.
    const delta = Number(await scriptWaits(tx, rules, sheet, candidateId)) - Number(waitedBefore);
    if (delta) {
      await tx
        .update(scoreSheets)
        .set({ flagged: sql`${scoreSheets.flagged} + ${delta}` })
        .where(eq(scoreSheets.id, sheetId));
    }
  }
  return toMarkRow(entry, saved);
}

async function storedMarks(db: Database, sheetId: number, candidateId: number, marker: number) {
  const [row] = await db
    .select()
    .from(scriptMarks)
    .where(
      and(
        eq(scriptMarks.sheetId, sheetId),
        eq(scriptMarks.candidateId, candidateId),
        eq(scriptMarks.marker, marker),
      ),
    );
  return row;
}

const inCourseSnapshot = (row: StoredInCourse | undefined) =>
  row
    ? {
        scores: [row.firstSemesterScore, row.secondSemesterScore, row.thirdSemesterScore],
        total_score: row.totalScore,
        version: row.version,
      }
    : null;

/** Saves one candidate's in-course row (each semester's score out of 100). */
export async function saveInCourse(
  tx: Database,
  actor: Actor,
  sheetId: number,
  candidateId: number,
  input: InCourseInput,
): Promise<InCourseRow> {
  const { sheet, entry: onSheet } = await lockSheetForRow(tx, sheetId, 'share', candidateId);
  if (sheet.kind !== 'in_course') throw new Refused(403, M.notYourGrid);
  checkWrite(sheet, 'in-course', actor, input.reason);
  const entry = onRoster(onSheet);
  const problems: Record<string, string[]> = {};
  const scores = SEMESTERS.map((field) => {
    const tenths = parseMark(input[field] ?? '');
    if (tenths === undefined) problems[field] = [M.markInvalid];
    else if (tenths !== null && tenths > 1000) problems[field] = [M.semesterTooHigh];
    return tenths ?? null;
  });
  if (Object.keys(problems).length) throw new Invalid(problems);
  const values = {
    firstSemesterScore: scores[0],
    secondSemesterScore: scores[1],
    thirdSemesterScore: scores[2],
    totalScore: inCourseTotal(scores),
    updatedBy: userOf(actor),
  };
  const key = and(eq(inCourseScores.sheetId, sheetId), eq(inCourseScores.candidateId, candidateId));
  let before: StoredInCourse | undefined;
  let saved: StoredInCourse | undefined;
  if (input.version === 0) {
    [saved] = await tx
      .insert(inCourseScores)
      .values({ sheetId, candidateId, ...values })
      .onConflictDoNothing()
      .returning();
  } else {
    [before] = await tx.select().from(inCourseScores).where(key).for('update');
    if (before && before.version === input.version) {
      const unchanged =
        [before.firstSemesterScore, before.secondSemesterScore, before.thirdSemesterScore].join() ===
        scores.join();
      if (unchanged) return toInCourseRow(entry, before);
      [saved] = await tx
        .update(inCourseScores)
        .set({ ...values, version: before.version + 1, updatedAt: sql`now()` })
        .where(key)
        .returning();
    }
  }
  if (!saved) {
    const [current] = await tx.select().from(inCourseScores).where(key);
    throw new Stale(M.staleRow, { current: toInCourseRow(entry, current) });
  }
  await audit(tx, actor, {
    action: 'in_course_score.changed',
    entityId: sheetId,
    before: { candidate_id: candidateId, ...inCourseSnapshot(before) },
    after: { candidate_id: candidateId, ...inCourseSnapshot(saved), reason: input.reason ?? null },
  });
  return toInCourseRow(entry, saved);
}

const side = (row: StoredMarks | undefined) => ({
  marks: marksOf(row).map(formatMark),
  absent: row?.absent ?? false,
  total_score: formatMark(row?.totalScore ?? null),
});

/** The flagged scripts of a sheet with both marks side by side (both markers must have submitted). */
export async function reconciliation(
  db: Database,
  sheetId: number,
  userId: number,
): Promise<ReconciliationRow[]> {
  const stored = await findSheet(db, sheetId);
  assertMayRead(stored, 'agreement', userId);
  const flagged = (await agreementsOf(db, stored)).filter((a) => a.first.kind === 'flagged');
  if (!flagged.length) return [];
  const entries = (await selectRoster(db, rosterColumns).where(
    and(
      rosterOf(stored),
      inArray(
        candidates.id,
        flagged.map((a) => a.candidateId),
      ),
    ),
  )) as RosterEntry[];
  const byId = new Map(entries.map((e) => [e.candidate_id, e]));
  return flagged
    .map((a): ReconciliationRow => {
      const entry = byId.get(a.candidateId)!;
      return {
        candidate_id: a.candidateId,
        candidate_index: entry.candidate_index,
        name: formatPersonName(entry),
        one: side(a.one),
        two: side(a.two),
        three: a.three ? side(a.three) : null,
        why: a.first.kind === 'flagged' ? a.first.why : 'total',
        final:
          a.decided.kind === 'agreed'
            ? formatMark(a.decided.total)
            : a.decided.kind === 'absent'
              ? 'Absent'
              : '',
      };
    })
    .sort((x, y) => (x.candidate_index ?? '').localeCompare(y.candidate_index ?? ''));
}
