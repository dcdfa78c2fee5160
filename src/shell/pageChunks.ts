import { SCHOOL_BROADCASTS_PAGE } from '../../contract/broadcasts';
import { INTEGRITY_PAGE } from '../../contract/integrity';
import {
  AUDIT_TRAIL_PAGE,
  BOARD_STAFF_PAGE,
  BROADCAST_LINKS,
  CANDIDATE_RECORD_PAGE,
} from '../../contract/navigation';
import { HOME_PATH, isShellLess, PRINT_DOCUMENT_PREFIX } from '../../contract/paths';
import { loadBoardDashboard, loadSchoolDashboard } from '../api/dashboard';
import { askRegistrationWindowEarly } from '../api/dietReads';
import type { Role } from '../../contract/roles';
import { readImpersonationToken, readRole } from '../api/cookies';
import { prefetchFormChoices, prefetchFormOptions } from '../app/formOptions';
import { prefetchResource } from '../app/resource';
import { prefetchDietChoices } from '../pages/diets/DietField';

/**
 * Each shell page's chunk, by path (src/shell/routes.tsx renders them). A module of its own, outside the
 * shell's chunk, so a signed-in page opened cold asks for the shell and its page's chunk at once
 * (`preloadPage`) instead of the page's after the shell's code has run.
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
/**
 * Score Entry (the board's) asks at once for its diet filter's choices and its course headers, beside its
 * chunk: its sheets wait for the diet, and the sheets' table for the course headers.
 */
function scoreEntryData() {
  prefetchDietChoices('admin');
  prefetchFormOptions();
}
export function scoreEntryChunk() {
  scoreEntryData();
  return scoresChunk();
}
// The candidate area is one chunk (its lists and pages; the form and VineJS are a chunk of their own).
export const candidatesChunk = () => import('../pages/candidates/CandidateFormPage');
/** The index form's own chunk (VineJS), asked for beside the area's. */
function indexFormChunks() {
  import('../pages/candidates/CandidateForm').catch(() => {}); // Loaded again, and shown, by the page.
  return candidatesChunk();
}
/** The index form asks at once for its chunks and its choices. */
export function indexFormChunk() {
  prefetchFormChoices();
  return indexFormChunks();
}
const printDocumentChunk = () => import('../pages/PrintDocumentPage');

/** Registered Candidates (both admins'), whose registration window and first page are asked for early. */
const REGISTERED_PAGE = '/candidate/candidate-registered';

/** The chunk of each shell page, by the same paths as routes.tsx's pages (the longest one a path sits under). */
const PAGE_CHUNKS: Record<string, () => Promise<unknown>> = {
  [HOME_PATH]: dashboardChunk,
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
function forPath<T>(table: Record<string, T>, path: string): T | null {
  const prefix = Object.keys(table)
    .filter((page) => under(path, page))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? table[prefix] : null;
}
const pageChunkFor = (path: string) => forPath(PAGE_CHUNKS, path);

/**
 * The data two pages ask for beside their chunk (their routes' chunk functions above do it too). Apart
 * from PAGE_CHUNKS: a sign-in's target gets its chunks before there is a session, and a request without
 * one is a 401, which sends the user back to /login.
 */
const PAGE_DATA: Record<string, () => void> = {
  '/candidate/index-a-candidate': prefetchFormChoices,
  '/score': scoreEntryData,
};

/**
 * The chunks a shell page needs: the shell's, its own, and the Dashboard's charts. Asked for when the
 * page is known before it can be shown: opened cold (below), or the sign-in's target while the password
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
  if (path === HOME_PATH) {
    // Both roles' Dashboards draw charts once their numbers come: chartist is ready by then.
    void import('../pages/dashboard/Charts').catch(() => {});
  }
}

/**
 * A signed-in page opened cold (src/main.tsx): its chunks fetched together while the app's actors load,
 * and what its first paint shows asked for at once: the Dashboard's numbers, the registration window
 * (the Dashboards, Registered Candidates), the Registered list's first page, a print page's document
 * (with the role of the session's cookie; an impersonation waits for its page, which knows whom it
 * shows). Every request here is one the page would make anyway, later; nothing runs twice (chunks and
 * loads are cached).
 */
export function preloadPage(path: string, loadShell: () => Promise<unknown>) {
  preloadPageChunks(path, loadShell);
  const role = readImpersonationToken() === null ? readRole() : null;
  if (role !== 'admin' && role !== 'school_admin') return;
  if (path.startsWith(PRINT_DOCUMENT_PREFIX)) {
    // A print page's document: its largest paint, which otherwise waited for the profile and the page's render.
    void printDocumentChunk()
      .then(({ prefetchPrintedDocument }) =>
        prefetchPrintedDocument(role, path.slice(PRINT_DOCUMENT_PREFIX.length), location.search),
      )
      .catch(() => {});
    return;
  }
  forPath(PAGE_DATA, path)?.();
  askFirstPaint(path, role, location.search);
  if (path === HOME_PATH && role === 'admin') prefetchResource('dashboard-admin', loadBoardDashboard);
  if (path === HOME_PATH && role === 'school_admin')
    prefetchResource('dashboard-school', loadSchoolDashboard);
}

/**
 * What a page's first paint shows, asked for beside its chunk (the page's own code asks only once its
 * chunk has run): the registration window (the Dashboards, Registered Candidates), the Registered list's
 * diet choices (its filter and its bulk actions, which shift the list if they come after it) and its first
 * page for `search`, once the list's definitions are there (the page's own chunks import them). The page's
 * first load takes each answer once, fresh (src/api/early.ts); the diet choices are a cached resource.
 */
function askFirstPaint(path: string, role: Role, search: string) {
  // The registration window's notice, the largest thing both Dashboards and the Registered list paint.
  if (path === HOME_PATH || path === REGISTERED_PAGE) askRegistrationWindowEarly(role);
  if (path !== REGISTERED_PAGE) return;
  prefetchDietChoices(role);
  void Promise.all([import('../../contract/lists'), import('../api/lists')])
    .then(([{ REGISTERED_LISTS }, { askFirstPageEarly }]) =>
      askFirstPageEarly(REGISTERED_LISTS[role], search),
    )
    .catch(() => {});
}

/**
 * A page chosen in the shell's sidebar: its chunk and what its first paint shows, asked for at the
 * click, side by side (on slow 3G the list's requests otherwise waited for a dozen small chunks).
 */
export function preloadFromShell(path: string, role: Role) {
  void pageChunkFor(path)?.().catch(() => {});
  forPath(PAGE_DATA, path)?.();
  askFirstPaint(path, role, '');
}
