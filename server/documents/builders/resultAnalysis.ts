import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DocumentColumn } from '../../../contract/documents';
import { QUESTIONS, formatMark, totalOf, type PaperRules } from '../../../contract/scores';
import type { Database } from '../../db/client';
import { papers, resultPublications, scoreSheets, users } from '../../db/schema';
import { agreementsOf, scriptOf, type ScriptAgreement } from '../../scores/agreement';
import { mayRead } from '../../scores/blind';
import { rulesOfPaper } from '../../scores/papers';
import type { BuiltBlock, BuiltDocument, BuiltRow, DocumentBuilder, DocumentScope } from '../builder';
import { headingOf } from '../common';
import { meanMarkText, percentText, ratioText, required } from './figures';
import { live } from './published';

/**
 * What boards do not publish: per paper and question, the mean, the facility (mean over maximum) and
 * the discrimination (Kelley's upper-lower index); per pair of markers, how often and by how much their
 * marks differed. Read from the score sheets both markers have submitted (a blind sheet is not read,
 * server/scores/blind.ts), whether or not the results are published yet: the committee reads it before
 * it publishes.
 */

/** Kelley's groups: the top and bottom 27% of scripts by paper total. */
const GROUP_SHARE = 0.27;
/** Below this many scripts the groups are too small for a discrimination index worth printing. */
const DISCRIMINATION_MIN_SCRIPTS = 10;

type StoredPaper = typeof papers.$inferSelect;
type Sheet = typeof scoreSheets.$inferSelect;

/** A script both markers marked: each question's mark as the mean of theirs (tenths), and the total. */
interface Script {
  candidateId: number;
  marks: number[];
  total: number;
}

function doubleMarked(rules: PaperRules, a: ScriptAgreement): Script | null {
  const [one, two] = [scriptOf(a.one), scriptOf(a.two)];
  if (!one || !two || one.absent || two.absent) return null;
  const [total1, total2] = [totalOf(rules, one), totalOf(rules, two)];
  if (total1 === null || total2 === null) return null;
  return {
    candidateId: a.candidateId,
    marks: QUESTIONS.map((_, i) => (rules.q_max[i] === 0 ? 0 : (one.marks[i]! + two.marks[i]!) / 2)),
    total: (total1 + total2) / 2,
  };
}

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);

/** The upper group's mean minus the lower group's, over the maximum (null: too few scripts). */
function discrimination(ranked: Script[], question: number, max: number): number | null {
  if (ranked.length < DISCRIMINATION_MIN_SCRIPTS) return null;
  const size = Math.round(ranked.length * GROUP_SHARE);
  const upper = mean(ranked.slice(0, size).map((s) => s.marks[question]))!;
  const lower = mean(ranked.slice(-size).map((s) => s.marks[question]))!;
  return (upper - lower) / max;
}

function questionBlocks(paper: StoredPaper, scripts: Script[]): BuiltBlock[] {
  const rules = rulesOfPaper(paper);
  // Highest total first; equal totals by candidate, so the groups are the same on every print.
  const ranked = [...scripts].sort((a, b) => b.total - a.total || a.candidateId - b.candidateId);
  const rows: BuiltRow[] = [];
  const bars: { label: string; value: number }[] = [];
  QUESTIONS.forEach((_, i) => {
    const max = rules.q_max[i];
    if (max === 0) return;
    const average = mean(scripts.map((s) => s.marks[i]))!;
    const facility = average / max;
    const figures = {
      Scripts: String(scripts.length),
      Mean: meanMarkText(average),
      Facility: ratioText(facility),
      Discrimination: ratioText(discrimination(ranked, i, max)),
    };
    const label = `Q${i + 1}`;
    rows.push({
      key: `${paper.name}:${label}`,
      cells: [label, formatMark(max), ...Object.values(figures)],
      facts: figures,
    });
    bars.push({ label, value: facility });
  });
  const maxTotal = rules.q_max.reduce((a, b) => a + b, 0);
  const meanTotal = mean(scripts.map((s) => s.total))!;
  const right = (label: string): DocumentColumn => ({ label, align: 'right' });
  return [
    {
      kind: 'table',
      title: `${paper.name}: by question`,
      columns: [
        { label: 'Question' },
        ...['Maximum', 'Scripts', 'Mean', 'Facility', 'Discrimination'].map(right),
      ],
      rows,
      totals: [
        'Total',
        formatMark(maxTotal),
        String(scripts.length),
        meanMarkText(meanTotal),
        ratioText(meanTotal / maxTotal),
        '',
      ],
    },
    {
      kind: 'chart',
      title: `${paper.name}: facility by question`,
      unit: 'facility (mean ÷ maximum)',
      max: 1,
      bars,
    },
  ];
}

/** How one pair of markers compared, over every script both returned. */
interface PairTally {
  one: number;
  two: number;
  sheets: Set<number>;
  scripts: number;
  differed: number;
  beyond: number;
  differences: number[];
}

function tallyPair(pair: PairTally, rules: PaperRules, a: ScriptAgreement) {
  const [one, two] = [scriptOf(a.one), scriptOf(a.two)];
  if (!one || !two || a.first.kind === 'incomplete') return;
  pair.scripts++;
  if (a.first.kind === 'flagged') pair.beyond++;
  if (one.absent !== two.absent) {
    pair.differed++;
    return;
  }
  if (one.absent) return;
  if (QUESTIONS.some((_, i) => rules.q_max[i] !== 0 && one.marks[i] !== two.marks[i])) pair.differed++;
  pair.differences.push(Math.abs(totalOf(rules, one)! - totalOf(rules, two)!));
}

async function markerNames(db: Database, pairs: PairTally[]) {
  const ids = [...new Set(pairs.flatMap((p) => [p.one, p.two]))];
  if (!ids.length) return new Map<number, string>();
  const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, row.name]));
}

async function pairBlock(db: Database, pairs: PairTally[]): Promise<BuiltBlock> {
  const names = await markerNames(db, pairs);
  const rows = pairs.map((pair): BuiltRow => {
    const [one, two] = [names.get(pair.one) ?? '', names.get(pair.two) ?? ''];
    const largest = pair.differences.length ? Math.max(...pair.differences) : null;
    const figures = {
      Sheets: String(pair.sheets.size),
      'Scripts double-marked': String(pair.scripts),
      'Differed at all': `${pair.differed} (${percentText(pair.differed, pair.scripts)})`,
      'Beyond tolerance': `${pair.beyond} (${percentText(pair.beyond, pair.scripts)})`,
      'Mean difference': meanMarkText(mean(pair.differences)),
      'Largest difference': largest === null ? '–' : formatMark(largest),
    };
    return {
      key: `markers:${pair.one}:${pair.two}`,
      cells: [one, two, ...Object.values(figures)],
      facts: { 'Marker one': one, 'Marker two': two, ...figures },
    };
  });
  return {
    kind: 'table',
    title: 'Marker pairs: marker one and marker two of a sheet',
    columns: [
      { label: 'Marker one', width: 2 },
      { label: 'Marker two', width: 2 },
      ...[
        'Sheets',
        'Scripts double-marked',
        'Differed at all',
        'Beyond tolerance',
        'Mean difference',
        'Largest difference',
      ].map((label): DocumentColumn => ({ label, align: 'right' })),
    ],
    rows,
  };
}

const papersOf = (db: Database, scope: DocumentScope) =>
  db
    .select()
    .from(papers)
    .where(
      scope.paper
        ? eq(papers.id, scope.paper.id)
        : eq(papers.courseHeaderId, required(scope, 'courseHeader').id),
    )
    .orderBy(asc(papers.name));

async function isPublished(db: Database, dietId: number, courseHeaderId: number) {
  const [row] = await db
    .select({ dietId: resultPublications.dietId })
    .from(resultPublications)
    .where(
      and(eq(resultPublications.dietId, dietId), eq(resultPublications.courseHeaderId, courseHeaderId), live),
    );
  return row !== undefined;
}

const METHOD =
  'Read from the score sheets both markers have submitted (until then a sheet is blind and is not read). A script’s mark on a question is the mean of marker one’s and marker two’s; absent scripts, and scripts a marker has not finished, are left out.';
const DEFINITIONS =
  'Facility: the mean mark over the question’s maximum, from 0 to 1 (low: a hard question). Discrimination: Kelley’s upper-lower index, the mean mark of the top 27% of scripts by paper total minus that of the bottom 27%, over the question’s maximum, from −1 to 1 (0.3 and above separates strong from weak candidates well, below 0.2 poorly, below 0 the weaker did better); given for 10 scripts or more. Marker pairs: a script differed at all when any question’s marks differ or one marker found it absent; beyond tolerance when it went to the third marker; the differences are of the two totals, in marks.';

export const resultAnalysis: DocumentBuilder = {
  ending: 'result-analysis',
  async count(db, scope) {
    const rows = await papersOf(db, scope);
    return rows.reduce((total, paper) => total + paper.qMax.filter((max) => max > 0).length, 0);
  },
  async build(db, scope): Promise<BuiltDocument> {
    const [diet, header] = [required(scope, 'diet'), required(scope, 'courseHeader')];
    const paperRows = await papersOf(db, scope);
    const sheets: Sheet[] = paperRows.length
      ? await db
          .select()
          .from(scoreSheets)
          .where(
            and(
              eq(scoreSheets.kind, 'exam'),
              eq(scoreSheets.dietId, diet.id),
              eq(scoreSheets.courseHeaderId, header.id),
              inArray(
                scoreSheets.paperId,
                paperRows.map((p) => p.id),
              ),
            ),
          )
          .orderBy(asc(scoreSheets.id))
      : [];
    const blocks: BuiltBlock[] = [
      { kind: 'text', text: METHOD },
      { kind: 'text', text: DEFINITIONS },
    ];
    if (!(await isPublished(db, diet.id, header.id))) {
      blocks.push({
        kind: 'notice',
        text: 'The results of this diet and course header are not published: these figures are read from the marks as they stand, and may still change.',
      });
    }
    if (!paperRows.length)
      blocks.push({
        kind: 'notice',
        text: 'This course header has no papers: there are no marks to analyse.',
      });
    const pairs = new Map<string, PairTally>();
    let analysed = 0;
    for (const paper of paperRows) {
      const rules = rulesOfPaper(paper);
      const own = sheets.filter((sheet) => sheet.paperId === paper.id);
      const comparable = own.filter((sheet) => mayRead(sheet, 'agreement', null));
      const scripts: Script[] = [];
      for (const sheet of comparable) {
        const key = `${sheet.markerOneId}:${sheet.markerTwoId}`;
        const pair: PairTally = pairs.get(key) ?? {
          one: sheet.markerOneId,
          two: sheet.markerTwoId!,
          sheets: new Set<number>(),
          scripts: 0,
          differed: 0,
          beyond: 0,
          differences: [],
        };
        pair.sheets.add(sheet.id);
        pairs.set(key, pair);
        for (const a of await agreementsOf(db, sheet)) {
          tallyPair(pair, rules, a);
          const script = doubleMarked(rules, a);
          if (script) scripts.push(script);
        }
      }
      if (own.length > comparable.length) {
        blocks.push({
          kind: 'notice',
          text: `${paper.name}: ${own.length - comparable.length} of its ${own.length} score sheets are still blind (both markers have not submitted) and are not read.`,
        });
      }
      if (!scripts.length) {
        blocks.push({
          kind: 'notice',
          text: `${paper.name}: no script at this diet has been marked by both markers, so there is nothing to analyse.`,
        });
        continue;
      }
      analysed += scripts.length;
      blocks.push(...questionBlocks(paper, scripts));
    }
    if (pairs.size) blocks.push(await pairBlock(db, [...pairs.values()]));
    return {
      heading: headingOf(scope),
      blocks,
      facts: { Papers: String(paperRows.length), 'Scripts analysed': String(analysed) },
    };
  },
};
