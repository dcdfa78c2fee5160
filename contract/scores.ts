/**
 * Score entry and results (spec: Score Entry at /score for admin; exam score sets of three kinds, score
 * marker one, score marker two and in-course; the first two hold q1 to q5 and total_score, in-course
 * rows first_semester_score, second_semester_score, third_semester_score and total_score). What the spec
 * does not show is in docs/decisions.md "Scores and results": papers, sheets, double marking with a
 * third marker, the rules that settle a script, results, holds and publication.
 *
 * Marks travel as the decimal text a marker types ('12.5') and are stored as integers in tenths (125),
 * so half marks are exact and no float ever holds a mark. The rules below run in the browser (as a
 * marker types) and on the server (which decides).
 */

import { DIET_MESSAGES } from './diets';
import type { PaperRules, ResultRules } from './resultRule';

export const QUESTIONS = ['q1', 'q2', 'q3', 'q4', 'q5'] as const;
export const SEMESTERS = ['first_semester_score', 'second_semester_score', 'third_semester_score'] as const;

/** The grids of a sheet: the spec's three score sets, and the third marker's for flagged scripts. */
export const GRIDS = ['one', 'two', 'three', 'in-course'] as const;
export type Grid = (typeof GRIDS)[number];
export const GRID_LABELS: Record<Grid, string> = {
  one: 'Score marker one',
  two: 'Score marker two',
  three: 'Third marker',
  'in-course': 'In-course',
};
/** The stored marker number of each grid (in-course scores have their own table). */
export const MARKER_OF: Record<Exclude<Grid, 'in-course'>, 1 | 2 | 3> = { one: 1, two: 2, three: 3 };

/** A sheet is an exam paper's (double marked) or the in-course scores of a course header. */
export const SHEET_KINDS = ['exam', 'in_course'] as const;
export type SheetKind = (typeof SHEET_KINDS)[number];

/**
 * A sheet's life (machines/scoreSheet.machine.ts): open; one marker submitted (either may finish
 * first); reconciling (both submitted: flagged scripts go to the third marker); locked (nothing
 * changes); published (its diet and course header's results are out). An in-course sheet goes from
 * open to locked.
 */
export type SheetState =
  'open' | 'marker_one_submitted' | 'marker_two_submitted' | 'reconciling' | 'locked' | 'published';
export const SHEET_STATE_LABELS: Record<SheetState, string> = {
  open: 'Open',
  marker_one_submitted: 'Marker one submitted',
  marker_two_submitted: 'Marker two submitted',
  reconciling: 'Reconciling',
  locked: 'Locked',
  published: 'Published',
};

/** Rows of a grid page: a plain table of labelled inputs stays quick up to here (docs/performance.md). */
export const GRID_PAGE_SIZE = 500;
export const PAPER_NAME_MAX = 60;
export const REASON_MAX = 500;
/** The largest a question may be worth, and a semester score is out of 100. */
export const QUESTION_MAX_LIMIT = 100;
const SEMESTER_MAX = 100;

// ---------------------------------------------------------------------------------------------------
// Marks as typed, in tenths.

/** '12', '12.5', '.5', '12.' are marks; anything else (signs, commas, two decimals, exponents) is not. */
const MARK_TEXT = /^(?:\d{1,3}(?:\.\d?)?|\.\d)$/;

/** Tenths from what was typed ('12.5' → 125); null for empty; undefined for text that is not a mark. */
export function parseMark(text: string): number | null | undefined {
  const typed = text.trim();
  if (typed === '') return null;
  if (!MARK_TEXT.test(typed)) return undefined;
  const [whole, fraction = ''] = typed.split('.');
  return Number(whole || '0') * 10 + Number(fraction || '0');
}

/** '12.5' from 125, '12' from 120; '' for no mark. */
export const formatMark = (tenths: number | null): string =>
  tenths === null ? '' : tenths % 10 === 0 ? String(tenths / 10) : (tenths / 10).toFixed(1);

/** The question's check as it is typed: the sentence a marker sees beside the cell, or null. */
export function markProblem(text: string, maxTenths: number): string | null {
  const tenths = parseMark(text);
  if (tenths === undefined) return SCORE_MESSAGES.markInvalid;
  if (tenths !== null && tenths > maxTenths) return SCORE_MESSAGES.markTooHigh(formatMark(maxTenths));
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Double marking and results: the documented rules (docs/decisions.md "Scores and results"), written
// once as data in contract/resultRule.ts, evaluated there and compiled to SQL by the server.

export {
  agreement,
  finalMark,
  gradeOf,
  thirdMarkerDecides,
  totalOf,
  type Agreement,
  type GradeBand,
  type PaperRules,
  type ResultRules,
  type ScriptMarks,
} from './resultRule';

type ThirdMarkerSheet = { kind: SheetKind; state: SheetState; flagged: number };

/** The sentence why no third marker is named on this sheet now (null: one may be), the rule's first half. */
export function thirdMarkerNotNow(sheet: ThirdMarkerSheet): string | null {
  if (sheet.kind !== 'exam') return SCORE_MESSAGES.markerThreeExamOnly;
  if (sheet.state === 'locked' || sheet.state === 'published') return SCORE_MESSAGES.sheetLocked;
  if (sheet.state !== 'reconciling' || sheet.flagged <= 0) return SCORE_MESSAGES.markerThreeNotYet;
  return null;
}

/**
 * Who may be a sheet's third marker, and when: the one rule (the server refuses by it; the sheets
 * list offers its picker by it). A third marker is named only for an exam sheet that is reconciling
 * (both markers have submitted) with at least one script waiting for a third mark (`flagged` > 0);
 * before that nothing is known to send them, and after the lock nothing changes. The person is an
 * active board administrator who is neither marker one nor marker two. Returns null when the
 * naming stands, or the status and sentence of the refusal: 409 for the sheet's state, 422 for the
 * person (beside the `marker_three` field).
 */
export function thirdMarkerRefusal(
  sheet: ThirdMarkerSheet & { marker_one_id: number | null; marker_two_id: number | null },
  person: { id: number; board_admin: boolean },
): { status: 409 | 422; message: string } | null {
  const notNow = thirdMarkerNotNow(sheet);
  if (notNow) return { status: 409, message: notNow };
  if (!person.board_admin) return { status: 422, message: SCORE_MESSAGES.markerUnknown };
  if (person.id === sheet.marker_one_id || person.id === sheet.marker_two_id)
    return { status: 422, message: SCORE_MESSAGES.markerThreeSame };
  return null;
}

/** The in-course total: the mean of the semester scores entered (each out of 100), a half tenth up. */
export function inCourseTotal(scores: (number | null)[]): number | null {
  const entered = scores.filter((s): s is number => s !== null);
  if (!entered.length) return null;
  return Math.ceil(entered.reduce((a, b) => a + b, 0) / entered.length);
}

// ---------------------------------------------------------------------------------------------------
// Results.

export const DEFAULT_RESULT_RULES: ResultRules = {
  in_course_weight: 30,
  pass_mark: 50,
  grade_bands: [
    { grade: 'A', min: 70 },
    { grade: 'B', min: 60 },
    { grade: 'C', min: 50 },
    { grade: 'F', min: 0 },
  ],
};

/**
 * What a candidate's result is: passed or failed on the final mark; absent from a paper; incomplete
 * (a mark is missing); held by the board with a reason; withheld (an exam sanction for the diet, or an
 * offence recorded at it).
 */
export const RESULT_OUTCOMES = ['pass', 'fail', 'absent', 'incomplete', 'held', 'withheld'] as const;
export type ResultOutcome = (typeof RESULT_OUTCOMES)[number];
export const RESULT_OUTCOME_LABELS: Record<ResultOutcome, string> = {
  pass: 'Pass',
  fail: 'Fail',
  absent: 'Absent',
  incomplete: 'Incomplete',
  held: 'Held',
  withheld: 'Withheld',
};

// ---------------------------------------------------------------------------------------------------
// What travels.

export interface PaperRow {
  id: number;
  course_header: { id: number; code: string };
  name: string;
  /** Each question's maximum as text ('20', '12.5'; '0': no such question). */
  q_max: string[];
  tolerance_question: string;
  tolerance_total: string;
  sheets: number;
}

export interface CourseScoring {
  course_header: { id: number; code: string; title: string };
  papers: PaperRow[];
  rules: ResultRules;
}

export interface UserRef {
  id: number;
  name: string;
}

export interface SheetRow {
  id: number;
  kind: SheetKind;
  state: SheetState;
  diet: { id: number; code: string };
  course_header: { id: number; code: string };
  paper: { id: number; name: string } | null;
  school: { id: number; code: string } | null;
  marker_one: UserRef | null;
  marker_two: UserRef | null;
  marker_three: UserRef | null;
  candidates: number;
  /** Scripts out of tolerance still waiting for the third marker (known once both have submitted). */
  flagged: number;
  version: number;
}

/** One candidate's row in a marker's grid: their marks as text, and the row's version. */
export interface MarkRow {
  candidate_id: number;
  candidate_index: string | null;
  name: string;
  school_code: string;
  q1: string;
  q2: string;
  q3: string;
  q4: string;
  q5: string;
  absent: boolean;
  total_score: string;
  /** 0: nothing saved yet. */
  version: number;
}

export interface InCourseRow {
  candidate_id: number;
  candidate_index: string | null;
  name: string;
  school_code: string;
  first_semester_score: string;
  second_semester_score: string;
  third_semester_score: string;
  total_score: string;
  version: number;
}

export interface GridPage<R> {
  sheet: SheetRow;
  grid: Grid;
  /** The paper's maxima (tenths) the cells are checked against. */
  rules: PaperRules | null;
  /** Whether the caller may change marks here now, and whether a change needs a reason. */
  editable: boolean;
  reason_required: boolean;
  rows: R[];
  page: number;
  pages: number;
  total: number;
}

/** A flagged (or settled) script beside both marks: the reconciliation view. */
export interface ReconciliationRow {
  candidate_id: number;
  candidate_index: string | null;
  name: string;
  one: { marks: string[]; absent: boolean; total_score: string };
  two: { marks: string[]; absent: boolean; total_score: string };
  three: { marks: string[]; absent: boolean; total_score: string } | null;
  why: 'question' | 'total' | 'absence';
  /** The decided mark once the third marker has marked ('' until then; 'Absent'). */
  final: string;
}

export interface ResultRow {
  id: number;
  diet: { id: number; code: string };
  course_header: { id: number; code: string };
  candidate_id: number;
  candidate_index: string | null;
  name: string;
  school_code: string;
  exam_mark: string;
  in_course_mark: string;
  final_mark: string;
  grade: string;
  outcome: ResultOutcome;
  /** Why a result is held or withheld. */
  note: string | null;
  /** The board's open hold on it, to release from the row (null in a school's list). */
  hold_id: number | null;
  /** Whether the schools read a publication of this result now. */
  published: boolean;
  /** The board's list: the row the schools read now, when it differs from this computed one (else null). */
  published_as: ShownResult | null;
}

/** A marks CSV checked (a dry run) or imported: each row's problems by field, and the counts. */
export interface ImportReport {
  rows: { row: number; candidate_index: string; problems: Record<string, string> }[];
  good: number;
  bad: number;
  saved: number;
}

/** The most a marks CSV may weigh: a sheet of a few thousand rows is far smaller. */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;

/** An open hold on a candidate's result for a diet. */
export interface HoldRow {
  id: number;
  diet: string;
  candidate_index: string | null;
  name: string;
  reason: string;
  created_at: string;
}

export interface Publication {
  diet: { id: number; code: string };
  course_header: { id: number; code: string };
  sheets: number;
  locked: number;
  /** When the results the schools read now were published (null: none are shown). */
  published_at: string | null;
  /** The last publication's withdrawal, and its reason (null while published, or never published). */
  withdrawn_at: string | null;
  withdraw_reason: string | null;
  /** Results computed now (the board's working copy). */
  results: number;
  /** Rows of the publication the schools read now (0: nothing published). */
  published_results: number;
}

/** A candidate's result as a publication shows it, or as publishing now would. */
export interface ShownResult {
  exam_mark: string;
  in_course_mark: string;
  final_mark: string;
  grade: string;
  outcome: ResultOutcome;
}

/** One candidate whose published result would change: added (no before), removed (no after) or changed. */
export interface ResultChange {
  candidate_id: number;
  candidate_index: string | null;
  name: string;
  school_code: string;
  before: ShownResult | null;
  after: ShownResult | null;
}

/**
 * What compute, publish and withdraw would do to a diet and course header, asked before each: the
 * candidates and schools whose results publishing shows, why it cannot be published yet (null: it
 * can), what the schools read now, and what publishing again changes against the last publication.
 */
export interface PublicationPreview {
  diet: { id: number; code: string };
  course_header: { id: number; code: string };
  candidates: number;
  schools: number;
  /** The refusal's sentence when something is missing (papers, sheets, locks, in-course scores). */
  missing: string | null;
  published_at: string | null;
  withdrawn_at: string | null;
  /** Rows of the last publication (live or withdrawn), and the schools they are for. */
  published_results: number;
  published_schools: number;
  /** Against the last publication (live or withdrawn); null: never published. */
  changes: {
    added: ResultChange[];
    removed: ResultChange[];
    changed: ResultChange[];
    /** How many of each (the lists stop at 200). */
    counts: { added: number; removed: number; changed: number };
  } | null;
}

/** The sentences each step's question says (the numbers are the server's preview). */
export const PUBLICATION_QUESTIONS = {
  compute: (p: PublicationPreview) =>
    `The results of ${p.candidates} ${p.candidates === 1 ? 'candidate' : 'candidates'} of ${p.course_header.code} at ${p.diet.code} will be computed again from the marks as they are now. What the schools read does not change.`,
  publish: (p: PublicationPreview) =>
    `Results of ${p.candidates} ${p.candidates === 1 ? 'candidate' : 'candidates'} will be shown to ${p.schools} ${p.schools === 1 ? 'school' : 'schools'}. They stay as published until the board withdraws them.`,
  withdraw: (p: PublicationPreview) =>
    `The results of ${p.published_results} ${p.published_results === 1 ? 'candidate' : 'candidates'} will no longer be shown to ${p.published_schools} ${p.published_schools === 1 ? 'school' : 'schools'}.`,
} as const;

export const SCORE_MESSAGES = {
  markInvalid: 'Type a mark such as 12 or 12.5.',
  markTooHigh: (max: string) => `At most ${max} for this question.`,
  semesterTooHigh: `At most ${SEMESTER_MAX}.`,
  markMissing: 'Every question needs a mark, or tick Absent.',
  sheetNotFound: 'There is no such score sheet.',
  paperNotFound: 'There is no such paper.',
  courseHeaderNotFound: 'There is no such course header.',
  candidateNotOnSheet: 'This candidate is not on this sheet.',
  paperNameRequired: 'Name the paper.',
  paperNameTaken: 'This course header already has a paper of that name.',
  questionMaxInvalid: `Give each question's maximum, from 0 to ${QUESTION_MAX_LIMIT}.`,
  paperHasNoQuestions: 'At least one question must be worth something.',
  toleranceInvalid: 'Give the tolerance as a mark such as 2 or 2.5.',
  paperInUse: 'Score sheets use this paper: its questions can no longer change.',
  paperDeleted: 'Paper deleted',
  paperSaved: 'Paper saved',
  rulesSaved: 'Result rules saved',
  weightInvalid: 'Give a whole percent from 0 to 100.',
  passMarkInvalid: 'Give a whole percent from 0 to 100.',
  bandsInvalid: 'Give each grade a letter and its lowest mark, highest first, the last starting at 0.',
  dietUnknown: DIET_MESSAGES.dietUnknown,
  schoolUnknown: 'There is no such training school.',
  paperRequired: 'Choose the paper.',
  paperWrongCourse: 'This paper is not one of this course header’s.',
  markersRequired: 'Choose marker one and marker two.',
  markerUnknown: 'Choose a board administrator.',
  markersSame: 'Marker one and marker two must be different people.',
  markerThreeSame: 'The third marker must be neither marker one nor marker two.',
  markerThreeNotYet:
    'A third marker is named once both markers have submitted and a script is out of tolerance.',
  markerThreeExamOnly: 'Only an exam paper’s sheet has a third marker.',
  sheetExists: 'This sheet already exists.',
  sheetCreated: 'Score sheet created',
  notYourGrid: 'Only this grid’s marker enters its marks.',
  blind: 'Marker two’s and marker one’s marks are shown once both have submitted.',
  thirdGridBlind: 'The third marker’s grid opens once both markers have submitted.',
  gridClosed: 'This grid’s marks cannot change now.',
  sheetLocked: 'This sheet is locked: its marks cannot change.',
  notFlagged: 'Only scripts flagged for a third marker take a third mark.',
  reasonRequired: 'Say why this mark changes after submission.',
  reasonTooLong: `At most ${REASON_MAX} characters.`,
  staleRow: 'These marks were changed elsewhere since you loaded them. Both are shown: keep one.',
  rowSaved: 'Saved',
  unsavedFirst: 'Some marks are still being saved. Wait a moment, then submit.',
  submitIncomplete: (missing: number) =>
    `${missing} ${missing === 1 ? 'candidate has' : 'candidates have'} no marks yet: mark each, or tick Absent.`,
  alreadySubmitted: 'This grid has been submitted already.',
  submitted: 'Marks submitted',
  lockNotReady:
    'Both markers must submit, and every flagged script needs its third mark, before the sheet locks.',
  inCourseLockNotReady: (missing: number) =>
    `${missing} ${missing === 1 ? 'candidate has' : 'candidates have'} no in-course scores yet.`,
  locked: 'Sheet locked',
  unlocked: 'Sheet unlocked',
  notLocked: 'Only a locked sheet can be unlocked.',
  publishedSheet: 'Withdraw the results before unlocking this sheet.',
  markerThreeSet: 'Third marker set',
  publishNotReady:
    'Every score sheet of this diet and course header must be locked before its results are published.',
  noSheets: 'This diet and course header has no score sheets.',
  published: 'Results published',
  alreadyPublished: 'These results are published already: withdraw them first to publish them again.',
  publishIncomplete: (course: string, missing: string[]) =>
    `${course} cannot be published yet: ${missing.join('; ')}.`,
  noPapers: 'the course header has no papers',
  noCandidates: 'no candidate is registered for it at this diet',
  paperNoSheet: (paper: string, count: number, school: string | null) =>
    `${paper} has no sheet for ${count} ${count === 1 ? 'candidate' : 'candidates'}${school ? ` at ${school}` : ''}`,
  paperNotLocked: (paper: string, count: number, school: string | null) =>
    `${paper} is not locked for ${count} ${count === 1 ? 'candidate' : 'candidates'}${school ? ` at ${school}` : ''}`,
  inCourseMissing: (count: number) =>
    `in-course scores are missing for ${count} ${count === 1 ? 'candidate' : 'candidates'}`,
  withdrawReasonRequired: 'Say why the results are withdrawn.',
  sheetOverlaps: (sheet: string) =>
    `${sheet} already covers these candidates: a candidate's paper is marked on one sheet only.`,
  notPublished: 'These results are not published.',
  withdrawn: 'Results withdrawn',
  computed: 'Results computed',
  holdCreated: 'Result held',
  holdReleased: 'Hold released',
  holdNotFound: 'There is no such hold.',
  holdExists: 'This candidate’s result for this diet is held already.',
  candidateUnknown: 'There is no candidate with this index number.',
  holdReasonRequired: 'Say why the result is held.',
  importEmpty: 'The file has no rows.',
  importNotCsv: 'Choose a CSV file (.csv).',
  importTooLarge: 'The file is too large: at most 2 MB.',
  importChecked: (good: number, bad: number) =>
    `${good} ${good === 1 ? 'row is' : 'rows are'} ready; ${bad} ${bad === 1 ? 'row has' : 'rows have'} problems.`,
  imported: (saved: number) => `${saved} ${saved === 1 ? 'row' : 'rows'} saved`,
  importUnknownCandidate: 'No candidate with this index number is on this sheet.',
  importDuplicate: 'This candidate is on an earlier row too.',
  tooLong: 'This is too long.',
  choose: 'Choose one of the listed values.',
} as const;
