import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DocumentColumn } from '../../../contract/documents';
import type { Database } from '../../db/client';
import { papers, publishedResults, resultPublications, scoreSheets } from '../../db/schema';
import { agreementsOf } from '../../scores/agreement';
import type { BuiltBlock, BuiltDocument, BuiltRow, DocumentBuilder } from '../builder';
import { headingOf } from '../common';
import { meanMarkText, percentText, percentValue, required } from './figures';
import {
  PUBLISHED_ONLY,
  byCourseHeader,
  live,
  withPublication,
  passRateOf,
  sum,
  unpublishedCourseHeaders,
  type Group,
  type Tally,
} from './published';

/**
 * One school's results at a diet against the whole board's (the school included): by course header,
 * candidates, passes, pass rate and mean final mark from the published results; by paper, the mean
 * agreed mark as a percent of the paper's maximum, over the candidates whose results are published.
 */

const right = (label: string): DocumentColumn => ({ label, align: 'right' });

function tallyCells(tally: Tally) {
  return {
    Candidates: String(tally.candidates),
    Passed: String(tally.passed),
    'Pass rate': percentText(tally.passed, tally.passed + tally.failed),
    'Mean final mark': meanMarkText(tally.meanFinal),
  };
}

function courseRow(own: Group, board: Group): BuiltRow {
  const [mine, all] = [tallyCells(own), tallyCells(board)];
  const boardFacts = Object.fromEntries(
    Object.entries(all).map(([label, value]) => [`Board ${label.toLowerCase()}`, value]),
  );
  return {
    key: `course-header:${own.code}`,
    cells: [`${own.code} ${own.name}`, ...Object.values(mine), ...Object.values(all)],
    facts: { ...mine, ...boardFacts },
  };
}

interface PaperMeans {
  courseHeader: string;
  paper: string;
  max: number;
  school: number[];
  board: number[];
}

/**
 * Each published course header's papers: the agreed mark of every candidate whose published result it
 * counts towards, the school's and the board's. Sheets are read through server/scores/agreement.ts, the
 * rule results are computed by (published sheets are never blind).
 */
async function paperMeans(db: Database, dietId: number, schoolId: number, headers: Group[]) {
  if (!headers.length) return [];
  const ids = headers.map((h) => h.id);
  const published = await db
    .select({
      candidateId: publishedResults.candidateId,
      courseHeaderId: publishedResults.courseHeaderId,
      schoolId: publishedResults.trainingSchoolId,
    })
    .from(publishedResults)
    .innerJoin(resultPublications, withPublication)
    .where(and(eq(publishedResults.dietId, dietId), live, inArray(publishedResults.courseHeaderId, ids)));
  const schoolOf = new Map(
    published.map((row) => [`${row.courseHeaderId}:${row.candidateId}`, row.schoolId]),
  );
  const paperRows = await db
    .select()
    .from(papers)
    .where(inArray(papers.courseHeaderId, ids))
    .orderBy(asc(papers.courseHeaderId), asc(papers.name));
  const sheets = await db
    .select()
    .from(scoreSheets)
    .where(
      and(
        eq(scoreSheets.dietId, dietId),
        eq(scoreSheets.kind, 'exam'),
        inArray(scoreSheets.courseHeaderId, ids),
      ),
    );
  const means: PaperMeans[] = [];
  for (const paper of paperRows) {
    const header = headers.find((h) => h.id === paper.courseHeaderId)!;
    const entry: PaperMeans = {
      courseHeader: header.code,
      paper: paper.name,
      max: paper.qMax.reduce((a, b) => a + b, 0),
      school: [],
      board: [],
    };
    for (const sheet of sheets.filter((s) => s.paperId === paper.id)) {
      for (const script of await agreementsOf(db, sheet)) {
        const school = schoolOf.get(`${paper.courseHeaderId}:${script.candidateId}`);
        if (school === undefined || script.decided.kind !== 'agreed') continue;
        entry.board.push(script.decided.total);
        if (school === schoolId) entry.school.push(script.decided.total);
      }
    }
    means.push(entry);
  }
  return means;
}
const sumOf = (marks: number[]) => marks.reduce((a, b) => a + b, 0);
const meanPercent = (marks: number[], max: number) => percentText(sumOf(marks), marks.length * max);

function paperRow(means: PaperMeans): BuiltRow {
  const facts = {
    Scripts: String(means.school.length),
    'Mean mark': meanPercent(means.school, means.max),
    'Board scripts': String(means.board.length),
    'Board mean mark': meanPercent(means.board, means.max),
  };
  return {
    key: `paper:${means.courseHeader}:${means.paper}`,
    cells: [means.courseHeader, means.paper, ...Object.values(facts)],
    facts,
  };
}

export const schoolPerformance: DocumentBuilder = {
  ending: 'school-performance',
  count: async (db, scope) =>
    (await byCourseHeader(db, { dietId: required(scope, 'diet').id, schoolId: required(scope, 'school').id }))
      .length,
  async build(db, scope): Promise<BuiltDocument> {
    const [diet, school] = [required(scope, 'diet'), required(scope, 'school')];
    const own = await byCourseHeader(db, { dietId: diet.id, schoolId: school.id });
    const board = new Map((await byCourseHeader(db, { dietId: diet.id })).map((group) => [group.id, group]));
    const blocks: BuiltBlock[] = [
      { kind: 'text', text: PUBLISHED_ONLY },
      {
        kind: 'text',
        text: 'The board’s figures are every school’s, this one included, in the same course headers. A paper’s mean mark is the mean agreed mark of the candidates whose results are published, as a percent of the paper’s maximum; absent scripts are not in it.',
      },
    ];
    const unpublished = await unpublishedCourseHeaders(db, { dietId: diet.id, schoolId: school.id });
    if (unpublished.length) {
      blocks.push({
        kind: 'notice',
        text: `Not counted: the results of ${unpublished.join(', ')} at this diet are not published.`,
      });
    }
    if (!own.length) {
      blocks.push({
        kind: 'notice',
        text: 'No results of this school at this diet are published: there is nothing to compare yet.',
      });
      return { heading: headingOf(scope), blocks, facts: { Candidates: '0' } };
    }
    const boardOf = (group: Group) => board.get(group.id)!;
    const [ownTotal, boardTotal] = [sum(own), sum(own.map(boardOf))];
    const figureColumns = ['Candidates', 'Passed', 'Pass rate', 'Mean final mark'];
    blocks.push({
      kind: 'table',
      title: 'By course header: the school, then the board',
      columns: [
        { label: 'Course header', width: 3 },
        ...figureColumns.map(right),
        ...figureColumns.map((label) => right(`Board ${label.toLowerCase()}`)),
      ],
      rows: own.map((group) => courseRow(group, boardOf(group))),
      totals: ['All', ...Object.values(tallyCells(ownTotal)), ...Object.values(tallyCells(boardTotal))],
    });
    blocks.push({
      kind: 'chart',
      title: `Pass rate by course header: ${school.code} and the board`,
      unit: '% passed',
      max: 100,
      bars: own.flatMap((group) => [
        { label: `${group.code} ${school.code}`, value: passRateOf(group) },
        { label: `${group.code} board`, value: passRateOf(boardOf(group)) },
      ]),
    });
    const means = await paperMeans(db, diet.id, school.id, own);
    blocks.push({
      kind: 'table',
      title: 'By paper: the mean agreed mark, the school and the board',
      columns: [
        { label: 'Course header', width: 1 },
        { label: 'Paper', width: 2 },
        ...['Scripts', 'Mean mark', 'Board scripts', 'Board mean mark'].map(right),
      ],
      rows: means.map(paperRow),
    });
    blocks.push({
      kind: 'chart',
      title: `Mean mark by paper: ${school.code} and the board`,
      unit: '% of the paper’s maximum',
      max: 100,
      bars: means.flatMap((m) => [
        {
          label: `${m.courseHeader} ${m.paper} ${school.code}`,
          value: percentValue(sumOf(m.school), m.school.length * m.max),
        },
        {
          label: `${m.courseHeader} ${m.paper} board`,
          value: percentValue(sumOf(m.board), m.board.length * m.max),
        },
      ]),
    });
    return {
      heading: headingOf(scope),
      blocks,
      facts: {
        Candidates: String(ownTotal.candidates),
        Passed: String(ownTotal.passed),
        'Pass rate': percentText(ownTotal.passed, ownTotal.passed + ownTotal.failed),
      },
    };
  },
};
