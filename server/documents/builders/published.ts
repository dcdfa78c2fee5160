import { and, asc, eq, isNotNull, isNull, notExists, sql, type SQL } from 'drizzle-orm';
import type { DocumentColumn } from '../../../contract/documents';
import type { Database } from '../../db/client';
import {
  candidates,
  courseHeaders,
  publishedResults,
  registrations,
  resultPublications,
  trainingSchools,
} from '../../db/schema';
import type { BuiltRow } from '../builder';
import { percentText, percentValue } from './figures';

/**
 * The published results the statistics count: the rows of `published_results` whose publication is
 * live (published and not withdrawn), the same rows the schools read. Results computed but not
 * published, and those of a withdrawn publication, are not counted: a statistic about results is
 * about results the board has made known.
 */

/** Who passed and who failed, as every statistic says it (docs/documents.md). */
export const PUBLISHED_ONLY =
  'Only published results are counted: results not yet published, or withdrawn by the board, are not. The pass rate is the candidates who passed over those who passed or failed; absent, incomplete, held and withheld results are counted as candidates but not in the rate.';

export interface Tally {
  candidates: number;
  passed: number;
  failed: number;
  /** The mean final mark (tenths of a percent) of the results that have one. */
  meanFinal: number | null;
}

const tallyColumns = {
  candidates: sql<number>`count(*)::int`,
  passed: sql<number>`(count(*) filter (where ${publishedResults.outcome} = 'pass'))::int`,
  failed: sql<number>`(count(*) filter (where ${publishedResults.outcome} = 'fail'))::int`,
  meanFinal: sql<number | null>`avg(${publishedResults.finalMark})::float8`,
};

export interface Filter {
  dietId: number;
  schoolId?: number | null;
  courseHeaderId?: number | null;
}

/** A publication that is live now: published and not withdrawn. */
export const live = and(isNotNull(resultPublications.publishedAt), isNull(resultPublications.withdrawnAt));

const filtered = (filter: Filter): SQL =>
  and(
    eq(publishedResults.dietId, filter.dietId),
    live,
    filter.schoolId ? eq(publishedResults.trainingSchoolId, filter.schoolId) : undefined,
    filter.courseHeaderId ? eq(publishedResults.courseHeaderId, filter.courseHeaderId) : undefined,
  )!;

/** A published row joined to its publication (with `live`: the rows the schools read now). */
export const withPublication = and(
  eq(resultPublications.dietId, publishedResults.dietId),
  eq(resultPublications.courseHeaderId, publishedResults.courseHeaderId),
);

export interface Group extends Tally {
  id: number;
  code: string;
  name: string;
}

/** The published results tallied by course header, in code order. */
export const byCourseHeader = (db: Database, filter: Filter): Promise<Group[]> =>
  db
    .select({ id: courseHeaders.id, code: courseHeaders.code, name: courseHeaders.title, ...tallyColumns })
    .from(publishedResults)
    .innerJoin(resultPublications, withPublication)
    .innerJoin(courseHeaders, eq(courseHeaders.id, publishedResults.courseHeaderId))
    .where(filtered(filter))
    .groupBy(courseHeaders.id, courseHeaders.code, courseHeaders.title)
    .orderBy(asc(courseHeaders.code));

/** The published results tallied by school, in code order. */
export const bySchool = (db: Database, filter: Filter): Promise<Group[]> =>
  db
    .select({
      id: trainingSchools.id,
      code: trainingSchools.code,
      name: trainingSchools.name,
      ...tallyColumns,
    })
    .from(publishedResults)
    .innerJoin(resultPublications, withPublication)
    .innerJoin(trainingSchools, eq(trainingSchools.id, publishedResults.trainingSchoolId))
    .where(filtered(filter))
    .groupBy(trainingSchools.id, trainingSchools.code, trainingSchools.name)
    .orderBy(asc(trainingSchools.code));

/**
 * The course headers with candidates registered for the diet (in the school, if chosen) whose results
 * are not published now: what a statistic of the diet leaves out, said on the paper.
 */
export async function unpublishedCourseHeaders(db: Database, filter: Filter): Promise<string[]> {
  const rows = await db
    .selectDistinct({ code: courseHeaders.code })
    .from(registrations)
    .innerJoin(candidates, eq(candidates.id, registrations.candidateId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
    .where(
      and(
        eq(registrations.dietId, filter.dietId),
        eq(registrations.regStatus, 'registered'),
        filter.schoolId ? eq(candidates.trainingSchoolId, filter.schoolId) : undefined,
        filter.courseHeaderId ? eq(candidates.courseHeaderId, filter.courseHeaderId) : undefined,
        notExists(
          db
            .select({ one: sql`1` })
            .from(resultPublications)
            .where(
              and(
                eq(resultPublications.dietId, filter.dietId),
                eq(resultPublications.courseHeaderId, courseHeaders.id),
                live,
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(courseHeaders.code));
  return rows.map((row) => row.code);
}

export const sum = (groups: Tally[]): Tally => {
  const graded = groups.filter((g) => g.meanFinal !== null);
  const weight = (g: Tally) => g.passed + g.failed;
  const weights = graded.reduce((total, g) => total + weight(g), 0);
  return {
    candidates: groups.reduce((total, g) => total + g.candidates, 0),
    passed: groups.reduce((total, g) => total + g.passed, 0),
    failed: groups.reduce((total, g) => total + g.failed, 0),
    meanFinal: weights ? graded.reduce((total, g) => total + g.meanFinal! * weight(g), 0) / weights : null,
  };
};

/** The figures of a tally as a table's cells and a row's facts (the paper's own words). */
export function tallyFigures(tally: Tally) {
  const figures = {
    Candidates: String(tally.candidates),
    Passed: String(tally.passed),
    Failed: String(tally.failed),
    Other: String(tally.candidates - tally.passed - tally.failed),
    'Pass rate': percentText(tally.passed, tally.passed + tally.failed),
  };
  return { cells: Object.values(figures), facts: figures };
}

export const TALLY_COLUMNS: DocumentColumn[] = ['Candidates', 'Passed', 'Failed', 'Other', 'Pass rate'].map(
  (label) => ({ label, align: 'right' }),
);

export const passRateOf = (tally: Tally) => percentValue(tally.passed, tally.passed + tally.failed);

/** A group's row: its code and name, then its tally (keyed `<prefix>:<code>` for verification). */
export const groupRow = (prefix: string, group: Group): BuiltRow => {
  const { cells, facts } = tallyFigures(group);
  return { key: `${prefix}:${group.code}`, cells: [`${group.code} ${group.name}`, ...cells], facts };
};
