import { SCORE_MESSAGES as M, type Grid } from '../../contract/scores';
import type { scoreSheets } from '../db/schema';
import { Refused } from '../errors';

/**
 * Blind double marking, in one place. Until both markers of an exam sheet have submitted, a marker's
 * marks leave the server only to that marker, and nothing is served that compares the two grids:
 * every reader of marks (a grid's page, the reconciliation view, the third marker's grid, the waiting
 * count on a sheet, the agreements results are computed from) asks here first. An in-course sheet has
 * one clerk and is never blind.
 *
 * What a reader asks for: one grid's marks, or the agreement of grids one and two (which scripts
 * agree, which are flagged, their means, the count waiting: anything read from both grids together).
 */
export type Reading = Grid | 'agreement';

type Sheet = typeof scoreSheets.$inferSelect;

/** Whether the sheet's marks are no longer blind: both markers have submitted (in-course: always). */
export const unblinded = (sheet: Sheet): boolean =>
  sheet.kind === 'in_course' || (sheet.markerOneSubmittedAt !== null && sheet.markerTwoSubmittedAt !== null);

const gridFits = (sheet: Sheet, grid: Grid) => (grid === 'in-course') === (sheet.kind === 'in_course');

const ownerOf = (sheet: Sheet, grid: 'one' | 'two'): number | null =>
  grid === 'one' ? sheet.markerOneId : sheet.markerTwoId;

/**
 * Whether `userId` (null: the server itself, as when results are computed) may read this. Before both
 * submit: grid one to marker one alone, grid two to marker two alone, no third grid, no agreement.
 * After: the whole board (every route here is the board's) reads each grid and the agreement.
 */
export function mayRead(sheet: Sheet, reading: Reading, userId: number | null): boolean {
  if (reading === 'agreement') return sheet.kind === 'exam' && unblinded(sheet);
  if (!gridFits(sheet, reading)) return false;
  if (unblinded(sheet)) return true;
  if (reading === 'three' || reading === 'in-course') return false;
  return userId !== null && ownerOf(sheet, reading) === userId;
}

/** Refuses (403, in words) what `mayRead` denies. */
export function assertMayRead(sheet: Sheet, reading: Reading, userId: number | null): void {
  if (mayRead(sheet, reading, userId)) return;
  if (!gridFits(sheet, reading === 'agreement' ? 'one' : reading)) throw new Refused(403, M.notYourGrid);
  throw new Refused(403, reading === 'three' ? M.thirdGridBlind : M.blind);
}

/** The count of scripts waiting for a third mark, as a sheet shows it: 0 while the marks are blind. */
export const visibleFlagged = (sheet: Sheet): number =>
  mayRead(sheet, 'agreement', null) ? sheet.flagged : 0;
