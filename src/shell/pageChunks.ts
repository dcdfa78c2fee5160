import { HOME_PATH, PRINT_DOCUMENT_PREFIX } from '../../contract/paths';
import { loadBoardDashboard, loadSchoolDashboard } from '../api/dashboard';
import { askRegistrationWindowEarly } from '../api/dietReads';
import type { Role } from '../../contract/roles';
import { prefetchFormChoices, prefetchFormOptions } from '../app/formOptions';
import { prefetchResource } from '../app/resource';
import { readImpersonationToken, readRole } from '../api/cookies';
import { prefetchDietChoices } from '../pages/diets/DietField';
import {
  forPath,
  indexFormChunks,
  pageChunkFor,
  preloadPageChunks,
  printDocumentChunk,
  REGISTERED_PAGE,
  scoresChunk,
} from './pageTable';

/**
 * What the shell's pages ask for beside their chunks (src/shell/pageTable.ts): the routes' chunk
 * functions of the two pages whose data is asked with their code, and the data a page's first paint
 * shows, for a page opened cold or chosen in the sidebar.
 */

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
/** The index form asks at once for its chunks and its choices. */
export function indexFormChunk() {
  prefetchFormChoices();
  return indexFormChunks();
}
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
 * A signed-in page opened cold (src/main.tsx): its chunks fetched together while the app's actors load,
 * and what its first paint shows asked for at once: the Dashboard's numbers, the registration window
 * (the Dashboards, Registered Candidates), the Registered list's first page, a print page's document
 * (with the role of the session's cookie; an impersonation waits for its page, which knows whom it
 * shows). The page's first script has asked for the same chunks and for the reads it knows
 * (src/shell/coldReads.ts) sooner still: the loads here take those answers (src/api/coldAnswers.ts).
 * Every request here is one the page would make anyway, later; nothing runs twice (chunks and loads are
 * cached).
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
