/**
 * Every list of the portal, each from one definition: its path (the spec's or docs/api.md's), who may
 * call it, its search and filters (with the values each takes and the message of a wrong one), the
 * columns it may be sorted by, and the columns of its CSV export. The server turns a definition into
 * the list's GET route (server/lists/), the SPA into a list page over the one list machine
 * (src/pages/pagedList.tsx, `useList`); the query validator is built from it in lists.validators.ts, so the lists'
 * pages load no VineJS.
 */

import {
  CANDIDATE_RULE_MESSAGES as R,
  CANDIDATE_SEARCH_MAX,
  REG_STATUSES,
  type CandidateRow,
} from './candidates';
import { COURSE_MESSAGES, COURSE_PATHS, COURSE_SEARCH_MAX, type CourseHeaderRow } from './courses';
import { DIET_CODE_PATTERN, DIET_MESSAGES, formatPaperDates, type DietRow } from './diets';
import { LISTED_LIMITS, LISTED_MESSAGES, type ListedCandidate } from './listed';
import type { BoardNotification } from './notifications';
import { formatDateTime, formatPersonName } from './format';
import { sanctionTerm, type OffenderRow } from './offenders';
import { RESULT_OUTCOMES, RESULT_OUTCOME_LABELS, SCORE_MESSAGES, type ResultRow } from './scores';
import {
  FEE_BASIS_LABELS,
  FEE_KIND_LABELS,
  FEE_KINDS,
  FEE_STATUSES,
  PAYMENT_ISSUE_KINDS,
  PAYMENT_ISSUE_LABELS,
  PAYMENT_ISSUE_STATES,
  PAID_WHEN,
  PAYMENT_MESSAGES,
  PAYMENT_STATUS_LABELS,
  PAYMENT_STATUSES,
  koboToNaira,
  type FeeRow,
  type PaymentIssueRow,
  type PaymentRow,
} from './payments';
import type { ResitRow } from './resits';
import {
  AUDIT_ACTION_NAMES,
  AUDIT_ENTITIES,
  AUDIT_TRAIL_MESSAGES,
  auditActionLabel,
  auditChanges,
  auditChangesText,
  auditEntityLabel,
  auditPersonText,
  type AuditEntryRow,
} from './auditTrail';
import { DATE_MESSAGES } from './dates';
import type { Role } from './roles';
import { SCHOOL_MESSAGES, SCHOOL_SEARCH_MAX, SCHOOL_STATUSES, type SchoolRow } from './schools';

export type SortDirection = 'asc' | 'desc';

/** A filter's values: one of a fixed set, or text (a code), with the message of a value it refuses. */
export type FilterSpec =
  | { kind: 'choice'; values: readonly string[]; message: string }
  | { kind: 'text'; max: number; pattern?: RegExp; message: string }
  /** A real calendar date, YYYY-MM-DD (the one ISO-date rule, contract/dates.ts). */
  | { kind: 'date'; message: string };

/** A column of the CSV export: its header in the board's words, and its cell from a row. */
export interface CsvColumn<Row> {
  header: string;
  cell: (row: Row) => string | number | null;
}

/** One list, end to end (see the top of this file). `F`: the names of its filters. */
export interface ListDefinition<Row, F extends string = string> {
  /** The CSV's file name, before the date. */
  name: string;
  /** GET: a Page of rows; with `?format=csv`, every matching row as CSV (same query, same scope). */
  path: string;
  /** Who may call it (the access matrix says the same; tests/api/lists.test.ts checks they agree). */
  roles: readonly Role[];
  /** `?search=`: at most `max` characters. Null: the list is not searched. */
  search: { max: number; message: string } | null;
  filters: Record<F, FilterSpec>;
  /** `?sort=<name>&direction=`: each sortable column, and the direction it sorts in unless told. */
  sorts: Record<string, { label: string; direction: SortDirection }>;
  /** The order a list is in unless told; the only one whose pages are walked by keyset cursors. */
  defaultSort: string;
  columns: CsvColumn<Row>[];
  /** Phantom: the row type, for the hook and the server helper to agree on. */
  readonly row?: Row;
}

/** A definition with its row type given and its filter names inferred. */
const defineList =
  <Row>() =>
  <F extends string>(definition: ListDefinition<Row, F>): ListDefinition<Row, F> =>
    definition;

export const LIST_MESSAGES = {
  sortUnknown: 'Choose a column to sort by',
  directionUnknown: 'Choose ascending or descending',
  formatUnknown: 'Choose json or csv',
} as const;

const SORT_LABEL = { asc: 'ascending', desc: 'descending' } as const;
export const sortDirectionLabel = (direction: SortDirection) => SORT_LABEL[direction];

// ---------------------------------------------------------------------------------------------------
// The lists.

const candidateColumns: CsvColumn<CandidateRow>[] = [
  { header: 'Index number', cell: (row) => row.candidate_index },
  { header: 'Surname', cell: (row) => row.last_name },
  { header: 'First name', cell: (row) => row.first_name },
  { header: 'Middle name', cell: (row) => row.middle_name },
  { header: 'School code', cell: (row) => row.school.code },
  { header: 'School', cell: (row) => row.school.name },
  { header: 'Course header', cell: (row) => row.course_header.code },
  { header: 'Course', cell: (row) => row.course_header.title },
  { header: 'Year', cell: (row) => row.year },
  { header: 'Registration', cell: (row) => row.reg_status },
  { header: 'Documents', cell: (row) => (row.verified ? 'verified' : 'unverified') },
  { header: 'Indexed at', cell: (row) => formatDateTime(row.created_at) },
];

const candidateFilters = {
  school: { kind: 'text', max: 100, message: R.tooLong },
  course_header: { kind: 'text', max: 100, message: R.tooLong },
  year: { kind: 'text', max: 4, pattern: /^\d{4}$/, message: R.yearInvalid },
  // Registration is per diet: `reg_status` and the Registration column are for this diet's code
  // (unless given, the diet current for registration).
  diet: { kind: 'text', max: 20, pattern: DIET_CODE_PATTERN, message: DIET_MESSAGES.dietUnknown },
  reg_status: { kind: 'choice', values: REG_STATUSES, message: R.choose },
  verified: { kind: 'choice', values: ['true', 'false'], message: R.choose },
  // The diet's registration fee (per candidate): credited, or charged and not credited (the Fee column).
  registration_fee: { kind: 'choice', values: ['paid', 'unpaid'], message: R.choose },
} as const satisfies Record<string, FilterSpec>;

const candidateSorts = {
  indexed: { label: 'Date indexed', direction: 'desc' },
  name: { label: 'Surname', direction: 'asc' },
  index_number: { label: 'Index number', direction: 'asc' },
} as const;

const candidateList = (name: string, path: string, roles: readonly Role[], withSchool: boolean) =>
  defineList<CandidateRow>()({
    name,
    path,
    roles,
    search: { max: CANDIDATE_SEARCH_MAX, message: R.tooLong },
    // A school admin's list is their school's: it takes no school filter.
    filters: withSchool
      ? candidateFilters
      : (({ school: _school, ...rest }) => rest)(candidateFilters as Record<string, FilterSpec>),
    sorts: candidateSorts,
    defaultSort: 'indexed',
    columns: candidateColumns,
  });

/** The board's candidate search and the Indexed Candidates list. */
export const CANDIDATES_LIST = candidateList('candidates', '/api/admin/candidates', ['admin'], true);

export const REGISTERED_LISTS = {
  admin: candidateList('registered-candidates', '/api/admin/registered-candidates', ['admin'], true),
  school_admin: candidateList(
    'registered-candidates',
    '/api/training-school-admin/registered-candidates',
    ['school_admin'],
    false,
  ),
} as const;

export const SCHOOLS_LIST = defineList<SchoolRow>()({
  name: 'training-schools',
  path: '/api/admin/training-schools',
  roles: ['admin'],
  search: { max: SCHOOL_SEARCH_MAX, message: SCHOOL_MESSAGES.searchTooLong },
  filters: { status: { kind: 'choice', values: SCHOOL_STATUSES, message: SCHOOL_MESSAGES.statusInvalid } },
  sorts: {
    name: { label: 'Name', direction: 'asc' },
    code: { label: 'Code', direction: 'asc' },
    state: { label: 'State', direction: 'asc' },
  },
  defaultSort: 'name',
  columns: [
    { header: 'Code', cell: (row) => row.code },
    { header: 'Name', cell: (row) => row.name },
    { header: 'State', cell: (row) => row.state },
    { header: 'Country', cell: (row) => row.country },
    { header: 'Address', cell: (row) => row.address },
    { header: 'Contact email', cell: (row) => row.contact_email },
    { header: 'Contact phone', cell: (row) => row.contact_phone },
    { header: 'Status', cell: (row) => row.status },
    {
      header: 'School admins',
      cell: (row) =>
        row.admins
          .map((admin) => `${admin.name} <${admin.email}>${admin.active ? '' : ' (deactivated)'}`)
          .join('; '),
    },
  ],
});

export const COURSE_HEADERS_LIST = defineList<CourseHeaderRow>()({
  name: 'course-headers',
  path: COURSE_PATHS.list,
  roles: ['admin'],
  search: { max: COURSE_SEARCH_MAX, message: COURSE_MESSAGES.tooLong },
  filters: {},
  sorts: { code: { label: 'Code', direction: 'asc' }, title: { label: 'Title', direction: 'asc' } },
  defaultSort: 'code',
  columns: [
    { header: 'Code', cell: (row) => row.code },
    { header: 'Title', cell: (row) => row.title },
    { header: 'Indexing', cell: (row) => row.indexing_status },
    { header: 'Registration', cell: (row) => row.registration_status },
    { header: 'Candidates indexed', cell: (row) => row.indexed_candidates },
  ],
});

const listedColumns = <
  Row extends { candidate_index: string; candidate: ListedCandidate },
>(): CsvColumn<Row>[] => [
  { header: 'Index number', cell: (row) => row.candidate_index },
  { header: 'Name', cell: (row) => formatPersonName(row.candidate) },
  { header: 'School code', cell: (row) => row.candidate.school.code },
  { header: 'Course header', cell: (row) => row.candidate.course_header },
];

const listedSearch = { max: LISTED_LIMITS.searchMax, message: LISTED_MESSAGES.tooLong };

export const OFFENDERS_LIST = defineList<OffenderRow>()({
  name: 'exam-offenders',
  path: '/api/admin/exam-offenders',
  roles: ['admin'],
  search: listedSearch,
  filters: {},
  sorts: { recorded: { label: 'Date recorded', direction: 'desc' } },
  defaultSort: 'recorded',
  columns: [
    ...listedColumns<OffenderRow>(),
    { header: 'Diet', cell: (row) => row.diet.name },
    { header: 'Offence', cell: (row) => row.offence },
    { header: 'Sanction', cell: (row) => row.sanction },
    { header: 'Sanction runs', cell: (row) => sanctionTerm(row) },
    { header: 'In force', cell: (row) => (row.active ? 'yes' : 'no') },
    { header: 'Recorded at', cell: (row) => formatDateTime(row.created_at) },
  ],
});

const resitList = (path: string, role: Role) =>
  defineList<ResitRow>()({
    name: 'resit-candidates',
    path,
    roles: [role],
    search: listedSearch,
    filters: {},
    sorts: { added: { label: 'Date added', direction: 'desc' } },
    defaultSort: 'added',
    columns: [
      ...listedColumns<ResitRow>(),
      { header: 'Diet', cell: (row) => row.diet.name },
      { header: 'Papers', cell: (row) => row.papers.join(', ') },
      { header: 'Added at', cell: (row) => formatDateTime(row.created_at) },
    ],
  });

export const RESITS_LISTS = {
  admin: resitList('/api/admin/resit-candidates', 'admin'),
  school_admin: resitList('/api/training-school-admin/resit-candidates', 'school_admin'),
} as const;

/** The board's exam diets, newest paper dates first (a few a year: paged by number). */
export const DIETS_LIST = defineList<DietRow>()({
  name: 'diets',
  path: '/api/admin/diets',
  roles: ['admin'],
  search: { max: 100, message: DIET_MESSAGES.tooLong },
  filters: {},
  sorts: {
    papers: { label: 'Paper dates', direction: 'desc' },
    code: { label: 'Code', direction: 'asc' },
  },
  defaultSort: 'papers',
  columns: [
    { header: 'Code', cell: (row) => row.code },
    { header: 'Name', cell: (row) => row.name },
    { header: 'Papers', cell: (row) => formatPaperDates(row) },
    { header: 'Registration opens', cell: (row) => formatDateTime(row.registration_opens_at) },
    { header: 'Registration closes', cell: (row) => formatDateTime(row.registration_closes_at) },
    { header: 'Current', cell: (row) => (row.current ? 'yes' : 'no') },
    { header: 'Closed at', cell: (row) => (row.closed_at ? formatDateTime(row.closed_at) : null) },
    { header: 'Registered', cell: (row) => row.registered },
    { header: 'Extensions', cell: (row) => row.extensions },
  ],
});

const notificationList = (name: string, path: string) =>
  defineList<BoardNotification>()({
    name,
    path,
    roles: ['admin'],
    search: null,
    filters: {},
    sorts: { received: { label: 'Date received', direction: 'desc' } },
    defaultSort: 'received',
    columns: [
      { header: 'Received at', cell: (row) => formatDateTime(row.created_at) },
      { header: 'Title', cell: (row) => row.title },
      { header: 'Message', cell: (row) => row.body },
      { header: 'School code', cell: (row) => row.school?.code ?? null },
      { header: 'School', cell: (row) => row.school?.name ?? null },
      { header: 'Read at', cell: (row) => (row.read_at ? formatDateTime(row.read_at) : null) },
    ],
  });

export const NOTIFICATION_LISTS = {
  unread: notificationList('unread-notifications', '/api/admin/training-school-notification-unread'),
  read: notificationList('read-notifications', '/api/admin/training-school-notification-read'),
} as const;

// Fees and payments (contract/payments.ts).

/** The board's fees, newest first; by diet, status and kind. */
export const FEES_LIST = defineList<FeeRow>()({
  name: 'fees',
  path: '/api/admin/fees',
  roles: ['admin'],
  search: { max: 100, message: PAYMENT_MESSAGES.tooLong },
  filters: {
    diet: { kind: 'text', max: 20, pattern: DIET_CODE_PATTERN, message: DIET_MESSAGES.dietUnknown },
    status: { kind: 'choice', values: FEE_STATUSES, message: PAYMENT_MESSAGES.statusInvalid },
    kind: { kind: 'choice', values: FEE_KINDS, message: PAYMENT_MESSAGES.kindInvalid },
  },
  sorts: {
    added: { label: 'Date added', direction: 'desc' },
    title: { label: 'Title', direction: 'asc' },
  },
  defaultSort: 'added',
  columns: [
    { header: 'Title', cell: (row) => row.title },
    { header: 'Kind', cell: (row) => FEE_KIND_LABELS[row.kind] },
    { header: 'Amount (NGN)', cell: (row) => koboToNaira(row.amount_kobo) },
    { header: 'Charged', cell: (row) => FEE_BASIS_LABELS[row.basis] },
    { header: 'Diet', cell: (row) => row.diet.code },
    {
      header: 'Course headers',
      cell: (row) => (row.course_headers.length ? row.course_headers.map((h) => h.code).join(' ') : 'All'),
    },
    { header: 'Status', cell: (row) => row.status },
    { header: 'Paid payments', cell: (row) => row.paid_payments },
  ],
});

const paymentFilters = {
  status: { kind: 'choice', values: PAYMENT_STATUSES, message: PAYMENT_MESSAGES.statusChoose },
  paid: { kind: 'choice', values: PAID_WHEN, message: PAYMENT_MESSAGES.paidWhenChoose },
  diet: { kind: 'text', max: 20, pattern: DIET_CODE_PATTERN, message: DIET_MESSAGES.dietUnknown },
} as const satisfies Record<string, FilterSpec>;

const paymentList = <F extends string>(role: Role, path: string, filters: Record<F, FilterSpec>) =>
  defineList<PaymentRow>()({
    name: 'payment-histories',
    path,
    roles: [role],
    search: { max: 100, message: PAYMENT_MESSAGES.tooLong },
    filters,
    sorts: {
      started: { label: 'Date started', direction: 'desc' },
      amount: { label: 'Amount', direction: 'desc' },
    },
    defaultSort: 'started',
    columns: [
      { header: 'Reference', cell: (row) => row.transaction_ref },
      { header: 'Receipt', cell: (row) => row.receipt_number },
      { header: 'Status', cell: (row) => PAYMENT_STATUS_LABELS[row.status] },
      { header: 'Amount (NGN)', cell: (row) => koboToNaira(row.amount_kobo) },
      { header: 'Fee', cell: (row) => row.fee.title },
      { header: 'Diet', cell: (row) => row.diet.code },
      { header: 'School code', cell: (row) => row.school.code },
      { header: 'Candidates', cell: (row) => row.candidates },
      { header: 'Started at', cell: (row) => formatDateTime(row.created_at) },
      { header: 'Paid at', cell: (row) => (row.paid_at ? formatDateTime(row.paid_at) : null) },
      { header: 'Provider says', cell: (row) => row.gateway_response },
    ],
  });

export const PAYMENT_HISTORY_LISTS = {
  // The board's is filtered by school too; a school admin's is their school's.
  admin: paymentList('admin', '/api/admin/payment-histories', {
    ...paymentFilters,
    school: { kind: 'text', max: 100, message: PAYMENT_MESSAGES.tooLong },
  }),
  school_admin: paymentList('school_admin', '/api/training-school-admin/payment-histories', paymentFilters),
} as const;

/** The reconciliation queue: open items first by default, oldest first. */
export const PAYMENT_ISSUES_LIST = defineList<PaymentIssueRow>()({
  name: 'payment-reconciliation',
  path: '/api/admin/payment-issues',
  roles: ['admin'],
  search: { max: 100, message: PAYMENT_MESSAGES.tooLong },
  filters: {
    state: { kind: 'choice', values: PAYMENT_ISSUE_STATES, message: PAYMENT_MESSAGES.stateChoose },
    kind: { kind: 'choice', values: PAYMENT_ISSUE_KINDS, message: PAYMENT_MESSAGES.stateChoose },
  },
  sorts: { opened: { label: 'Date opened', direction: 'desc' } },
  defaultSort: 'opened',
  columns: [
    { header: 'Opened at', cell: (row) => formatDateTime(row.created_at) },
    { header: 'Kind', cell: (row) => PAYMENT_ISSUE_LABELS[row.kind] },
    { header: 'Reference', cell: (row) => row.transaction_ref },
    { header: 'School code', cell: (row) => row.school?.code ?? null },
    { header: 'Detail', cell: (row) => row.detail },
    { header: 'Resolved at', cell: (row) => (row.resolved_at ? formatDateTime(row.resolved_at) : null) },
    { header: 'Resolved by', cell: (row) => row.resolved_by },
    { header: 'Resolution', cell: (row) => row.resolution },
  ],
});

// Results (contract/scores.ts).

const resultFilters = {
  diet: { kind: 'text', max: 20, pattern: DIET_CODE_PATTERN, message: DIET_MESSAGES.dietUnknown },
  course_header: {
    kind: 'text',
    max: 3,
    pattern: /^[A-Za-z][0-9]{1,2}$/,
    message: SCORE_MESSAGES.courseHeaderNotFound,
  },
  outcome: { kind: 'choice', values: RESULT_OUTCOMES, message: SCORE_MESSAGES.choose },
} as const satisfies Record<string, FilterSpec>;

const resultList = <F extends string>(role: Role, path: string, filters: Record<F, FilterSpec>) =>
  defineList<ResultRow>()({
    name: 'results',
    path,
    roles: [role],
    search: { max: 100, message: SCORE_MESSAGES.tooLong },
    filters,
    sorts: {
      index: { label: 'Index number', direction: 'asc' },
      final: { label: 'Final mark', direction: 'desc' },
    },
    defaultSort: 'index',
    columns: [
      { header: 'Index number', cell: (row) => row.candidate_index },
      { header: 'Name', cell: (row) => row.name },
      { header: 'School code', cell: (row) => row.school_code },
      { header: 'Diet', cell: (row) => row.diet.code },
      { header: 'Course header', cell: (row) => row.course_header.code },
      { header: 'Exam mark', cell: (row) => row.exam_mark },
      { header: 'In-course', cell: (row) => row.in_course_mark },
      { header: 'Final mark', cell: (row) => row.final_mark },
      { header: 'Grade', cell: (row) => row.grade },
      { header: 'Outcome', cell: (row) => RESULT_OUTCOME_LABELS[row.outcome] },
      { header: 'Note', cell: (row) => row.note },
    ],
  });

export const RESULTS_LISTS = {
  // The board's: every computed result, published or not, by school too.
  admin: resultList('admin', '/api/admin/results', {
    ...resultFilters,
    school: { kind: 'text', max: 100, message: SCORE_MESSAGES.tooLong },
  }),
  // A school admin's: their own candidates' published results.
  school_admin: resultList('school_admin', '/api/training-school-admin/results', resultFilters),
} as const;

// The audit trail (contract/auditTrail.ts).

/**
 * The board's audit trail, newest first, by who acted, who stood behind them, action, record, school
 * and days (Lagos time, both ends included); a record's history on its own page is this list filtered
 * by `entity` and `entity_id`.
 */
export const AUDIT_TRAIL_LIST = defineList<AuditEntryRow>()({
  name: 'audit-trail',
  path: '/api/admin/audit-trail',
  roles: ['admin'],
  search: null,
  filters: {
    actor: { kind: 'text', max: 254, message: AUDIT_TRAIL_MESSAGES.email },
    impersonator: { kind: 'text', max: 254, message: AUDIT_TRAIL_MESSAGES.email },
    action: { kind: 'choice', values: AUDIT_ACTION_NAMES, message: AUDIT_TRAIL_MESSAGES.chooseAction },
    entity: { kind: 'choice', values: AUDIT_ENTITIES, message: AUDIT_TRAIL_MESSAGES.chooseEntity },
    entity_id: { kind: 'text', max: 40, pattern: /^[A-Za-z0-9_-]+$/, message: AUDIT_TRAIL_MESSAGES.entityId },
    school: { kind: 'text', max: 20, message: AUDIT_TRAIL_MESSAGES.school },
    from: { kind: 'date', message: DATE_MESSAGES.invalid },
    to: { kind: 'date', message: DATE_MESSAGES.invalid },
  },
  sorts: { at: { label: 'Time', direction: 'desc' } },
  defaultSort: 'at',
  columns: [
    { header: 'Time', cell: (row) => formatDateTime(row.at) },
    { header: 'Action', cell: (row) => auditActionLabel(row.action) },
    { header: 'Action code', cell: (row) => row.action },
    { header: 'Record', cell: (row) => auditEntityLabel(row.entity) },
    { header: 'Record number', cell: (row) => row.entity_id },
    { header: 'Who', cell: (row) => auditPersonText(row.actor) },
    { header: 'As whom (impersonated by)', cell: (row) => auditPersonText(row.impersonator) },
    { header: 'School code', cell: (row) => row.school?.code ?? null },
    {
      header: 'Changes',
      cell: (row) => row.withheld ?? auditChangesText(auditChanges(row.before, row.after)),
    },
    { header: 'Before', cell: (row) => (row.before == null ? null : JSON.stringify(row.before)) },
    { header: 'After', cell: (row) => (row.after == null ? null : JSON.stringify(row.after)) },
    { header: 'Address', cell: (row) => row.ip },
    { header: 'Request', cell: (row) => row.request_id },
    { header: 'Entry number', cell: (row) => row.id },
  ],
});

/** Every list, for the server to register and the tests to walk. */
export const LISTS: readonly ListDefinition<unknown>[] = [
  CANDIDATES_LIST,
  REGISTERED_LISTS.admin,
  REGISTERED_LISTS.school_admin,
  SCHOOLS_LIST,
  COURSE_HEADERS_LIST,
  OFFENDERS_LIST,
  DIETS_LIST,
  RESITS_LISTS.admin,
  RESITS_LISTS.school_admin,
  NOTIFICATION_LISTS.unread,
  NOTIFICATION_LISTS.read,
  FEES_LIST,
  PAYMENT_HISTORY_LISTS.admin,
  PAYMENT_HISTORY_LISTS.school_admin,
  PAYMENT_ISSUES_LIST,
  RESULTS_LISTS.admin,
  RESULTS_LISTS.school_admin,
  AUDIT_TRAIL_LIST,
] as readonly ListDefinition<never>[] as readonly ListDefinition<unknown>[];

// ---------------------------------------------------------------------------------------------------
// A list's query in the address bar and in its requests.

/** What a list shows: its page, its search and filters by name, and its order (absent: the default). */
export interface ListView {
  page: number;
  filters: Record<string, string>;
  sort?: { by: string; direction: SortDirection };
}

/** The names a list's query uses for its search and filters. */
export const filterNames = (definition: ListDefinition<unknown>) => [
  ...(definition.search ? ['search'] : []),
  ...Object.keys(definition.filters),
];

/**
 * A list's view as query parameters: filled filters, the order when it is not the default, and the
 * page after the first. The address bar and the list's requests say it alike.
 */
export function listParams(definition: ListDefinition<unknown>, view: ListView): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of filterNames(definition)) {
    const value = view.filters[name]?.trim();
    if (value) params.set(name, value);
  }
  const sort = view.sort;
  if (
    sort &&
    (sort.by !== definition.defaultSort || sort.direction !== definition.sorts[sort.by]?.direction)
  ) {
    params.set('sort', sort.by);
    params.set('direction', sort.direction);
  }
  if (view.page > 1) params.set('page', String(view.page));
  return params;
}

/**
 * The view a link or a reload asks for (`?search=…&page=3`), read leniently: what is not the list's
 * is left out, a page that is not a whole number is the first. A filter value the server refuses
 * still comes through, so the page says why (the server's message), instead of showing other rows.
 */
export function viewFromParams(definition: ListDefinition<unknown>, params: URLSearchParams): ListView {
  const filters: Record<string, string> = {};
  for (const name of filterNames(definition)) {
    const value = params.get(name)?.trim();
    if (value) filters[name] = value;
  }
  const page = Number(params.get('page'));
  const by = params.get('sort');
  const direction = params.get('direction');
  const sort =
    by && Object.hasOwn(definition.sorts, by)
      ? {
          by,
          direction: direction === 'asc' || direction === 'desc' ? direction : definition.sorts[by].direction,
        }
      : undefined;
  return {
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    filters,
    ...(sort && { sort }),
  };
}
