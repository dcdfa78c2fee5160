import { and, eq } from 'drizzle-orm';
import {
  MARKER_OF,
  QUESTIONS,
  SCORE_MESSAGES as M,
  SEMESTERS,
  markProblem,
  type Grid,
  type ImportReport,
} from '../../contract/scores';
import type { Actor } from '../audit';
import type { Database } from '../db/client';
import { candidates, inCourseScores, papers, scriptMarks } from '../db/schema';
import { DomainError, Invalid } from '../errors';
import { readCsvRecords } from '../lists/csv';
import { saveInCourse, saveMarks } from './marks';
import { rosterOf, selectRoster } from './roster';
import { findSheet, mayWrite } from './sheets';

/**
 * Marks from paper: a marker's grid as a CSV (candidate_index, then q1 to q5 and absent, or the three
 * semester scores). The dry run checks every row as the grid checks a row (the candidate on the sheet,
 * each mark a mark and within its question's maximum) and says each problem by row and field; the import
 * saves the good rows, each through the grid's own save (its audit entry, its reason), over what is stored.
 */

const YES = new Set(['1', 'yes', 'y', 'true', 'absent', 'x']);

export async function importMarks(
  db: Database,
  actor: Actor,
  sheetId: number,
  grid: Grid,
  file: Uint8Array,
  { dryRun, reason }: { dryRun: boolean; reason?: string },
): Promise<ImportReport> {
  const sheet = await findSheet(db, sheetId);
  const write = mayWrite(sheet, grid, actor.userId ?? 0);
  if (write.refusal) throw new Invalid({ csv: [write.refusal] });
  if (write.reason && !reason) throw new Invalid({ reason: [M.reasonRequired] });
  const records = readCsvRecords(
    file,
    { notCsv: M.importNotCsv, empty: M.importEmpty },
    { rowOf: (index) => index + 2 },
  );
  const [paper] = sheet.paperId ? await db.select().from(papers).where(eq(papers.id, sheet.paperId)) : [];
  const fields = grid === 'in-course' ? [...SEMESTERS] : [...QUESTIONS];
  const roster = new Map(
    (
      (await selectRoster(db, { id: candidates.id, index: candidates.candidateIndex }).where(
        rosterOf(sheet),
      )) as {
        id: number;
        index: string | null;
      }[]
    ).map((c) => [c.index?.toUpperCase() ?? '', c.id]),
  );
  const seen = new Set<string>();
  const report: ImportReport = { rows: [], good: 0, bad: 0, saved: 0 };
  const good: { candidateId: number; values: Record<string, string | boolean> }[] = [];
  records.forEach((record, i) => {
    const index = (record.candidate_index ?? '').toUpperCase();
    const problems: Record<string, string> = {};
    const candidateId = roster.get(index);
    if (!candidateId) problems.candidate_index = M.importUnknownCandidate;
    else if (seen.has(index)) problems.candidate_index = M.importDuplicate;
    seen.add(index);
    const absent = grid !== 'in-course' && YES.has((record.absent ?? '').toLowerCase());
    const values: Record<string, string | boolean> = {};
    for (const [q, field] of fields.entries()) {
      const text = record[field] ?? '';
      values[field] = text;
      if (absent) continue;
      const max = grid === 'in-course' ? 1000 : (paper?.qMax[q] ?? 0);
      const problem =
        grid === 'in-course' && text && Number(text) > 100 ? M.semesterTooHigh : markProblem(text, max);
      if (problem) problems[field] = problem;
    }
    if (grid !== 'in-course') values.absent = absent;
    const ok = Object.keys(problems).length === 0;
    report.rows.push({ row: i + 2, candidate_index: index, problems });
    if (ok) {
      report.good += 1;
      good.push({ candidateId: candidateId!, values });
    } else report.bad += 1;
  });
  if (dryRun) return report;
  for (const row of good) {
    await db.transaction(async (tx) => {
      const version = await storedVersion(tx, sheetId, grid, row.candidateId);
      const input = { ...row.values, version, ...(reason && { reason }) };
      try {
        if (grid === 'in-course') await saveInCourse(tx, actor, sheetId, row.candidateId, input as never);
        else await saveMarks(tx, actor, sheetId, grid, row.candidateId, input as never);
        report.saved += 1;
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const entry = report.rows.find((r) => roster.get(r.candidate_index) === row.candidateId)!;
        entry.problems = { row: error.message };
        report.good -= 1;
        report.bad += 1;
      }
    });
  }
  return report;
}

async function storedVersion(
  tx: Database,
  sheetId: number,
  grid: Grid,
  candidateId: number,
): Promise<number> {
  if (grid === 'in-course') {
    const [row] = await tx
      .select({ version: inCourseScores.version })
      .from(inCourseScores)
      .where(and(eq(inCourseScores.sheetId, sheetId), eq(inCourseScores.candidateId, candidateId)));
    return row?.version ?? 0;
  }
  const [row] = await tx
    .select({ version: scriptMarks.version })
    .from(scriptMarks)
    .where(
      and(
        eq(scriptMarks.sheetId, sheetId),
        eq(scriptMarks.candidateId, candidateId),
        eq(scriptMarks.marker, MARKER_OF[grid]),
      ),
    );
  return row?.version ?? 0;
}
