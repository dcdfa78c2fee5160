import type { Role } from './roles';
import { SCHOOL_BROADCASTS_PAGE } from './broadcasts';
import { INTEGRITY_PAGE } from './integrity';

/** A sidebar entry, spec section 2, word for word. */
export interface SidebarEntry {
  path: string;
  label: string;
  roles: readonly Role[];
}

const BOTH: readonly Role[] = ['admin', 'school_admin'];
const ADMIN: readonly Role[] = ['admin'];
const SCHOOL_ADMIN: readonly Role[] = ['school_admin'];

export const SIDEBAR: readonly SidebarEntry[] = [
  { path: '/overview', label: 'Dashboard', roles: BOTH },
  { path: '/candidate/index-a-candidate', label: 'Candidate Index Form', roles: ADMIN },
  { path: '/candidate/candidate-search', label: 'Candidate Search', roles: ADMIN },
  { path: '/candidate/edit-candidate', label: 'Edit Candidates', roles: ADMIN },
  { path: '/candidate/candidate-indexed', label: 'Indexed Candidates', roles: ADMIN },
  { path: '/candidate/candidate-registered', label: 'Registered Candidates', roles: BOTH },
  { path: '/candidate/resit', label: 'Resit Candidates', roles: BOTH },
  { path: '/candidate/offender/candidate-exam-offenders', label: 'Exam Offenders', roles: ADMIN },
  { path: '/school', label: 'Training Schools', roles: ADMIN },
  { path: '/courses', label: 'Course Headers', roles: ADMIN },
  { path: '/score', label: 'Score Entry', roles: ADMIN },
  { path: '/print-document', label: 'Print Documents', roles: BOTH },
  { path: '/payments', label: 'Payments', roles: BOTH },
  { path: '/notifications', label: 'Notifications', roles: ADMIN },
];

export function sidebarFor(role: Role): SidebarEntry[] {
  return SIDEBAR.filter((entry) => entry.roles.includes(role));
}

/** An entry is active when its path is contained in the current path (spec section 2). */
export function isEntryActive(entryPath: string, currentPath: string): boolean {
  return currentPath.includes(entryPath);
}

/** The header's Broadcast dropdown; broadcasts are the admin's (spec section 6). */
export const BROADCAST_LINKS = [
  { path: '/broadcast-school', label: 'Send a broadcast', roles: ADMIN },
  { path: '/broadcast-school/me', label: 'Your broadcast', roles: ADMIN },
] as const;

/**
 * A candidate's record page (`/candidate/record/<id>`), opened from every list row and search result
 * that names a candidate; the server decides whose candidates a school admin may read.
 */
export const CANDIDATE_RECORD_PAGE = '/candidate/record';
export const candidateRecordPath = (id: number) => `${CANDIDATE_RECORD_PAGE}/${id}`;

/**
 * Pages under a sidebar entry, reached from its page rather than the sidebar (whose entries are the
 * spec's, word for word): the Course Headers page's Exam diets tab, and the index form's bulk page.
 */
/** The Board staff page (issue 26), reached from the Training Schools page, not from the sidebar. */
export const BOARD_STAFF_PAGE = '/board-staff';

/**
 * The audit trail (issue 27), the board admins': reached from the board's Dashboard and from each
 * record's History, not from the sidebar, whose entries are the spec's word for word.
 */
export const AUDIT_TRAIL_PAGE = '/audit-trail';

/** The audit trail filtered to one record's history (`entity`, `entity_id`), as its History links. */
export const auditTrailPathFor = (entity: string, id: string | number) =>
  `${AUDIT_TRAIL_PAGE}?${new URLSearchParams({ entity, entity_id: String(id) })}`;

export const SUB_PAGES = [
  { path: '/courses/diets', label: 'Exam Diets', roles: ADMIN },
  { path: '/candidate/index-a-candidate/bulk', label: 'Index candidates in bulk', roles: ADMIN },
  { path: '/payments/histories', label: 'Payment histories', roles: BOTH },
  { path: '/payments/reconciliation', label: 'Reconciliation', roles: ADMIN },
  { path: '/payments/receipt', label: 'Receipt', roles: BOTH },
  { path: '/score/sheet', label: 'Score sheet', roles: ADMIN },
  { path: '/score/papers', label: 'Papers and result rules', roles: ADMIN },
  { path: '/score/results', label: 'Results', roles: ADMIN },
  { path: '/candidate/candidate-registered/results', label: 'Results', roles: SCHOOL_ADMIN },
  { path: CANDIDATE_RECORD_PAGE, label: 'Candidate record', roles: BOTH },
  // The school's own list of broadcasts (issue 26), linked from its Dashboard: the header's Broadcast
  // dropdown is the admin's (spec section 6).
  { path: SCHOOL_BROADCASTS_PAGE, label: 'Broadcasts from the board', roles: SCHOOL_ADMIN },
  // A school's messages with the board (issue 26): the board's view of one, opened from Notifications,
  // and the school's own list (from its Dashboard).
  { path: '/notifications/conversation', label: 'Conversation', roles: ADMIN },
  { path: '/messages', label: 'Messages with the board', roles: SCHOOL_ADMIN },
  { path: BOARD_STAFF_PAGE, label: 'Board staff', roles: ADMIN },
  { path: AUDIT_TRAIL_PAGE, label: 'Audit trail', roles: ADMIN },
  // The integrity reports (issue 27), reached from Indexed Candidates.
  { path: INTEGRITY_PAGE, label: 'Possible duplicates', roles: ADMIN },
] as const satisfies readonly SidebarEntry[];

/** Printable pages, shown without the shell, one per ending of spec section 2. */
export const PRINT_DOCUMENT_ENDINGS = [
  'doc',
  'practical-marksheet',
  'verified-candidate-list',
  'unverified-candidate-list',
  'oral-marksheet',
  'indexed-candidate-list',
  'resit-candidate-list',
  'fresh-candidate-list',
  'research-project',
  'research-project-aa2',
  'project-study',
  'fail-pass-stats',
  'zonal-leaders-marksheet',
  'result-analysis',
  'course-reg-stats',
  'course-index-stats',
  'school-performance',
  'all-schools-exam-perf',
  'candidate-list',
  'photocard',
  'candidate-info',
  'candidate-index-form',
] as const;
export type PrintDocumentEnding = (typeof PRINT_DOCUMENT_ENDINGS)[number];

/** What a board admin calls each printable document (the endings stay the spec's, in the paths). */
export const PRINT_DOCUMENT_TITLES: Record<PrintDocumentEnding, string> = {
  doc: 'Documents checklist',
  'practical-marksheet': 'Practical mark sheet',
  'verified-candidate-list': 'Verified candidates list',
  'unverified-candidate-list': 'Unverified candidates list',
  'oral-marksheet': 'Oral examination mark sheet',
  'indexed-candidate-list': 'Indexed candidates list',
  'resit-candidate-list': 'Resit candidates list',
  'fresh-candidate-list': 'Fresh candidates list',
  'research-project': 'Research project',
  'research-project-aa2': 'Research project (AA2)',
  'project-study': 'Project study',
  'fail-pass-stats': 'Pass and fail statistics',
  'zonal-leaders-marksheet': "Zonal leaders' mark sheet",
  'result-analysis': 'Result analysis',
  'course-reg-stats': 'Registrations by course header',
  'course-index-stats': 'Indexing by course header',
  'school-performance': 'School performance',
  'all-schools-exam-perf': 'Exam performance of all schools',
  'candidate-list': 'Candidate list',
  photocard: 'Photo cards',
  'candidate-info': 'Candidate information sheet',
  'candidate-index-form': 'Candidate index form',
};
