import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import { resultOf } from '../../contract/resultRule';
import type { Env } from '../../contract/ruleExpr';
import type { ResultOutcome } from '../../contract/scores';
import type { Database } from '../db/client';
import {
  candidates,
  examOffences,
  inCourseScores,
  papers,
  registrations,
  resultHolds,
  scoreSheets,
} from '../db/schema';
import { sanctionCovers } from '../sanctions';
import { agreementsOf } from './agreement';
import type { ComputedRow } from './compute';
import { resultRulesOf } from './papers';
import type { StoredSheet } from './roster';

/**
 * A pair's results computed in this process, row by row, with the same rule (contract/resultRule.ts)
 * evaluated in TypeScript over the marks read into memory: how the portal computed them before issue
 * 28 (server/scores/compute.ts now sends the rule to the database), kept as the oracle the SQL is
 * checked against (tests/api/results-sql.test.ts) and as the bench's "before".
 */
export async function resultRowsInProcess(
  tx: Database,
  dietId: number,
  courseHeaderId: number,
): Promise<ComputedRow[]> {
  const rules = await resultRulesOf(tx, courseHeaderId);
  const sheets = await tx
    .select({ sheet: scoreSheets, qMax: papers.qMax })
    .from(scoreSheets)
    .leftJoin(papers, eq(papers.id, scoreSheets.paperId))
    .where(and(eq(scoreSheets.dietId, dietId), eq(scoreSheets.courseHeaderId, courseHeaderId)));
  const exams = sheets.filter((s) => s.sheet.kind === 'exam');
  const inCourse = sheets.filter((s) => s.sheet.kind === 'in_course');
  const roster = await tx
    .select({ id: candidates.id, school: candidates.trainingSchoolId })
    .from(registrations)
    .innerJoin(candidates, eq(candidates.id, registrations.candidateId))
    .where(
      and(
        eq(registrations.dietId, dietId),
        eq(registrations.regStatus, 'registered'),
        eq(candidates.courseHeaderId, courseHeaderId),
      ),
    );

  // Each paper's decided scripts by candidate (a paper may be split over schools' sheets).
  const papersOf = new Map<number, { max: number; decided: Map<number, Env> }>();
  for (const { sheet, qMax } of exams) {
    const max = (qMax ?? []).reduce((a, b) => a + b, 0);
    const paper = papersOf.get(sheet.paperId!) ?? { max, decided: new Map<number, Env>() };
    for (const a of await agreementsOf(tx, sheet as StoredSheet)) {
      const total = a.decided.kind === 'agreed' ? a.decided.total : null;
      paper.decided.set(a.candidateId, {
        decided_kind: a.decided.kind,
        decided_total: total,
        paper_max: max,
      });
    }
    papersOf.set(sheet.paperId!, paper);
  }
  const inCourseTotals = new Map<number, number | null>();
  if (inCourse.length) {
    const rows = await tx
      .select({ candidateId: inCourseScores.candidateId, total: inCourseScores.totalScore })
      .from(inCourseScores)
      .where(
        inArray(
          inCourseScores.sheetId,
          inCourse.map((s) => s.sheet.id),
        ),
      );
    for (const row of rows) inCourseTotals.set(row.candidateId, row.total);
  }
  const withheld = new Set(
    (
      await tx
        .select({ id: examOffences.candidateId })
        .from(examOffences)
        .where(
          and(isNull(examOffences.removedAt), or(eq(examOffences.dietId, dietId), sanctionCovers(dietId))),
        )
    ).map((row) => row.id),
  );
  const holds = new Map(
    (
      await tx
        .select({ id: resultHolds.candidateId, reason: resultHolds.reason })
        .from(resultHolds)
        .where(and(eq(resultHolds.dietId, dietId), isNull(resultHolds.releasedAt)))
    ).map((row) => [row.id, row.reason]),
  );

  return roster.map((candidate) => {
    const scripts = [...papersOf.values()].map(
      (paper) =>
        paper.decided.get(candidate.id) ?? {
          decided_kind: 'incomplete',
          decided_total: null,
          paper_max: paper.max,
        },
    );
    const result = resultOf(rules, scripts, {
      has_papers: papersOf.size > 0,
      has_in_course: inCourse.length > 0,
      in_course: inCourseTotals.get(candidate.id) ?? null,
      withheld: withheld.has(candidate.id),
      held: holds.has(candidate.id),
      hold_reason: holds.get(candidate.id) ?? null,
    });
    return {
      dietId,
      courseHeaderId,
      candidateId: candidate.id,
      trainingSchoolId: candidate.school,
      examMark: result.exam_mark,
      inCourseMark: result.in_course_mark,
      finalMark: result.final_mark,
      grade: result.grade,
      outcome: result.outcome as ResultOutcome,
      note: result.note,
    };
  });
}
