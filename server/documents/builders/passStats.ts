import type { DocumentColumn } from '../../../contract/documents';
import type { Database } from '../../db/client';
import type { BuiltBlock, BuiltDocument, BuiltRow, DocumentBuilder, DocumentScope } from '../builder';
import { headingOf } from '../common';
import { percentText, required } from './figures';
import {
  PUBLISHED_ONLY,
  TALLY_COLUMNS,
  byCourseHeader,
  bySchool,
  groupRow,
  passRateOf,
  sum,
  tallyFigures,
  unpublishedCourseHeaders,
  type Filter,
  type Group,
} from './published';

/**
 * The diet's passes and failures (fail-pass-stats), and every school ranked by pass rate
 * (all-schools-exam-perf): tallies of the published results (./published.ts), with bar charts of the
 * pass rates.
 */

const filterOf = (scope: DocumentScope): Filter => ({
  dietId: required(scope, 'diet').id,
  schoolId: scope.school?.id ?? null,
  courseHeaderId: scope.courseHeader?.id ?? null,
});

const PASS_RATE_CHART = { unit: '% passed', max: 100 } as const;
const chartOf = (title: string, groups: Group[]): BuiltBlock => ({
  kind: 'chart',
  title,
  ...PASS_RATE_CHART,
  bars: groups.map((group) => ({ label: group.code, value: passRateOf(group) })),
});

/** The notice of course headers registered at the diet whose results are not published. */
async function leftOut(db: Database, filter: Filter): Promise<BuiltBlock[]> {
  const codes = await unpublishedCourseHeaders(db, filter);
  if (!codes.length) return [];
  return [
    {
      kind: 'notice',
      text: `Not counted: the results of ${codes.join(', ')} at this diet are not published.`,
    },
  ];
}

const NONE_PUBLISHED: BuiltBlock = {
  kind: 'notice',
  text: 'No results of this diet are published for what was chosen: there is nothing to count yet.',
};

export const failPassStats: DocumentBuilder = {
  ending: 'fail-pass-stats',
  async count(db, scope) {
    const filter = filterOf(scope);
    const courses = await byCourseHeader(db, filter);
    return courses.length + (scope.school ? 0 : (await bySchool(db, filter)).length);
  },
  async build(db, scope): Promise<BuiltDocument> {
    const filter = filterOf(scope);
    const courses = await byCourseHeader(db, filter);
    const blocks: BuiltBlock[] = [{ kind: 'text', text: PUBLISHED_ONLY }, ...(await leftOut(db, filter))];
    if (!courses.length) {
      blocks.push(NONE_PUBLISHED);
      return { heading: headingOf(scope), blocks, facts: { Candidates: '0' } };
    }
    const total = sum(courses);
    const columns = (first: string): DocumentColumn[] => [{ label: first, width: 3 }, ...TALLY_COLUMNS];
    blocks.push({
      kind: 'table',
      title: 'By course header',
      columns: columns('Course header'),
      rows: courses.map((group) => groupRow('course-header', group)),
      totals: ['All', ...tallyFigures(total).cells],
    });
    blocks.push(chartOf('Pass rate by course header', courses));
    if (!scope.school) {
      const schools = await bySchool(db, filter);
      blocks.push({
        kind: 'table',
        title: 'By training school',
        columns: columns('Training school'),
        rows: schools.map((group) => groupRow('school', group)),
        totals: ['All', ...tallyFigures(sum(schools)).cells],
      });
      blocks.push(chartOf('Pass rate by training school', schools));
    }
    return { heading: headingOf(scope), blocks, facts: tallyFigures(total).facts };
  },
};

/** How many schools the chart of the best shows (the table ranks them all). */
const TOP_SCHOOLS = 10;

/**
 * Pass rates compared exactly (passed × graded, crossed), highest first; a school with no pass or fail
 * (every result absent, held…) has no rate and comes last.
 */
function byRate(a: Group, b: Group): number {
  const [gradedA, gradedB] = [a.passed + a.failed, b.passed + b.failed];
  if (!gradedA || !gradedB) return (gradedB ? 1 : 0) - (gradedA ? 1 : 0);
  return b.passed * gradedA - a.passed * gradedB;
}

/** Schools in rank order; equal rates share a rank (1, 2, 2, 4) and are listed by school code. */
function ranked(schools: Group[]): { rank: number; group: Group }[] {
  const ordered = [...schools].sort((a, b) => byRate(a, b) || a.code.localeCompare(b.code));
  let rank = 0;
  return ordered.map((group, i) => {
    if (i === 0 || byRate(ordered[i - 1], group) !== 0) rank = i + 1;
    return { rank, group };
  });
}

export const allSchoolsExamPerf: DocumentBuilder = {
  ending: 'all-schools-exam-perf',
  count: async (db, scope) => (await bySchool(db, { dietId: required(scope, 'diet').id })).length,
  async build(db, scope): Promise<BuiltDocument> {
    const filter = { dietId: required(scope, 'diet').id };
    const schools = ranked(await bySchool(db, filter));
    const blocks: BuiltBlock[] = [
      { kind: 'text', text: PUBLISHED_ONLY },
      {
        kind: 'text',
        text: 'Schools are ranked by pass rate, highest first; equal rates share a rank. A school with few candidates can rank high or low by a single result: read the rate beside its number of candidates.',
      },
      ...(await leftOut(db, filter)),
    ];
    if (!schools.length) {
      blocks.push(NONE_PUBLISHED);
      return { heading: headingOf(scope), blocks, facts: { Schools: '0' } };
    }
    const rows: BuiltRow[] = schools.map(({ rank, group }) => {
      const { cells, facts } = tallyFigures(group);
      return {
        key: `school:${group.code}`,
        cells: [String(rank), `${group.code} ${group.name}`, ...cells],
        facts: { Rank: String(rank), ...facts },
      };
    });
    const total = sum(schools.map(({ group }) => group));
    blocks.push({
      kind: 'table',
      columns: [
        { label: 'Rank', align: 'right', width: 0.6 },
        { label: 'Training school', width: 3 },
        ...TALLY_COLUMNS,
      ],
      rows,
      totals: ['', 'All schools', ...tallyFigures(total).cells],
    });
    const top = schools.slice(0, TOP_SCHOOLS).map(({ group }) => group);
    blocks.push(
      chartOf(`Pass rate of the ${top.length === 1 ? 'school' : `top ${top.length} schools`}`, top),
    );
    return {
      heading: headingOf(scope),
      blocks,
      facts: {
        Schools: String(schools.length),
        Candidates: String(total.candidates),
        'Pass rate': percentText(total.passed, total.passed + total.failed),
      },
    };
  },
};
