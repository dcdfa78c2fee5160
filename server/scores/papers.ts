import { asc, count, eq, sql } from 'drizzle-orm';
import {
  DEFAULT_RESULT_RULES,
  QUESTIONS,
  SCORE_MESSAGES as M,
  formatMark,
  parseMark,
  type CourseScoring,
  type PaperRow,
  type PaperRules,
  type ResultRules,
} from '../../contract/scores';
import type { paperValidator, resultRulesValidator } from '../../contract/scores.validators';
import { audit, changeAudited, type Actor } from '../audit';
import type { Database } from '../db/client';
import { duplicateAs } from '../db/errors';
import { courseHeaders, papers, resultRules, scoreSheets } from '../db/schema';
import { Invalid, NotFound, Refused } from '../errors';

/**
 * A course header's papers (their questions' maxima and the markers' tolerances) and its result rules
 * (in-course weight, pass mark, grade bands). A paper that a sheet uses keeps its questions: marks
 * were given against them.
 */

type PaperInput = Awaited<ReturnType<typeof paperValidator.validate>>;
type RulesInput = Awaited<ReturnType<typeof resultRulesValidator.validate>>;
type StoredPaper = typeof papers.$inferSelect;

export const rulesOfPaper = (paper: StoredPaper): PaperRules => ({
  q_max: paper.qMax,
  tolerance_question: paper.toleranceQuestion,
  tolerance_total: paper.toleranceTotal,
});

const toPaperRow = (paper: StoredPaper, code: string, sheets: number): PaperRow => ({
  id: paper.id,
  course_header: { id: paper.courseHeaderId, code },
  name: paper.name,
  q_max: paper.qMax.map(formatMark),
  tolerance_question: formatMark(paper.toleranceQuestion),
  tolerance_total: formatMark(paper.toleranceTotal),
  sheets,
});

export async function courseHeaderByCode(db: Database, code: string) {
  const [header] = await db.select().from(courseHeaders).where(eq(courseHeaders.code, code.toUpperCase()));
  if (!header) throw new Invalid({ course_header: [M.courseHeaderNotFound] });
  return header;
}

/** A course header's result rules, or the defaults while the board has set none. */
export async function resultRulesOf(db: Database, courseHeaderId: number): Promise<ResultRules> {
  const [rules] = await db.select().from(resultRules).where(eq(resultRules.courseHeaderId, courseHeaderId));
  return rules
    ? { in_course_weight: rules.inCourseWeight, pass_mark: rules.passMark, grade_bands: rules.gradeBands }
    : DEFAULT_RESULT_RULES;
}

/** A course header by the code in a path, or the 404 of no such course header. */
async function courseHeaderAt(db: Database, code: string) {
  const [header] = await db.select().from(courseHeaders).where(eq(courseHeaders.code, code.toUpperCase()));
  if (!header) throw new NotFound(M.courseHeaderNotFound);
  return header;
}

export async function courseScoring(db: Database, code: string): Promise<CourseScoring> {
  const header = await courseHeaderAt(db, code);
  const courseHeaderId = header.id;
  const rows = await db
    .select({
      paper: papers,
      sheets: sql<number>`(select count(*)::int from ${scoreSheets} where ${scoreSheets.paperId} = ${papers.id})`,
    })
    .from(papers)
    .where(eq(papers.courseHeaderId, courseHeaderId))
    .orderBy(asc(papers.id));
  return {
    course_header: { id: header.id, code: header.code, title: header.title },
    papers: rows.map((row) => toPaperRow(row.paper, header.code, row.sheets)),
    rules: await resultRulesOf(db, courseHeaderId),
  };
}

/** What the form gave, in tenths, or its fields' messages. */
function paperValues(input: PaperInput) {
  const qMax = QUESTIONS.map((q) => parseMark(input[`${q}_max`])!);
  if (qMax.every((max) => max === 0)) throw new Invalid({ q1_max: [M.paperHasNoQuestions] });
  return {
    name: input.name,
    qMax,
    toleranceQuestion: parseMark(input.tolerance_question)!,
    toleranceTotal: parseMark(input.tolerance_total)!,
  };
}

const snapshotOf = (paper: StoredPaper) => ({
  name: paper.name,
  q_max: paper.qMax,
  tolerance_question: paper.toleranceQuestion,
  tolerance_total: paper.toleranceTotal,
});

async function readPaper(db: Database, id: number): Promise<PaperRow> {
  const [row] = await db
    .select({ paper: papers, code: courseHeaders.code })
    .from(papers)
    .innerJoin(courseHeaders, eq(courseHeaders.id, papers.courseHeaderId))
    .where(eq(papers.id, id));
  if (!row) throw new NotFound(M.paperNotFound);
  return toPaperRow(row.paper, row.code, await sheetsOf(db, id));
}

async function sheetsOf(db: Database, paperId: number) {
  const [row] = await db.select({ total: count() }).from(scoreSheets).where(eq(scoreSheets.paperId, paperId));
  return row.total;
}

const nameTaken = duplicateAs('papers_name_key', { name: [M.paperNameTaken] });

export async function createPaper(tx: Database, actor: Actor, input: PaperInput): Promise<PaperRow> {
  const header = await courseHeaderByCode(tx, input.course_header);
  const [created] = await tx
    .insert(papers)
    .values({ courseHeaderId: header.id, ...paperValues(input) })
    .returning()
    .catch(nameTaken);
  await audit(tx, actor, { action: 'paper.created', entityId: created.id, after: snapshotOf(created) });
  return readPaper(tx, created.id);
}

export async function updatePaper(tx: Database, actor: Actor, id: number, input: PaperInput) {
  const values = paperValues(input);
  await changeAudited(tx, actor, {
    table: papers,
    id,
    notFound: M.paperNotFound,
    action: 'paper.updated',
    snapshot: snapshotOf,
    set: async (paper) => {
      const questionsChange =
        paper.qMax.join() !== values.qMax.join() ||
        paper.toleranceQuestion !== values.toleranceQuestion ||
        paper.toleranceTotal !== values.toleranceTotal;
      if (questionsChange && (await sheetsOf(tx, id)) > 0) throw new Refused(409, M.paperInUse);
      return values;
    },
  }).catch(nameTaken);
  return readPaper(tx, id);
}

export async function deletePaper(tx: Database, actor: Actor, id: number): Promise<void> {
  const [paper] = await tx.select().from(papers).where(eq(papers.id, id)).for('update');
  if (!paper) throw new NotFound(M.paperNotFound);
  if ((await sheetsOf(tx, id)) > 0) throw new Refused(409, M.paperInUse);
  await tx.delete(papers).where(eq(papers.id, id));
  await audit(tx, actor, { action: 'paper.deleted', entityId: id, before: snapshotOf(paper) });
}

export async function setResultRules(tx: Database, actor: Actor, code: string, input: RulesInput) {
  const courseHeaderId = (await courseHeaderAt(tx, code)).id;
  const problems: Record<string, string[]> = {};
  if (input.in_course_weight > 100) problems.in_course_weight = [M.weightInvalid];
  if (input.pass_mark > 100) problems.pass_mark = [M.passMarkInvalid];
  if (Object.keys(problems).length) throw new Invalid(problems);
  const before = await resultRulesOf(tx, courseHeaderId);
  const values = {
    inCourseWeight: input.in_course_weight,
    passMark: input.pass_mark,
    gradeBands: input.grade_bands,
  };
  await tx
    .insert(resultRules)
    .values({ courseHeaderId, ...values })
    .onConflictDoUpdate({ target: resultRules.courseHeaderId, set: { ...values, updatedAt: sql`now()` } });
  const after = await resultRulesOf(tx, courseHeaderId);
  await audit(tx, actor, { action: 'result_rules.updated', entityId: courseHeaderId, before, after });
  return after;
}
