import { and, eq } from 'drizzle-orm';
import {
  agreement,
  thirdMarkerDecides,
  type Agreement,
  type PaperRules,
  type ScriptMarks,
} from '../../contract/scores';
import type { Database } from '../db/client';
import { candidates, papers, scriptMarks } from '../db/schema';
import { mayRead } from './blind';
import { rulesOfPaper } from './papers';
import { rosterOf, selectRoster, type StoredSheet } from './roster';

/**
 * The agreement of a sheet's two markers, script by script, and what the third marker decides (the
 * rules are in contract/scores.ts): read by the marks (marks.ts), the sheets' life (sheets.ts: the
 * waiting count, locking) and computed results (results.ts).
 */

export type StoredMarks = typeof scriptMarks.$inferSelect;

export const marksOf = (row: StoredMarks | undefined): (number | null)[] =>
  row ? [row.q1, row.q2, row.q3, row.q4, row.q5] : [null, null, null, null, null];
export const scriptOf = (row: StoredMarks | undefined): ScriptMarks | null =>
  row ? { marks: marksOf(row), absent: row.absent } : null;

export async function paperRules(db: Database, sheet: StoredSheet): Promise<PaperRules | null> {
  if (sheet.paperId === null) return null;
  const [paper] = await db.select().from(papers).where(eq(papers.id, sheet.paperId));
  return paper ? rulesOfPaper(paper) : null;
}

export interface ScriptAgreement {
  candidateId: number;
  /** Markers one and two alone. */
  first: Agreement;
  /** With the third marker's mark, where the first is flagged. */
  decided: Agreement;
  one: StoredMarks | undefined;
  two: StoredMarks | undefined;
  three: StoredMarks | undefined;
}

/**
 * Every roster candidate's agreement on an exam sheet (the rules of contract/scores.ts): none while the
 * marks are blind (server/scores/blind.ts), so nothing made from it (the third marker's grid, the
 * reconciliation view, the waiting count, computed results) compares the grids before both submit.
 */
export async function agreementsOf(db: Database, sheet: StoredSheet): Promise<ScriptAgreement[]> {
  if (!mayRead(sheet, 'agreement', null)) return [];
  const rules = await paperRules(db, sheet);
  if (!rules) return [];
  const roster = (await selectRoster(db, { id: candidates.id }).where(rosterOf(sheet))) as { id: number }[];
  const stored = await db.select().from(scriptMarks).where(eq(scriptMarks.sheetId, sheet.id));
  const byCandidate = new Map<number, StoredMarks[]>();
  for (const row of stored) {
    const list = byCandidate.get(row.candidateId) ?? [];
    list[row.marker] = row;
    byCandidate.set(row.candidateId, list);
  }
  return roster.map(({ id }) => scriptAgreement(rules, id, byCandidate.get(id) ?? []));
}

/** One script's agreement from its marks by marker (`marks[1]` to `marks[3]`). */
function scriptAgreement(
  rules: PaperRules,
  candidateId: number,
  marks: (StoredMarks | undefined)[],
): ScriptAgreement {
  const [one, two, three] = [marks[1], marks[2], marks[3]];
  const first = agreement(rules, scriptOf(one), scriptOf(two));
  const decided =
    first.kind === 'flagged'
      ? thirdMarkerDecides(rules, scriptOf(one)!, scriptOf(two)!, scriptOf(three))
      : first;
  return { candidateId, first, decided, one, two, three };
}

/** Whether a script still waits (out of tolerance without its third mark, or a mark missing). */
export const isWaiting = (a: ScriptAgreement) =>
  a.decided.kind === 'flagged' || a.decided.kind === 'incomplete';

/** Whether one candidate's script on the sheet waits, read from its own marks only (never while blind). */
export async function scriptWaits(tx: Database, rules: PaperRules, sheet: StoredSheet, candidateId: number) {
  if (!mayRead(sheet, 'agreement', null)) return false;
  const rows = await tx
    .select()
    .from(scriptMarks)
    .where(and(eq(scriptMarks.sheetId, sheet.id), eq(scriptMarks.candidateId, candidateId)));
  const marks: StoredMarks[] = [];
  for (const row of rows) marks[row.marker] = row;
  return isWaiting(scriptAgreement(rules, candidateId, marks));
}
