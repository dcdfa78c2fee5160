import { SCHOOL_BROADCASTS_PAGE } from '../../contract/broadcasts';
import { INTEGRITY_PAGE } from '../../contract/integrity';
import {
  AUDIT_TRAIL_PAGE,
  BOARD_STAFF_PAGE,
  BROADCAST_LINKS,
  CANDIDATE_RECORD_PAGE,
} from '../../contract/navigation';
import { HOME_PATH, isShellLess, PRINT_DOCUMENT_PREFIX } from '../../contract/paths';

/**
 * Each shell page's chunk, by path (src/shell/routes.tsx renders them). A module of its own, outside the
 * shell's chunk, so a signed-in page opened cold asks for the shell and its page's chunk at once
 * instead of the page's after the shell's code has run. Nothing here imports more than the paths: the
 * build reads the table (scripts/prerenderLogin.ts) to write each page's chunks into the first script
 * of a page opened cold.
 */
export const dashboardChunk = () => import('../pages/dashboard/DashboardPage');
export const notificationsChunk = () => import('../pages/NotificationsPage');
// A school's messages with the board: the school's pages and the board's view of one, one chunk.
export const conversationsChunk = () => import('../pages/conversations/ConversationsPage');
export const schoolsChunk = () => import('../pages/schools/SchoolsPage');
export const coursesChunk = () => import('../pages/courses/CoursesPage');
export const dietsChunk = () => import('../pages/diets/DietsPage');
export const bulkIndexChunk = () => import('../pages/bulk/BulkIndexPage');
export const offendersChunk = () => import('../pages/offenders/OffendersPage');
export const resitsChunk = () => import('../pages/resits/ResitsPage');
export const staffChunk = () => import('../pages/staff/StaffPage');
export const auditTrailChunk = () => import('../pages/auditTrail/AuditTrailPage');
export const integrityChunk = () => import('../pages/integrity/IntegrityPage');
export const printDocumentsChunk = () => import('../pages/documents/PrintDocumentsPage');
export const sendBroadcastChunk = () => import('../pages/broadcasts/SendBroadcastPage');
export const yourBroadcastsChunk = () => import('../pages/broadcasts/YourBroadcastsPage');
export const schoolBroadcastsChunk = () => import('../pages/broadcasts/SchoolBroadcastsPage');
// The payments area is one chunk; its tabs are named exports of it.
export const paymentsChunk = () => import('../pages/payments/PaymentsPage');
// Score entry and results are one chunk; its pages are named exports of it.
export const scoresChunk = () => import('../pages/scores/ScorePage');
// The candidate area is one chunk (its lists and pages; the form and VineJS are a chunk of their own).
export const candidatesChunk = () => import('../pages/candidates/CandidateFormPage');
/** The index form's own chunk (VineJS), asked for beside the area's. */
export function indexFormChunks() {
  import('../pages/candidates/CandidateForm').catch(() => {}); // Loaded again, and shown, by the page.
  return candidatesChunk();
}
export const printDocumentChunk = () => import('../pages/PrintDocumentPage');

/** Registered Candidates (both admins'), whose registration window and first page are asked for early. */
export const REGISTERED_PAGE = '/candidate/candidate-registered';

/** Both roles' Dashboards draw charts once their numbers come: chartist is asked for with the page. */
function dashboardChunks() {
  import('../pages/dashboard/Charts').catch(() => {}); // Loaded again, and drawn, by the page.
  return dashboardChunk();
}

/**
 * The chunk of each shell page, by the same paths as routes.tsx's pages (the longest one a path sits
 * under). Read at build time too (scripts/prerenderLogin.ts), hence exported.
 * @public
 */
export const PAGE_CHUNKS: Record<string, () => Promise<unknown>> = {
  [HOME_PATH]: dashboardChunks,
  '/print-document': printDocumentsChunk,
  '/notifications': notificationsChunk,
  '/notifications/conversation': conversationsChunk,
  '/messages': conversationsChunk,
  '/school': schoolsChunk,
  '/courses': coursesChunk,
  '/candidate/index-a-candidate': indexFormChunks,
  '/candidate/candidate-search': candidatesChunk,
  '/candidate/edit-candidate': candidatesChunk,
  '/candidate/candidate-indexed': candidatesChunk,
  [REGISTERED_PAGE]: candidatesChunk,
  '/candidate/resit': resitsChunk,
  '/candidate/offender/candidate-exam-offenders': offendersChunk,
  '/courses/diets': dietsChunk,
  '/candidate/index-a-candidate/bulk': bulkIndexChunk,
  '/payments': paymentsChunk,
  '/score': scoresChunk,
  '/candidate/candidate-registered/results': scoresChunk,
  [CANDIDATE_RECORD_PAGE]: candidatesChunk,
  [BROADCAST_LINKS[0].path]: sendBroadcastChunk,
  [BROADCAST_LINKS[1].path]: yourBroadcastsChunk,
  [SCHOOL_BROADCASTS_PAGE]: schoolBroadcastsChunk,
  [BOARD_STAFF_PAGE]: staffChunk,
  [AUDIT_TRAIL_PAGE]: auditTrailChunk,
  [INTEGRITY_PAGE]: integrityChunk,
};

const under = (path: string, prefix: string) => path === prefix || path.startsWith(prefix + '/');

/** A path's entry in a table of pages: its own, or the longest page path it sits under (as findShellPage). */
export function forPath<T>(table: Record<string, T>, path: string): T | null {
  const prefix = Object.keys(table)
    .filter((page) => under(path, page))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? table[prefix] : null;
}
export const pageChunkFor = (path: string) => forPath(PAGE_CHUNKS, path);

/**
 * The chunks a shell page needs: the shell's and its own (the Dashboard's, its charts'). Asked for when the
 * page is known before it can be shown: opened cold (src/main.tsx; its HTML's first script asks sooner: scripts/prerenderLogin.ts), or the sign-in's target while the password
 * is checked and the code is read from the mail (src/pages/LoginPage.tsx), so the first page after the
 * code renders at once. The shell's chunk comes as `loadShell` from the caller: the shell's routes import
 * this module, so it does not name the shell itself.
 */
export function preloadPageChunks(path: string, loadShell: () => Promise<unknown>) {
  if (path.startsWith(PRINT_DOCUMENT_PREFIX)) {
    void printDocumentChunk().catch(() => {});
    return;
  }
  // The public pages (/verify on a phone, /statecharts) have no shell: nothing more for them.
  if (isShellLess(path)) return;
  void loadShell().catch(() => {});
  void pageChunkFor(path)?.().catch(() => {});
}
