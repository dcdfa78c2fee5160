import { and, asc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { formatPersonName } from '../../contract/format';
import {
  SCORE_MESSAGES as M,
  formatMark,
  type HoldRow,
  type Publication,
  type PublicationPreview,
  type ResultChange,
  type ResultOutcome,
  type ResultRow,
  type ShownResult,
} from '../../contract/scores';
import type { holdValidator } from '../../contract/scores.validators';
import { audit, userOf, type Actor } from '../audit';
import type { Database } from '../db/client';
import {
  candidates,
  courseHeaders,
  diets,
  inCourseScores,
  papers,
  publishedResults,
  registrations,
  resultHolds,
  resultPublications,
  results,
  scoreSheets,
  trainingSchools,
} from '../db/schema';
import { dietCodeIs, namedDiet } from '../diets/byCode';
import { Invalid, NotFound, Refused } from '../errors';
import { searchConditions } from '../candidates/list';
import { computeResults, resultRowsOf } from './compute';
import { courseHeaderByCode, resultRulesOf } from './papers';

/**
 * Results per diet and course header: each registered candidate's exam mark (the agreed marks of every
 * paper over the papers' maxima, as a percent), in-course total, final mark (weighted as the course
 * header says), grade and outcome; held (the board's hold, with its reason) or withheld (a sanction for
 * the diet, or an offence recorded at it) before anything else. Computed as a whole for the pair into
 * `results` (server/scores/compute.ts: the contract's rule as one `insert … select`); published and
 * withdrawn per pair, audited. Schools read only published results of their own candidates.
 */

type HoldInput = Awaited<ReturnType<typeof holdValidator.validate>>;

async function pairOf(db: Database, input: { diet: string; course_header: string }) {
  const diet = await namedDiet(db, input.diet);
  const header = await courseHeaderByCode(db, input.course_header);
  return { diet, header };
}

const pairKey = (dietId: number, courseHeaderId: number) =>
  and(eq(scoreSheets.dietId, dietId), eq(scoreSheets.courseHeaderId, courseHeaderId));
const publicationKey = (dietId: number, courseHeaderId: number) =>
  and(eq(resultPublications.dietId, dietId), eq(resultPublications.courseHeaderId, courseHeaderId));
const snapshotKey = (dietId: number, courseHeaderId: number) =>
  and(eq(publishedResults.dietId, dietId), eq(publishedResults.courseHeaderId, courseHeaderId));

type Header = { id: number; code: string };

/** Registered candidates of the pair, with their school's code. */
const rosterOfPair = (db: Database, dietId: number, courseHeaderId: number) =>
  db
    .select({ id: candidates.id, school: candidates.trainingSchoolId, code: trainingSchools.code })
    .from(registrations)
    .innerJoin(candidates, eq(candidates.id, registrations.candidateId))
    .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
    .where(
      and(
        eq(registrations.dietId, dietId),
        eq(registrations.regStatus, 'registered'),
        eq(candidates.courseHeaderId, courseHeaderId),
      ),
    );

/** Counts by school code, said as at most three schools by name (more: their number). */
function bySchool(counts: Map<string, number>, say: (count: number, school: string | null) => string) {
  const entries = [...counts.entries()].sort(([a], [b]) => a.localeCompare(b));
  if (entries.length <= 3) return entries.map(([school, count]) => say(count, school));
  const total = entries.reduce((sum, [, count]) => sum + count, 0);
  return [say(total, `${entries.length} schools`)];
}

/**
 * Why a pair cannot be published (null: it can): every paper of the course header needs a locked sheet
 * covering every registered candidate of the diet in it, and, when the course header's in-course weight
 * is above zero, each of them an in-course score on a locked in-course sheet. The one place publishing
 * checks completeness (publishResults, in its transaction) and the preview says it.
 */
async function missingForPublication(db: Database, dietId: number, header: Header): Promise<string | null> {
  const roster = await rosterOfPair(db, dietId, header.id);
  if (!roster.length) return M.publishIncomplete(header.code, [M.noCandidates]);
  const paperRows = await db
    .select({ id: papers.id, name: papers.name })
    .from(papers)
    .where(eq(papers.courseHeaderId, header.id))
    .orderBy(asc(papers.name));
  const sheets = await db
    .select({
      id: scoreSheets.id,
      kind: scoreSheets.kind,
      paperId: scoreSheets.paperId,
      school: scoreSheets.trainingSchoolId,
      state: scoreSheets.state,
    })
    .from(scoreSheets)
    .where(pairKey(dietId, header.id));
  const locked = (state: string) => state === 'locked' || state === 'published';
  // One sheet at most covers a candidate's paper (the score_sheets exclusion constraint).
  const covering = (paperId: number | null, school: number) =>
    sheets.find((s) => s.paperId === paperId && (s.school === null || s.school === school));
  const missing: string[] = paperRows.length ? [] : [M.noPapers];
  const add = (counts: Map<string, number>, code: string) => counts.set(code, (counts.get(code) ?? 0) + 1);
  for (const paper of paperRows) {
    const [noSheet, notLocked] = [new Map<string, number>(), new Map<string, number>()];
    for (const candidate of roster) {
      const sheet = covering(paper.id, candidate.school);
      if (!sheet) add(noSheet, candidate.code);
      else if (!locked(sheet.state)) add(notLocked, candidate.code);
    }
    missing.push(...bySchool(noSheet, (count, school) => M.paperNoSheet(paper.name, count, school)));
    missing.push(...bySchool(notLocked, (count, school) => M.paperNotLocked(paper.name, count, school)));
  }
  const rules = await resultRulesOf(db, header.id);
  if (rules.in_course_weight > 0) {
    const lockedInCourse = sheets.filter((s) => s.kind === 'in_course' && locked(s.state)).map((s) => s.id);
    const scored = new Set(
      lockedInCourse.length
        ? (
            await db
              .select({ id: inCourseScores.candidateId })
              .from(inCourseScores)
              .where(
                and(inArray(inCourseScores.sheetId, lockedInCourse), isNotNull(inCourseScores.totalScore)),
              )
          ).map((row) => row.id)
        : [],
    );
    const without = roster.filter((candidate) => {
      const sheet = covering(null, candidate.school);
      return !sheet || !locked(sheet.state) || !scored.has(candidate.id);
    }).length;
    if (without) missing.push(M.inCourseMissing(without));
  }
  return missing.length ? M.publishIncomplete(header.code, missing) : null;
}

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

/**
 * Publishes a pair's results, complete or not at all: its publication row is locked (publishing and
 * withdrawing take turns), a live publication is refused (it changes only by withdrawal), then
 * completeness (missingForPublication); the results are computed afresh and copied into the snapshot
 * the schools read (published_results), the sheets marked published. Audited.
 */
export async function publishResults(
  tx: Database,
  actor: Actor,
  input: { diet: string; course_header: string },
) {
  const { diet, header } = await pairOf(tx, input);
  await tx
    .insert(resultPublications)
    .values({ dietId: diet.id, courseHeaderId: header.id })
    .onConflictDoNothing();
  const [publication] = await tx
    .select()
    .from(resultPublications)
    .where(publicationKey(diet.id, header.id))
    .for('update');
  if (publication.publishedAt && !publication.withdrawnAt) throw new Refused(409, M.alreadyPublished);
  // The sheets' states hold still until this commits (a lock or unlock waits).
  await tx.select({ id: scoreSheets.id }).from(scoreSheets).where(pairKey(diet.id, header.id)).for('update');
  const missing = await missingForPublication(tx, diet.id, header);
  if (missing) throw new Refused(409, missing);
  const written = await computeResults(tx, diet.id, header.id);
  const now = new Date();
  await snapshotPublished(tx, diet.id, header.id, now);
  await tx
    .update(scoreSheets)
    .set({ state: 'published', version: sql`${scoreSheets.version} + 1`, updatedAt: sql`now()` })
    .where(pairKey(diet.id, header.id));
  await tx
    .update(resultPublications)
    .set({
      publishedAt: now,
      publishedBy: userOf(actor),
      withdrawnAt: null,
      withdrawnBy: null,
      withdrawReason: null,
      updatedAt: sql`now()`,
    })
    .where(publicationKey(diet.id, header.id));
  await audit(tx, actor, {
    action: 'results.published',
    entityId: `${diet.id}:${header.id}`,
    before: publication.publishedAt
      ? { published_at: publication.publishedAt, withdrawn_at: publication.withdrawnAt }
      : null,
    after: { diet: diet.code, course_header: header.code, results: written },
  });
  return publicationOf(tx, diet.id, header.id);
}

/**
 * The snapshot of a publication: the pair's computed results copied, as they are at `at`, over the last
 * publication's (one statement each; the caller holds the publication's row).
 */
export async function snapshotPublished(tx: Database, dietId: number, courseHeaderId: number, at: Date) {
  await tx.delete(publishedResults).where(snapshotKey(dietId, courseHeaderId));
  await tx.execute(sql`insert into ${publishedResults} (diet_id, course_header_id, candidate_id,
      training_school_id, exam_mark, in_course_mark, final_mark, grade, outcome, note, published_at)
    select diet_id, course_header_id, candidate_id, training_school_id, exam_mark, in_course_mark,
      final_mark, grade, outcome, note, ${at.toISOString()}::timestamptz
    from ${results} where ${results.dietId} = ${dietId} and ${results.courseHeaderId} = ${courseHeaderId}`);
}

/**
 * Withdraws a pair's published results, with the reason (required): the schools see them no more; the
 * sheets are locked again. The snapshot is kept, so the next publication's preview says what changes.
 */
export async function withdrawResults(
  tx: Database,
  actor: Actor,
  input: { diet: string; course_header: string; reason: string },
) {
  const { diet, header } = await pairOf(tx, input);
  const [publication] = await tx
    .select()
    .from(resultPublications)
    .where(publicationKey(diet.id, header.id))
    .for('update');
  if (!publication || publication.withdrawnAt || !publication.publishedAt)
    throw new Refused(409, M.notPublished);
  const [shown] = await tx
    .select({ total: sql<number>`count(*)::int` })
    .from(publishedResults)
    .where(snapshotKey(diet.id, header.id));
  await tx
    .update(resultPublications)
    .set({
      withdrawnAt: new Date(),
      withdrawnBy: userOf(actor),
      withdrawReason: input.reason,
      updatedAt: sql`now()`,
    })
    .where(publicationKey(diet.id, header.id));
  await tx
    .update(scoreSheets)
    .set({ state: 'locked', version: sql`${scoreSheets.version} + 1`, updatedAt: sql`now()` })
    .where(and(pairKey(diet.id, header.id), eq(scoreSheets.state, 'published')));
  await audit(tx, actor, {
    action: 'results.withdrawn',
    entityId: `${diet.id}:${header.id}`,
    before: { published_at: publication.publishedAt, results: shown.total },
    after: { diet: diet.code, course_header: header.code, reason: input.reason },
  });
  return publicationOf(tx, diet.id, header.id);
}

/** The sql of "this snapshot row's publication is live now". */
const liveSnapshot: SQL = sql`exists (select 1 from ${resultPublications}
  where ${resultPublications.dietId} = ${publishedResults.dietId}
    and ${resultPublications.courseHeaderId} = ${publishedResults.courseHeaderId}
    and ${resultPublications.publishedAt} is not null and ${resultPublications.withdrawnAt} is null)`;

/** Per course header with sheets in the diet: its sheets, how many locked, its publication, its results. */
export async function publications(db: Database, dietCode: string | null): Promise<Publication[]> {
  const rows = await db
    .select({
      diet: { id: diets.id, code: diets.code },
      course_header: { id: courseHeaders.id, code: courseHeaders.code },
      sheets: sql<number>`count(*)::int`,
      locked: sql<number>`(count(*) filter (where ${scoreSheets.state} in ('locked', 'published')))::int`,
      publishedAt: resultPublications.publishedAt,
      withdrawnAt: resultPublications.withdrawnAt,
      withdrawReason: resultPublications.withdrawReason,
      results: sql<number>`(select count(*)::int from ${results} where ${results.dietId} = ${diets.id}
        and ${results.courseHeaderId} = ${courseHeaders.id})`,
      published_results: sql<number>`(select count(*)::int from ${publishedResults}
        where ${publishedResults.dietId} = ${diets.id} and ${publishedResults.courseHeaderId} = ${courseHeaders.id})`,
    })
    .from(scoreSheets)
    .innerJoin(diets, eq(diets.id, scoreSheets.dietId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, scoreSheets.courseHeaderId))
    .leftJoin(
      resultPublications,
      and(
        eq(resultPublications.dietId, scoreSheets.dietId),
        eq(resultPublications.courseHeaderId, scoreSheets.courseHeaderId),
      ),
    )
    .where(dietCode ? dietCodeIs(dietCode) : undefined)
    .groupBy(diets.id, courseHeaders.id, resultPublications.dietId, resultPublications.courseHeaderId)
    .orderBy(asc(diets.firstPaperOn), asc(courseHeaders.code));
  return rows.map(({ publishedAt, withdrawnAt, withdrawReason, ...row }) => {
    const live = publishedAt !== null && withdrawnAt === null;
    return {
      ...row,
      published_at: live ? publishedAt.toISOString() : null,
      withdrawn_at: withdrawnAt ? withdrawnAt.toISOString() : null,
      withdraw_reason: withdrawReason,
      published_results: live ? row.published_results : 0,
    };
  });
}

async function publicationOf(db: Database, dietId: number, courseHeaderId: number): Promise<Publication> {
  const [diet] = await db.select({ code: diets.code }).from(diets).where(eq(diets.id, dietId));
  const all = await publications(db, diet.code);
  const found = all.find((p) => p.course_header.id === courseHeaderId);
  if (!found) throw new NotFound(M.noSheets);
  return found;
}

const shown = (row: {
  examMark: number | null;
  inCourseMark: number | null;
  finalMark: number | null;
  grade: string | null;
  outcome: ResultOutcome;
}): ShownResult => ({
  exam_mark: formatMark(row.examMark),
  in_course_mark: formatMark(row.inCourseMark),
  final_mark: formatMark(row.finalMark),
  grade: row.grade ?? '',
  outcome: row.outcome,
});

const sameShown = (a: ShownResult, b: ShownResult) =>
  a.exam_mark === b.exam_mark &&
  a.in_course_mark === b.in_course_mark &&
  a.final_mark === b.final_mark &&
  a.grade === b.grade &&
  a.outcome === b.outcome;

/** At most this many candidates are listed per kind of change (the counts are whole). */
const CHANGES_LISTED = 200;

/**
 * What compute, publish and withdraw would do, read without writing: the candidates and schools that
 * publishing now shows (the results computed afresh), why it cannot be published yet, the last
 * publication's size, and each candidate whose published row would change against it.
 */
export async function publicationPreview(
  db: Database,
  input: { diet: string; course_header: string },
): Promise<PublicationPreview> {
  const { diet, header } = await pairOf(db, input);
  const missing = await missingForPublication(db, diet.id, header);
  const rows = await resultRowsOf(db, diet.id, header.id);
  const [publication] = await db.select().from(resultPublications).where(publicationKey(diet.id, header.id));
  const snapshot = await db.select().from(publishedResults).where(snapshotKey(diet.id, header.id));
  const ever = Boolean(publication?.publishedAt);
  const live = ever && !publication.withdrawnAt;
  let changes: PublicationPreview['changes'] = null;
  if (ever) {
    const before = new Map(snapshot.map((row) => [row.candidateId, shown(row)]));
    const after = new Map(rows.map((row) => [row.candidateId, shown(row as Parameters<typeof shown>[0])]));
    const ids = [...new Set([...before.keys(), ...after.keys()])];
    const differing = ids.filter((id) => {
      const [b, a] = [before.get(id), after.get(id)];
      return !b || !a || !sameShown(a, b);
    });
    const people = differing.length
      ? await db
          .select({
            id: candidates.id,
            candidate_index: candidates.candidateIndex,
            first_name: candidates.first_name,
            middle_name: candidates.middle_name,
            last_name: candidates.last_name,
            school_code: trainingSchools.code,
          })
          .from(candidates)
          .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
          .where(inArray(candidates.id, differing))
          .orderBy(asc(candidates.candidateIndex))
      : [];
    const change = (person: (typeof people)[number]): ResultChange => ({
      candidate_id: person.id,
      candidate_index: person.candidate_index,
      name: formatPersonName(person),
      school_code: person.school_code,
      before: before.get(person.id) ?? null,
      after: after.get(person.id) ?? null,
    });
    const all = people.map(change);
    const pick = (test: (c: ResultChange) => boolean) => all.filter(test).slice(0, CHANGES_LISTED);
    changes = {
      added: pick((c) => c.before === null),
      removed: pick((c) => c.after === null),
      changed: pick((c) => c.before !== null && c.after !== null),
      counts: {
        added: all.filter((c) => c.before === null).length,
        removed: all.filter((c) => c.after === null).length,
        changed: all.filter((c) => c.before !== null && c.after !== null).length,
      },
    };
  }
  return {
    diet: { id: diet.id, code: diet.code },
    course_header: { id: header.id, code: header.code },
    candidates: rows.length,
    schools: new Set(rows.map((row) => row.trainingSchoolId)).size,
    missing,
    published_at: live ? publication.publishedAt!.toISOString() : null,
    withdrawn_at: publication?.withdrawnAt ? publication.withdrawnAt.toISOString() : null,
    published_results: snapshot.length,
    published_schools: new Set(snapshot.map((row) => row.trainingSchoolId)).size,
    changes,
  };
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
  const diet = await namedDiet(tx, input.diet);
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
    .where(and(isNull(resultHolds.releasedAt), dietCode ? dietCodeIs(dietCode) : undefined))
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

/** The board's list: each computed result, and the row the schools read now when a publication is live. */
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
      // The not-null column first: Drizzle makes a left-joined object null when its first column is.
      shown: {
        outcome: publishedResults.outcome,
        examMark: publishedResults.examMark,
        inCourseMark: publishedResults.inCourseMark,
        finalMark: publishedResults.finalMark,
        grade: publishedResults.grade,
      },
      hold_id: sql<number | null>`(select ${resultHolds.id} from ${resultHolds}
        where ${resultHolds.dietId} = ${results.dietId} and ${resultHolds.candidateId} = ${results.candidateId}
          and ${resultHolds.releasedAt} is null)`,
    })
    .from(results)
    .innerJoin(diets, eq(diets.id, results.dietId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, results.courseHeaderId))
    .innerJoin(candidates, eq(candidates.id, results.candidateId))
    .innerJoin(trainingSchools, eq(trainingSchools.id, results.trainingSchoolId))
    .leftJoin(
      publishedResults,
      and(
        eq(publishedResults.dietId, results.dietId),
        eq(publishedResults.courseHeaderId, results.courseHeaderId),
        eq(publishedResults.candidateId, results.candidateId),
        liveSnapshot,
      ),
    )
    .$dynamic();

type SelectedResult = Awaited<ReturnType<ReturnType<typeof selectResults>['execute']>>[number];

const toResultRow = (row: SelectedResult): ResultRow => {
  const now = shown(row.result);
  const published = row.shown?.outcome ? shown(row.shown as Parameters<typeof shown>[0]) : null;
  return {
    id: row.result.id,
    diet: row.diet,
    course_header: row.course_header,
    candidate_id: row.result.candidateId,
    candidate_index: row.candidate_index,
    name: formatPersonName(row),
    school_code: row.school_code,
    ...now,
    note: row.result.note,
    hold_id: row.hold_id,
    published: published !== null,
    published_as: published && !sameShown(published, now) ? published : null,
  };
};

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
    diet: dietCodeIs,
    course_header: (code: string) => eq(courseHeaders.code, code.toUpperCase()),
    outcome: (outcome: string) => eq(results.outcome, outcome as ResultOutcome),
    school: (code: string) => eq(trainingSchools.code, code.toUpperCase()),
  },
  sorts: { index: [candidates.candidateIndex], final: [results.finalMark] },
  toRow: toResultRow,
};

/** A school's list reads the snapshot alone (published_results of a live publication), never `results`. */
const selectPublished = (db: Database) =>
  db
    .select({
      result: publishedResults,
      diet: { id: diets.id, code: diets.code },
      course_header: { id: courseHeaders.id, code: courseHeaders.code },
      candidate_index: candidates.candidateIndex,
      first_name: candidates.first_name,
      middle_name: candidates.middle_name,
      last_name: candidates.last_name,
      school_code: trainingSchools.code,
    })
    .from(publishedResults)
    .innerJoin(diets, eq(diets.id, publishedResults.dietId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, publishedResults.courseHeaderId))
    .innerJoin(candidates, eq(candidates.id, publishedResults.candidateId))
    .innerJoin(trainingSchools, eq(trainingSchools.id, publishedResults.trainingSchoolId))
    .$dynamic();

type SelectedPublished = Awaited<ReturnType<ReturnType<typeof selectPublished>['execute']>>[number];

/** A school admin's: the live publications' rows only (the school scope is the list route's). */
export const publishedResultSource = {
  rows: selectPublished,
  matching: (db: Database) =>
    one(db)
      .from(publishedResults)
      .innerJoin(diets, eq(diets.id, publishedResults.dietId))
      .innerJoin(courseHeaders, eq(courseHeaders.id, publishedResults.courseHeaderId))
      .innerJoin(candidates, eq(candidates.id, publishedResults.candidateId))
      .innerJoin(trainingSchools, eq(trainingSchools.id, publishedResults.trainingSchoolId))
      .$dynamic(),
  key: publishedResults.id,
  where: liveSnapshot,
  school: publishedResults.trainingSchoolId,
  search: searchConditions,
  filters: {
    diet: dietCodeIs,
    course_header: (code: string) => eq(courseHeaders.code, code.toUpperCase()),
    outcome: (outcome: string) => eq(publishedResults.outcome, outcome as ResultOutcome),
  },
  sorts: { index: [candidates.candidateIndex], final: [publishedResults.finalMark] },
  toRow: (row: SelectedPublished): ResultRow => ({
    id: row.result.id,
    diet: row.diet,
    course_header: row.course_header,
    candidate_id: row.result.candidateId,
    candidate_index: row.candidate_index,
    name: formatPersonName(row),
    school_code: row.school_code,
    ...shown(row.result),
    note: row.result.note,
    hold_id: null,
    published: true,
    published_as: null,
  }),
};
