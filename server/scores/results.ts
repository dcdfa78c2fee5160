import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { formatPersonName } from '../../contract/format';
import {
  SCORE_MESSAGES as M,
  finalMark,
  formatMark,
  gradeOf,
  type Agreement,
  type HoldRow,
  type Publication,
  type ResultOutcome,
  type ResultRow,
} from '../../contract/scores';
import type { holdValidator } from '../../contract/scores.validators';
import { audit, userOf, type Actor } from '../audit';
import type { Database } from '../db/client';
import {
  candidates,
  courseHeaders,
  diets,
  examOffences,
  inCourseScores,
  papers,
  registrations,
  resultHolds,
  resultPublications,
  results,
  scoreSheets,
  trainingSchools,
} from '../db/schema';
import { Invalid, NotFound, Refused } from '../errors';
import { searchConditions } from '../candidates/list';
import { sanctionCovers } from '../sanctions';
import { agreementsOf } from './marks';
import { courseHeaderByCode, resultRulesOf } from './papers';
import { type StoredSheet } from './sheets';

/**
 * Results per diet and course header: each registered candidate's exam mark (the agreed marks of every
 * paper over the papers' maxima, as a percent), in-course total, final mark (weighted as the course
 * header says), grade and outcome; held (the board's hold, with its reason) or withheld (a sanction for
 * the diet, or an offence recorded at it) before anything else. Computed as a whole for the pair into
 * `results` (one statement's delete and chunked inserts, in the caller's transaction); published and
 * withdrawn per pair, audited. Schools read only published results of their own candidates.
 */

const WITHHELD_NOTE = 'Under an exam sanction for this diet, or an offence recorded at it.';

type HoldInput = Awaited<ReturnType<typeof holdValidator.validate>>;

async function dietByCode(db: Database, code: string) {
  const [diet] = await db.select().from(diets).where(eq(diets.code, code.toUpperCase()));
  if (!diet) throw new Invalid({ diet: [M.dietUnknown] });
  return diet;
}

export async function pairOf(db: Database, input: { diet: string; course_header: string }) {
  const diet = await dietByCode(db, input.diet);
  const header = await courseHeaderByCode(db, input.course_header);
  return { diet, header };
}

const paperMax = (qMax: number[]) => qMax.reduce((a, b) => a + b, 0);

/**
 * Computes (again) the results of a diet and course header, for every registered candidate of it or
 * for the ones named. Returns how many rows it wrote.
 */
export async function computeResults(
  tx: Database,
  dietId: number,
  courseHeaderId: number,
  only?: number[],
): Promise<number> {
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
        only ? inArray(candidates.id, only.length ? only : [0]) : undefined,
      ),
    );

  // Each paper's agreements by candidate (a paper may be split over schools' sheets).
  const papersOf = new Map<number, { max: number; decided: Map<number, Agreement> }>();
  for (const { sheet, qMax } of exams) {
    const paper = papersOf.get(sheet.paperId!) ?? { max: paperMax(qMax ?? []), decided: new Map() };
    for (const a of await agreementsOf(tx, sheet as StoredSheet)) paper.decided.set(a.candidateId, a.decided);
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
          and(
            isNull(examOffences.removedAt),
            or(eq(examOffences.dietId, dietId), sanctionCovers(dietId)),
            only ? inArray(examOffences.candidateId, only.length ? only : [0]) : undefined,
          ),
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

  const rows = roster.map((candidate) => {
    let examTenths: number | null = null;
    let outcome: ResultOutcome | null = null;
    if (papersOf.size) {
      let got = 0;
      let max = 0;
      for (const paper of papersOf.values()) {
        const decided = paper.decided.get(candidate.id);
        if (!decided || decided.kind === 'incomplete' || decided.kind === 'flagged') outcome ??= 'incomplete';
        else if (decided.kind === 'absent') outcome = 'absent';
        else got += decided.total;
        max += paper.max;
      }
      // A percent in tenths: got/max of the papers' marks, a half tenth up.
      if (max > 0 && outcome === null) examTenths = Math.ceil((got * 1000) / max);
    } else outcome = 'incomplete';
    const inCourseTenths = inCourse.length ? (inCourseTotals.get(candidate.id) ?? null) : null;
    if (inCourse.length && rules.in_course_weight > 0 && inCourseTenths === null) outcome ??= 'incomplete';
    let final = outcome === null && examTenths !== null ? finalMark(rules, examTenths, inCourseTenths) : null;
    let note: string | null = null;
    // A held or withheld result shows no marks (they are computed again when it is released).
    if (withheld.has(candidate.id) || holds.has(candidate.id)) {
      [examTenths, final] = [null, null];
      outcome = withheld.has(candidate.id) ? 'withheld' : 'held';
      note = withheld.has(candidate.id) ? WITHHELD_NOTE : holds.get(candidate.id)!;
    } else if (outcome === null) {
      outcome = final! >= rules.pass_mark * 10 ? 'pass' : 'fail';
    }
    return {
      dietId,
      courseHeaderId,
      candidateId: candidate.id,
      trainingSchoolId: candidate.school,
      examMark: examTenths,
      inCourseMark: final === null ? null : inCourseTenths,
      finalMark: final,
      grade: final === null ? null : gradeOf(rules, final),
      outcome,
      note,
    };
  });

  const pair = and(eq(results.dietId, dietId), eq(results.courseHeaderId, courseHeaderId));
  await tx
    .delete(results)
    .where(only ? and(pair, inArray(results.candidateId, only.length ? only : [0])) : pair);
  for (let i = 0; i < rows.length; i += 1000) {
    await tx.insert(results).values(rows.slice(i, i + 1000));
  }
  return rows.length;
}

const pairKey = (dietId: number, courseHeaderId: number) =>
  and(eq(scoreSheets.dietId, dietId), eq(scoreSheets.courseHeaderId, courseHeaderId));

export async function computeAudited(
  tx: Database,
  actor: Actor,
  input: { diet: string; course_header: string },
) {
  const { diet, header } = await pairOf(tx, input);
  const written = await computeResults(tx, diet.id, header.id);
  await audit(tx, actor, {
    action: 'results.computed',
    entityId: `${diet.id}:${header.id}`,
    after: { diet: diet.code, course_header: header.code, results: written },
  });
  return publicationOf(tx, diet.id, header.id);
}

/** Publishes a pair's results: every sheet locked; results computed afresh; its sheets published. */
export async function publishResults(
  tx: Database,
  actor: Actor,
  input: { diet: string; course_header: string },
) {
  const { diet, header } = await pairOf(tx, input);
  const sheets = await tx.select().from(scoreSheets).where(pairKey(diet.id, header.id)).for('update');
  if (!sheets.some((s) => s.kind === 'exam')) throw new Refused(409, M.noSheets);
  if (sheets.every((s) => s.state === 'published')) throw new Refused(409, M.alreadyPublished);
  if (sheets.some((s) => s.state !== 'locked' && s.state !== 'published'))
    throw new Refused(409, M.publishNotReady);
  const written = await computeResults(tx, diet.id, header.id);
  await tx
    .update(scoreSheets)
    .set({ state: 'published', version: sql`${scoreSheets.version} + 1`, updatedAt: sql`now()` })
    .where(pairKey(diet.id, header.id));
  const now = new Date();
  await tx
    .insert(resultPublications)
    .values({ dietId: diet.id, courseHeaderId: header.id, publishedAt: now, publishedBy: userOf(actor) })
    .onConflictDoUpdate({
      target: [resultPublications.dietId, resultPublications.courseHeaderId],
      set: { publishedAt: now, publishedBy: userOf(actor), withdrawnAt: null, updatedAt: sql`now()` },
    });
  await audit(tx, actor, {
    action: 'results.published',
    entityId: `${diet.id}:${header.id}`,
    after: { diet: diet.code, course_header: header.code, results: written },
  });
  return publicationOf(tx, diet.id, header.id);
}

/** Withdraws a pair's published results: the schools see them no more; the sheets are locked again. */
export async function withdrawResults(
  tx: Database,
  actor: Actor,
  input: { diet: string; course_header: string },
) {
  const { diet, header } = await pairOf(tx, input);
  const [publication] = await tx
    .select()
    .from(resultPublications)
    .where(and(eq(resultPublications.dietId, diet.id), eq(resultPublications.courseHeaderId, header.id)))
    .for('update');
  if (!publication || publication.withdrawnAt || !publication.publishedAt)
    throw new Refused(409, M.notPublished);
  await tx
    .update(resultPublications)
    .set({ withdrawnAt: new Date(), updatedAt: sql`now()` })
    .where(and(eq(resultPublications.dietId, diet.id), eq(resultPublications.courseHeaderId, header.id)));
  await tx
    .update(scoreSheets)
    .set({ state: 'locked', version: sql`${scoreSheets.version} + 1`, updatedAt: sql`now()` })
    .where(and(pairKey(diet.id, header.id), eq(scoreSheets.state, 'published')));
  await audit(tx, actor, {
    action: 'results.withdrawn',
    entityId: `${diet.id}:${header.id}`,
    before: { published_at: publication.publishedAt },
    after: { diet: diet.code, course_header: header.code },
  });
  return publicationOf(tx, diet.id, header.id);
}

/** The sql of "this result's diet and course header are published now". */
export const publishedNow: SQL = sql`exists (select 1 from ${resultPublications}
  where ${resultPublications.dietId} = ${results.dietId}
    and ${resultPublications.courseHeaderId} = ${results.courseHeaderId}
    and ${resultPublications.publishedAt} is not null and ${resultPublications.withdrawnAt} is null)`;

/** Per course header with sheets in the diet: its sheets, how many locked, its publication, its results. */
export async function publications(db: Database, dietCode: string | null): Promise<Publication[]> {
  const rows = await db
    .select({
      diet: { id: diets.id, code: diets.code },
      course_header: { id: courseHeaders.id, code: courseHeaders.code },
      sheets: sql<number>`count(*)::int`,
      locked: sql<number>`(count(*) filter (where ${scoreSheets.state} in ('locked', 'published')))::int`,
      published_at: sql<string | null>`(select ${resultPublications.publishedAt} from ${resultPublications}
        where ${resultPublications.dietId} = ${diets.id} and ${resultPublications.courseHeaderId} = ${courseHeaders.id}
        and ${resultPublications.withdrawnAt} is null)`,
      results: sql<number>`(select count(*)::int from ${results} where ${results.dietId} = ${diets.id}
        and ${results.courseHeaderId} = ${courseHeaders.id})`,
    })
    .from(scoreSheets)
    .innerJoin(diets, eq(diets.id, scoreSheets.dietId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, scoreSheets.courseHeaderId))
    .where(dietCode ? eq(diets.code, dietCode.toUpperCase()) : undefined)
    .groupBy(diets.id, courseHeaders.id)
    .orderBy(asc(diets.firstPaperOn), asc(courseHeaders.code));
  return rows.map((row) => ({
    ...row,
    published_at: row.published_at ? new Date(row.published_at).toISOString() : null,
  }));
}

async function publicationOf(db: Database, dietId: number, courseHeaderId: number): Promise<Publication> {
  const [diet] = await db.select({ code: diets.code }).from(diets).where(eq(diets.id, dietId));
  const all = await publications(db, diet.code);
  const found = all.find((p) => p.course_header.id === courseHeaderId);
  if (!found) throw new NotFound(M.noSheets);
  return found;
}

// ---------------------------------------------------------------------------------------------------
// Holds.

/** The course headers whose results of the diet name the candidate (usually one): recomputed for them alone. */
async function recomputeCandidate(tx: Database, dietId: number, candidateId: number) {
  const [candidate] = await tx
    .select({ courseHeaderId: candidates.courseHeaderId })
    .from(candidates)
    .where(eq(candidates.id, candidateId));
  const [computed] = await tx
    .select({ id: results.id })
    .from(results)
    .where(and(eq(results.dietId, dietId), eq(results.candidateId, candidateId)));
  if (candidate && computed) await computeResults(tx, dietId, candidate.courseHeaderId, [candidateId]);
}

export async function holdResult(tx: Database, actor: Actor, input: HoldInput) {
  const diet = await dietByCode(tx, input.diet);
  const [candidate] = await tx
    .select({ id: candidates.id })
    .from(candidates)
    .where(eq(candidates.candidateIndex, input.candidate_index));
  if (!candidate) throw new Invalid({ candidate_index: [M.candidateUnknown] });
  const [hold] = await tx
    .insert(resultHolds)
    .values({ dietId: diet.id, candidateId: candidate.id, reason: input.reason, heldBy: userOf(actor) })
    .onConflictDoNothing()
    .returning();
  if (!hold) throw new Refused(409, M.holdExists);
  await recomputeCandidate(tx, diet.id, candidate.id);
  await audit(tx, actor, {
    action: 'result.held',
    entityId: hold.id,
    after: { diet: diet.code, candidate_index: input.candidate_index, reason: input.reason },
  });
  return hold;
}

export async function releaseHold(tx: Database, actor: Actor, id: number) {
  const [hold] = await tx.select().from(resultHolds).where(eq(resultHolds.id, id)).for('update');
  if (!hold || hold.releasedAt) throw new NotFound(M.holdNotFound);
  await tx
    .update(resultHolds)
    .set({ releasedAt: new Date(), releasedBy: userOf(actor) })
    .where(eq(resultHolds.id, id));
  await recomputeCandidate(tx, hold.dietId, hold.candidateId);
  await audit(tx, actor, { action: 'result.released', entityId: id, before: { reason: hold.reason } });
}

export async function openHolds(db: Database, dietCode: string | null): Promise<HoldRow[]> {
  const rows = await db
    .select({
      id: resultHolds.id,
      diet: diets.code,
      candidate_index: candidates.candidateIndex,
      first_name: candidates.first_name,
      middle_name: candidates.middle_name,
      last_name: candidates.last_name,
      reason: resultHolds.reason,
      created_at: resultHolds.createdAt,
    })
    .from(resultHolds)
    .innerJoin(diets, eq(diets.id, resultHolds.dietId))
    .innerJoin(candidates, eq(candidates.id, resultHolds.candidateId))
    .where(and(isNull(resultHolds.releasedAt), dietCode ? eq(diets.code, dietCode.toUpperCase()) : undefined))
    .orderBy(asc(resultHolds.id));
  return rows.map((row) => ({
    id: row.id,
    diet: row.diet,
    candidate_index: row.candidate_index,
    name: formatPersonName(row),
    reason: row.reason,
    created_at: row.created_at.toISOString(),
  }));
}

// ---------------------------------------------------------------------------------------------------
// The results lists (contract/lists.ts RESULTS_LISTS).

const selectResults = (db: Database) =>
  db
    .select({
      result: results,
      diet: { id: diets.id, code: diets.code },
      course_header: { id: courseHeaders.id, code: courseHeaders.code },
      candidate_index: candidates.candidateIndex,
      first_name: candidates.first_name,
      middle_name: candidates.middle_name,
      last_name: candidates.last_name,
      school_code: trainingSchools.code,
      published: sql<boolean>`${publishedNow}`,
      hold_id: sql<number | null>`(select ${resultHolds.id} from ${resultHolds}
        where ${resultHolds.dietId} = ${results.dietId} and ${resultHolds.candidateId} = ${results.candidateId}
          and ${resultHolds.releasedAt} is null)`,
    })
    .from(results)
    .innerJoin(diets, eq(diets.id, results.dietId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, results.courseHeaderId))
    .innerJoin(candidates, eq(candidates.id, results.candidateId))
    .innerJoin(trainingSchools, eq(trainingSchools.id, results.trainingSchoolId))
    .$dynamic();

type SelectedResult = Awaited<ReturnType<ReturnType<typeof selectResults>['execute']>>[number];

const toResultRow = (row: SelectedResult): ResultRow => ({
  id: row.result.id,
  diet: row.diet,
  course_header: row.course_header,
  candidate_id: row.result.candidateId,
  candidate_index: row.candidate_index,
  name: formatPersonName(row),
  school_code: row.school_code,
  exam_mark: formatMark(row.result.examMark),
  in_course_mark: formatMark(row.result.inCourseMark),
  final_mark: formatMark(row.result.finalMark),
  grade: row.result.grade ?? '',
  outcome: row.result.outcome,
  note: row.result.note,
  hold_id: row.hold_id,
  published: row.published,
});

const one = (db: Database) => db.select({ one: sql`1` });

export const resultSource = {
  rows: selectResults,
  matching: (db: Database) =>
    one(db)
      .from(results)
      .innerJoin(diets, eq(diets.id, results.dietId))
      .innerJoin(courseHeaders, eq(courseHeaders.id, results.courseHeaderId))
      .innerJoin(candidates, eq(candidates.id, results.candidateId))
      .innerJoin(trainingSchools, eq(trainingSchools.id, results.trainingSchoolId))
      .$dynamic(),
  key: results.id,
  school: results.trainingSchoolId,
  search: searchConditions,
  filters: {
    diet: (code: string) => eq(diets.code, code.toUpperCase()),
    course_header: (code: string) => eq(courseHeaders.code, code.toUpperCase()),
    outcome: (outcome: string) => eq(results.outcome, outcome as ResultOutcome),
    school: (code: string) => eq(trainingSchools.code, code.toUpperCase()),
  },
  sorts: { index: [candidates.candidateIndex], final: [results.finalMark] },
  toRow: toResultRow,
};

/** A school admin's: published results only (the school scope is the list route's). */
export const publishedResultSource = {
  ...resultSource,
  where: publishedNow,
  toRow: (row: SelectedResult): ResultRow => ({ ...toResultRow(row), hold_id: null }),
};
