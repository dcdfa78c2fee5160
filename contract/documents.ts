import { PRINT_DOCUMENT_TITLES, type PrintDocumentEnding } from './navigation';

/**
 * The printable documents (spec section 2's 22 endings under /print-document/): one registry the
 * server's builders, the Print Documents page, the print pages, the PDFs and docs/documents.md read.
 * A document is built once on the server as a `PrintedDocument` (below) and drawn twice from it: as an
 * HTML page the browser prints on A4, and as a PDF the server streams. Neither drawing computes
 * anything; what a paper says is decided once, in its builder (server/documents/builders/).
 */

/** Whose name is at the head of every paper (kept with the constants, which the receipt also reads). */
export { BOARD_NAME } from './constants';

/**
 * What a document is chosen by, as its query string names them: a diet, school and course header by
 * their codes, a paper by its id, a candidate by index number. A school admin's `school` is always their
 * own (the server sets it).
 */
export const DOCUMENT_PARAMS = ['diet', 'school', 'course_header', 'paper', 'candidate', 'variant'] as const;
export type DocumentParam = (typeof DOCUMENT_PARAMS)[number];

export const DOCUMENT_PARAM_LABELS: Record<DocumentParam, string> = {
  diet: 'Diet',
  school: 'Training school',
  course_header: 'Course header',
  paper: 'Paper',
  candidate: 'Candidate',
  variant: 'Layout',
};

export const DOCUMENT_GROUPS = ['Candidate lists', 'Cards and records', 'Mark sheets', 'Statistics'] as const;
type DocumentGroup = (typeof DOCUMENT_GROUPS)[number];

/** A document's layouts, when it has more than one (the first is the default). */
interface DocumentVariant {
  value: string;
  label: string;
}

const TABLE_OR_ALBUM: readonly DocumentVariant[] = [
  { value: 'table', label: 'Table' },
  { value: 'album', label: 'Photo album (for the hall)' },
];
const BLANK_OR_FILLED: readonly DocumentVariant[] = [
  { value: 'blank', label: 'Blank, for the examiners' },
  { value: 'filled', label: 'Filled from the score sheets' },
];

export interface DocumentDefinition {
  ending: PrintDocumentEnding;
  title: string;
  group: DocumentGroup;
  /** What the paper is for, in a line (the chooser shows it; docs/documents.md says more). */
  purpose: string;
  /** Its parameters: required ones must be chosen before it can be printed. */
  params: Partial<Record<Exclude<DocumentParam, 'variant'>, 'required' | 'optional'>>;
  variants?: readonly DocumentVariant[];
  /** Whether school admins may print it (for their own school) unless the board says otherwise. */
  schools: boolean;
  /** It names candidates: printing it is audited. */
  personal: boolean;
}

const define = (
  ending: PrintDocumentEnding,
  rest: Omit<DocumentDefinition, 'ending' | 'title'>,
): DocumentDefinition => ({ ending, title: PRINT_DOCUMENT_TITLES[ending], ...rest });

const LIST = { group: 'Candidate lists', schools: true, personal: true } as const;
const SHEET = { group: 'Mark sheets', schools: false, personal: true } as const;
const STATS = { group: 'Statistics', personal: false } as const;

export const DOCUMENTS: Record<PrintDocumentEnding, DocumentDefinition> = {
  doc: define('doc', {
    group: 'Cards and records',
    purpose:
      "Each candidate's uploaded documents, whether the course header needs them, and the board's check",
    params: { school: 'required', course_header: 'optional' },
    schools: true,
    personal: true,
  }),
  'indexed-candidate-list': define('indexed-candidate-list', {
    ...LIST,
    purpose: 'Every candidate indexed by a school, by course header',
    params: { school: 'optional', course_header: 'optional' },
    variants: TABLE_OR_ALBUM,
  }),
  'verified-candidate-list': define('verified-candidate-list', {
    ...LIST,
    purpose: 'Indexed candidates whose documents the board has checked',
    params: { school: 'optional', course_header: 'optional' },
    variants: TABLE_OR_ALBUM,
  }),
  'unverified-candidate-list': define('unverified-candidate-list', {
    ...LIST,
    purpose: 'Indexed candidates whose documents are still to be checked',
    params: { school: 'optional', course_header: 'optional' },
    variants: TABLE_OR_ALBUM,
  }),
  'fresh-candidate-list': define('fresh-candidate-list', {
    ...LIST,
    purpose: 'Candidates registered for a diet who sit it for the first time',
    params: { diet: 'required', school: 'optional', course_header: 'optional' },
    variants: TABLE_OR_ALBUM,
  }),
  'resit-candidate-list': define('resit-candidate-list', {
    ...LIST,
    purpose: 'Candidates entered to resit papers at a diet, with the papers',
    params: { diet: 'required', school: 'optional', course_header: 'optional' },
    variants: TABLE_OR_ALBUM,
  }),
  'candidate-list': define('candidate-list', {
    ...LIST,
    purpose: 'Everyone sitting a diet (fresh and resit), for the examination hall',
    params: { diet: 'required', school: 'optional', course_header: 'optional' },
    variants: TABLE_OR_ALBUM,
  }),
  photocard: define('photocard', {
    group: 'Cards and records',
    purpose: "The card a candidate shows at every paper: photo, index number, papers, and the board's code",
    params: { diet: 'required', school: 'optional', course_header: 'optional', candidate: 'optional' },
    schools: true,
    personal: true,
  }),
  'candidate-info': define('candidate-info', {
    group: 'Cards and records',
    purpose: "A candidate's whole history: registration, payments, offences and results per diet",
    params: { candidate: 'required' },
    schools: true,
    personal: true,
  }),
  'candidate-index-form': define('candidate-index-form', {
    group: 'Cards and records',
    purpose: 'The candidate index form as the board holds it, for the candidate to check and sign',
    params: { candidate: 'required' },
    schools: true,
    personal: true,
  }),
  'practical-marksheet': define('practical-marksheet', {
    ...SHEET,
    purpose: "The practical examiners' sheet for a school's candidates of a course header",
    params: { diet: 'required', school: 'required', course_header: 'required' },
  }),
  'oral-marksheet': define('oral-marksheet', {
    ...SHEET,
    purpose: "The oral examiners' sheet for a school's candidates of a course header",
    params: { diet: 'required', school: 'required', course_header: 'required' },
  }),
  'zonal-leaders-marksheet': define('zonal-leaders-marksheet', {
    ...SHEET,
    purpose:
      "The zonal leader's check of a paper: both markers' totals, their difference and the third marker",
    params: { diet: 'required', course_header: 'required', paper: 'required', school: 'optional' },
    variants: BLANK_OR_FILLED,
  }),
  'research-project': define('research-project', {
    ...SHEET,
    purpose: "The research project examiners' sheet, by criterion",
    params: { diet: 'required', school: 'required', course_header: 'required' },
  }),
  'research-project-aa2': define('research-project-aa2', {
    ...SHEET,
    purpose: "The research project sheet of course header AA2's candidates, by criterion",
    params: { diet: 'required', school: 'required' },
  }),
  'project-study': define('project-study', {
    ...SHEET,
    purpose: "The project study examiners' sheet, by criterion",
    params: { diet: 'required', school: 'required', course_header: 'required' },
  }),
  'fail-pass-stats': define('fail-pass-stats', {
    ...STATS,
    purpose: 'Passes and failures of a published diet, by course header and by school',
    params: { diet: 'required', school: 'optional', course_header: 'optional' },
    schools: true,
  }),
  'result-analysis': define('result-analysis', {
    ...STATS,
    purpose:
      'Per question: mean, facility and discrimination; per marker pair: how often and by how much they differed',
    params: { diet: 'required', course_header: 'required', paper: 'optional' },
    schools: false,
  }),
  'course-reg-stats': define('course-reg-stats', {
    ...STATS,
    purpose: 'Registrations for a diet, by course header and status',
    params: { diet: 'required' },
    schools: false,
  }),
  'course-index-stats': define('course-index-stats', {
    ...STATS,
    purpose: 'Candidates indexed, verified and not, by course header and year',
    params: {},
    schools: false,
  }),
  'school-performance': define('school-performance', {
    ...STATS,
    purpose: "One school's results at a diet against the board's, by course header and paper",
    params: { diet: 'required', school: 'required' },
    schools: true,
  }),
  'all-schools-exam-perf': define('all-schools-exam-perf', {
    ...STATS,
    purpose: 'Every school ranked by pass rate at a diet',
    params: { diet: 'required' },
    schools: false,
  }),
};

/** What Print Documents offers a caller: the documents they may print, and what to choose them by. */
export interface DocumentChoice extends DocumentDefinition {
  /** The board's current choice for training schools (the default is `schools`). */
  schoolsMayPrint: boolean;
}
export interface DocumentOptions {
  diets: { code: string; name: string; current: boolean }[];
  /** A school admin's own school only. */
  schools: { code: string; name: string }[];
  courseHeaders: { code: string; name: string }[];
  papers: { id: number; courseHeader: string; name: string }[];
}
export interface DocumentCatalogue {
  documents: DocumentChoice[];
  options: DocumentOptions;
}

/**
 * Up to this many rows or cards a PDF is streamed as the caller waits (5,000 photocards in under 10 s);
 * a larger one is built by a job on the queue, with its progress shown and a download that can resume.
 */
export const DOCUMENT_INLINE_LIMIT = 5000;

/**
 * How long a finished job's download link lives (server/documents/downloads.ts): long enough for a
 * phone on a slow link to fetch tens of MB and resume it after a break; the page asks for a fresh one
 * while it stays open (machines/documentJob.machine.ts).
 */
export const DOCUMENT_DOWNLOAD_MINUTES = 120;

export const DOCUMENT_JOB_STATES = ['queued', 'building', 'ready', 'failed'] as const;
type DocumentJobState = (typeof DOCUMENT_JOB_STATES)[number];

/** A large PDF being built on the queue. */
export interface DocumentJob {
  id: number;
  ending: PrintDocumentEnding;
  title: string;
  state: DocumentJobState;
  done: number;
  total: number;
  /** The PDF's size once ready. */
  bytes: number | null;
  createdAt: string;
  /** Why it failed, in words. */
  message: string | null;
  /**
   * Once ready, a link to its PDF for this caller that the browser downloads by itself (and resumes),
   * without the bearer token: signed, for this job and caller only, until `expiresAt`.
   */
  download: { url: string; expiresAt: string } | null;
}

/* ------------------------------------------------------------------------------------------------ */
/* The document as built: what both drawings (HTML and PDF) read.                                  */
/* ------------------------------------------------------------------------------------------------ */

/**
 * A printed document's code, its address, and its QR code as a path: `qr` is an SVG path of the dark
 * modules in a `size`×`size` box (the server makes it; the browser draws it without a QR library).
 */
export interface Verification {
  code: string;
  url: string;
  qr: string;
  size: number;
}

/** A table's column. `blank` columns are boxes left empty for an examiner's hand. */
export interface DocumentColumn {
  label: string;
  align?: 'left' | 'right' | 'center';
  /** Relative width (1 by default). */
  width?: number;
  blank?: boolean;
  /**
   * Its cells are photos (`{ photo }`: an album's): the PDF gives its rows a photo's height, decided
   * before the first row is read (server/documents/pdfLayout.ts), so it must be said here.
   */
  photo?: boolean;
}

/** A cell: text, or a photo (the stored small JPEG's file key; null: no photo held). */
export type DocumentCell = string | { photo: string | null };

export interface Photocard {
  /** The small JPEG's file key, or null when the candidate has no photo. */
  photo: string | null;
  /** SURNAME, in capitals, first. */
  surname: string;
  otherNames: string;
  candidateIndex: string;
  sex: string;
  dateOfBirth: string;
  courseHeader: string;
  school: string;
  papers: string[];
  diet: string;
  verification: Verification;
}

/**
 * What a document is made of, top to bottom. `table` rows never split across pages and its header
 * repeats on each; `chart` is a bar chart whose bars both drawings place from `value / max`; `notice`
 * says plainly what the portal does not hold.
 */
export type DocumentBlock =
  | {
      kind: 'table';
      title?: string;
      columns: DocumentColumn[];
      rows: DocumentCell[][];
      /** A last row in bold: totals, means. */
      totals?: string[];
    }
  | { kind: 'fields'; title: string; fields: { label: string; value: string }[] }
  | {
      kind: 'chart';
      title: string;
      /** What a bar measures ('% passed', 'candidates'); `max` is the axis' end. */
      unit: string;
      max: number;
      bars: { label: string; value: number }[];
    }
  | { kind: 'cards'; cards: Photocard[] }
  | { kind: 'notice'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'signatures'; labels: string[] };

/** One line of a paper's head: 'Diet' 'MAY2026 (May 2026)', 'Training school' 'SHT-IB …'. */
export interface DocumentHeading {
  label: string;
  value: string;
}

export interface PrintedDocument {
  ending: PrintDocumentEnding;
  title: string;
  board: string;
  heading: DocumentHeading[];
  /** ISO instant, and the printer's name and role (as on the paper). */
  printedAt: string;
  printedBy: string;
  verification: Verification;
  blocks: DocumentBlock[];
}

/** What the public verification page answers. It shows only what the paper itself shows. */
export interface VerifiedDocument {
  status: 'genuine' | 'changed';
  title: string;
  printedAt: string;
  printedBy: string;
  heading: DocumentHeading[];
  /** What the paper certified, as printed: the fields of one card or record, or a list's size. */
  certified: { label: string; value: string }[];
  /** What differs now, in words ('Result: was Pass, now Withdrawn'); empty when genuine. */
  changes: string[];
}

/** The spec's and the pages' sentences for documents and verification. */
/**
 * How a chart's values are written, on screen and on paper alike: one decimal for every bar when any
 * bar has a fraction (so '66.0' stands beside '64.4', not '66'), none when all are whole numbers.
 */
export function chartValueFormat(bars: { value: number }[]): (value: number) => string {
  const digits = bars.some((bar) => !Number.isInteger(bar.value)) ? 1 : 0;
  const format = new Intl.NumberFormat('en-GB', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return (value) => format.format(value);
}

export const DOCUMENT_MESSAGES = {
  unknownDocument: 'There is no such document.',
  notForSchools: 'The board does not let training schools print this document.',
  paramRequired: (label: string) => `Choose the ${label.toLowerCase()} first.`,
  unknownDiet: 'There is no such diet.',
  unknownSchool: 'There is no such training school.',
  unknownCourseHeader: 'There is no such course header.',
  unknownPaper: 'There is no such paper for this course header.',
  unknownCandidate: 'There is no such candidate.',
  unknownVariant: 'There is no such layout for this document.',
  tooManyToShow: (count: number) =>
    `This document holds ${count} rows or cards, too many for one page: download it as a PDF instead.`,
  schoolPrintingChanged: (title: string, allowed: boolean) =>
    allowed ? `Training schools may now print ${title}.` : `Training schools may no longer print ${title}.`,
  tooManyChecks: 'Too many checks from this address. Please wait a minute and try again.',
  tooLargeToStream: (count: number) =>
    `This document holds ${count.toLocaleString('en-GB')} rows or cards, more than the ${DOCUMENT_INLINE_LIMIT.toLocaleString('en-GB')} a PDF is made of while you wait. Build it as a job instead: it is made in the background, and you download it when it is ready.`,
  jobNotFound: 'There is no such PDF job.',
  jobNotReady: 'This PDF is not ready yet: wait until its progress reaches the end.',
  jobFailed: 'The PDF could not be built. Try again, and tell the board if it fails again.',
  downloadInvalid: 'This download link is not valid. Download the PDF again from Print Documents.',
  downloadExpired: 'This download link has expired. Download the PDF again from Print Documents.',
  codeUnknown: 'This code was not issued by the board. Check it against the paper, letter by letter.',
  genuine: 'Genuine: this document was printed by the board’s portal and nothing on it has changed since.',
  changed: 'Printed by the board’s portal, but something on it has changed since it was printed.',
} as const;
