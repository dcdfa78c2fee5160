/**
 * Course headers as the board manages them (spec sections 3 and 4: a row has indexing_status and
 * registration_status, each updated in the list). The special rules of A4, A5 and B5 are the candidate
 * form's and stay in candidates.ts (courseHeaderRules); the validators are in courses.validators.ts.
 */

/** Both statuses take these values (docs/decisions.md: the spec shows none). */
export const COURSE_STATUSES = ['open', 'closed'] as const;
export type CourseStatus = (typeof COURSE_STATUSES)[number];

/** The two statuses of a row, each changed on its own. */
export const COURSE_STATUS_FIELDS = ['indexing_status', 'registration_status'] as const;
export type CourseStatusField = (typeof COURSE_STATUS_FIELDS)[number];

export const COURSE_STATUS_LABELS: Record<CourseStatusField, string> = {
  indexing_status: 'Indexing',
  registration_status: 'Registration',
};

/** A code is one capital letter and one or two digits (A1, B5, C12), as the board numbers its courses. */
export const COURSE_CODE_PATTERN = /^[A-Z][0-9]{1,2}$/;
export const COURSE_TITLE_MAX = 200;
/** The longest search text the list takes. */
export const COURSE_SEARCH_MAX = 100;

export interface CourseHeaderRow {
  id: number;
  code: string;
  title: string;
  indexing_status: CourseStatus;
  registration_status: CourseStatus;
  /**
   * Candidates indexed under this course header now; while there are any, the page shows the code as
   * fixed. The server also refuses a new code while any index number carries the old one (a candidate
   * since moved to another course header), and says so beside the field: counting that for every row
   * of the list would scan the index numbers once a row.
   */
  indexed_candidates: number;
}

export const COURSE_PATHS = {
  /** GET `?search=&page=&per_page=`: a Page<CourseHeaderRow> ordered by code. POST `{ code, title }`: create. */
  list: '/api/admin/course-headers',
  /** POST `{ code, title }`: edit. */
  one: (id: number) => `/api/admin/course-headers/${id}`,
  /** POST `{ indexing_status }` or `{ registration_status }`. */
  status: (id: number, field: CourseStatusField) =>
    `/api/admin/course-headers/${id}/${field === 'indexing_status' ? 'indexing-status' : 'registration-status'}`,
} as const;

export const COURSE_MESSAGES = {
  codeRequired: 'Code is required',
  codeInvalid: 'The code is one capital letter and one or two digits, like A1 or B5',
  codeTaken: 'There is already a course header with this code',
  /** Editing the code of a course header that candidates are indexed under. */
  codeLocked: 'The code cannot be changed: candidates are indexed under it, and their index numbers carry it',
  titleRequired: 'Title is required',
  tooLong: 'This is too long',
  statusInvalid: 'Choose open or closed',
  notFound: 'There is no such course header.',
  created: 'Course header created.',
  updated: 'Course header updated.',
} as const;

/** What the list's status change says, in the user's words. */
export function statusChangedMessage(code: string, field: CourseStatusField, value: CourseStatus): string {
  return `${COURSE_STATUS_LABELS[field]} is now ${value} for ${code}.`;
}
