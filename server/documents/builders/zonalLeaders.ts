import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { DocumentColumn } from '../../../contract/documents';
import {
  agreement,
  formatMark,
  thirdMarkerDecides,
  totalOf,
  type Agreement,
  type PaperRules,
  type ScriptMarks,
} from '../../../contract/scores';
import type { Database } from '../../db/client';
import {
  candidates,
  papers,
  registrations,
  scoreSheets,
  scriptMarks,
  trainingSchools,
} from '../../db/schema';
import { scriptOf, type StoredMarks } from '../../scores/agreement';
import { mayRead } from '../../scores/blind';
import { rulesOfPaper } from '../../scores/papers';
import type { BuiltBlock, BuiltDocument, BuiltRow, DocumentBuilder, DocumentScope, Facts } from '../builder';
import { headingOf, surnameFirst } from '../common';
import { required } from './figures';

/**
 * The zonal leader's check of one paper at a diet: each script's marker one and marker two totals, the
 * difference, whether it is beyond the paper's tolerance, the third marker's total and the agreed mark.
 * 'blank' leaves the marks for the zonal leader to copy from the scripts; 'filled' reads them from the
 * score sheets. Scripts are named as the board's own grids name them (index number and name), and the
 * two markers' marks are shown side by side only where the board itself may compare them: a sheet both
 * markers have submitted (server/scores/blind.ts). A sheet still blind is left empty, and says so.
 */

const BEYOND: Record<Extract<Agreement, { kind: 'flagged' }>['why'], string> = {
  question: 'Yes (a question)',
  total: 'Yes (the total)',
  absence: 'Yes (one absent)',
};
const MARK_COLUMNS = [
  'Marker one',
  'Marker two',
  'Difference',
  'Beyond tolerance',
  'Third marker',
  'Agreed mark',
];

type Sheet = typeof scoreSheets.$inferSelect;
interface Entry {
  id: number;
  candidateIndex: string;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  schoolId: number;
  schoolCode: string;
}

/** The paper's candidates: registered for the diet in its course header (and the school, if chosen). */
const rosterWhere = (scope: DocumentScope) =>
  and(
    eq(registrations.dietId, required(scope, 'diet').id),
    eq(registrations.regStatus, 'registered'),
    eq(candidates.courseHeaderId, required(scope, 'courseHeader').id),
    scope.school ? eq(candidates.trainingSchoolId, scope.school.id) : undefined,
  );

const rosterOf = (db: Database, scope: DocumentScope): Promise<Entry[]> =>
  db
    .select({
      id: candidates.id,
      candidateIndex: candidates.candidateIndex,
      first_name: candidates.first_name,
      middle_name: candidates.middle_name,
      last_name: candidates.last_name,
      schoolId: candidates.trainingSchoolId,
      schoolCode: trainingSchools.code,
    })
    .from(registrations)
    .innerJoin(candidates, eq(candidates.id, registrations.candidateId))
    .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
    .where(rosterWhere(scope))
    .orderBy(asc(candidates.candidateIndex));

/** A script's total as the sheet shows it: the sum of its marks, 'Absent', or nothing while unmarked. */
function totalText(rules: PaperRules, script: ScriptMarks | null): string {
  if (!script) return '';
  return script.absent ? 'Absent' : formatMark(totalOf(rules, script));
}

/** One script's six figures, by the rules of contract/scores.ts (`agreement`, `thirdMarkerDecides`). */
function markCells(rules: PaperRules, marks: (StoredMarks | undefined)[]): string[] {
  const [one, two, three] = [scriptOf(marks[1]), scriptOf(marks[2]), scriptOf(marks[3])];
  const first = agreement(rules, one, two);
  const [total1, total2] = [one && totalOf(rules, one), two && totalOf(rules, two)];
  const difference =
    typeof total1 === 'number' && typeof total2 === 'number' ? Math.abs(total1 - total2) : null;
  const decided = first.kind === 'flagged' ? thirdMarkerDecides(rules, one!, two!, three) : first;
  return [
    totalText(rules, one),
    totalText(rules, two),
    formatMark(difference),
    first.kind === 'flagged' ? BEYOND[first.why] : first.kind === 'incomplete' ? '' : 'No',
    first.kind === 'flagged' ? totalText(rules, three) : '',
    decided.kind === 'agreed' ? formatMark(decided.total) : decided.kind === 'absent' ? 'Absent' : '',
  ];
}

async function paperOf(db: Database, scope: DocumentScope) {
  const [paper] = await db
    .select()
    .from(papers)
    .where(eq(papers.id, required(scope, 'paper').id));
  if (!paper) throw new Error('The paper was resolved by the print pipeline and must exist.');
  return paper;
}

/** The stored marks of the sheets the board may compare now, by sheet and candidate (`[, one, two, three]`). */
async function comparableMarks(db: Database, sheets: Sheet[]) {
  const byScript = new Map<string, StoredMarks[]>();
  const ids = sheets.filter((sheet) => mayRead(sheet, 'agreement', null)).map((sheet) => sheet.id);
  if (!ids.length) return byScript;
  for (const row of await db.select().from(scriptMarks).where(inArray(scriptMarks.sheetId, ids))) {
    const key = `${row.sheetId}:${row.candidateId}`;
    const marks = byScript.get(key) ?? [];
    marks[row.marker] = row;
    byScript.set(key, marks);
  }
  return byScript;
}

const tolerances = (rules: PaperRules) =>
  `Tolerance: ${formatMark(rules.tolerance_question)} marks on any question and ${formatMark(rules.tolerance_total)} on the total. Within it, the agreed mark is the mean of the two markers’ totals. Beyond it the script goes to the third marker, and the agreed mark is the mean of the third marker’s total and the nearer of the first two (equally near: the higher). Half a tenth goes to the candidate.`;

export const zonalLeadersMarksheet: DocumentBuilder = {
  ending: 'zonal-leaders-marksheet',
  async count(db, scope) {
    const [row] = await db
      .select({ total: count() })
      .from(registrations)
      .innerJoin(candidates, eq(candidates.id, registrations.candidateId))
      .where(rosterWhere(scope));
    return row.total;
  },
  async build(db, scope): Promise<BuiltDocument> {
    const diet = required(scope, 'diet');
    const paper = await paperOf(db, scope);
    const rules = rulesOfPaper(paper);
    const filled = scope.variant === 'filled';
    const roster = await rosterOf(db, scope);
    const sheets = await db
      .select()
      .from(scoreSheets)
      .where(
        and(
          eq(scoreSheets.kind, 'exam'),
          eq(scoreSheets.dietId, diet.id),
          eq(scoreSheets.courseHeaderId, paper.courseHeaderId),
          eq(scoreSheets.paperId, paper.id),
        ),
      );
    // One sheet at most covers a candidate's paper: the school's own, or the one for every school.
    const sheetOf = (entry: Entry) =>
      sheets.find((sheet) => sheet.trainingSchoolId === null || sheet.trainingSchoolId === entry.schoolId);
    const marks = filled ? await comparableMarks(db, sheets) : new Map<string, StoredMarks[]>();
    let [blind, unsheeted] = [0, 0];

    const rows: BuiltRow[] = roster.map((entry, i) => {
      const name = surnameFirst(entry);
      const facts: Record<string, string> = { Name: name, 'Index number': entry.candidateIndex };
      let figures = MARK_COLUMNS.map(() => '');
      if (filled) {
        const sheet = sheetOf(entry);
        if (!sheet) unsheeted++;
        else if (!mayRead(sheet, 'agreement', null)) blind++;
        else {
          figures = markCells(rules, marks.get(`${sheet.id}:${entry.id}`) ?? []);
          MARK_COLUMNS.forEach((label, column) => {
            if (label !== 'Difference' && label !== 'Beyond tolerance') facts[label] = figures[column];
          });
        }
      }
      const school = scope.school ? [] : [entry.schoolCode];
      return {
        key: entry.candidateIndex,
        cells: [String(i + 1), entry.candidateIndex, name, ...school, ...figures],
        facts: facts as Facts,
      };
    });

    const columns: DocumentColumn[] = [
      { label: 'S/N', align: 'right', width: 0.5 },
      { label: 'Index number', width: 2 },
      { label: 'Name', width: 2.5 },
      ...(scope.school ? [] : [{ label: 'School', width: 1 }]),
      ...MARK_COLUMNS.map((label): DocumentColumn => ({ label, align: 'center', blank: !filled })),
    ];
    const blocks: BuiltBlock[] = [{ kind: 'text', text: tolerances(rules) }];
    if (!filled) {
      blocks.push({
        kind: 'text',
        text: 'Blank for the zonal leader: copy each marker’s total from the script, then the difference, whether it is beyond tolerance, the third marker’s total where there is one, and the agreed mark.',
      });
    } else if (!sheets.length) {
      blocks.push({
        kind: 'notice',
        text: 'There is no score sheet of this paper at this diet: the portal holds no marks for it, and the marks are left empty.',
      });
    }
    if (blind) {
      blocks.push({
        kind: 'notice',
        text: `The marks of ${blind} script${blind === 1 ? '' : 's'} are still blind: marker one and marker two have not both submitted their sheet, and until both have, no one may compare their marks. They are left empty.`,
      });
    }
    if (unsheeted && sheets.length) {
      blocks.push({
        kind: 'notice',
        text: `${unsheeted} candidate${unsheeted === 1 ? ' is' : 's are'} on no score sheet of this paper: their marks are left empty.`,
      });
    }
    if (!rows.length) {
      blocks.push({
        kind: 'notice',
        text: 'No candidate is registered for this diet in this course header.',
      });
    }
    blocks.push({ kind: 'table', columns, rows });
    blocks.push({ kind: 'signatures', labels: ['Marker one', 'Marker two', 'Third marker', 'Zonal leader'] });
    return {
      heading: headingOf(scope),
      blocks,
      facts: { Candidates: String(rows.length), Layout: filled ? 'Filled' : 'Blank' },
    };
  },
};
