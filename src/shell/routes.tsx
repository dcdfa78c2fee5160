import { lazy, type ReactNode } from 'react';
import {
  AUDIT_TRAIL_PAGE,
  BOARD_STAFF_PAGE,
  BROADCAST_LINKS,
  CANDIDATE_RECORD_PAGE,
  HOME_PATH,
  SIDEBAR,
  SUB_PAGES,
} from '../../contract/navigation';
import { INTEGRITY_PAGE } from '../../contract/integrity';
import type { Role } from '../../contract/roles';
import { prefetchFormChoices } from '../app/formOptions';
import { AreaBeingBuilt } from './pages';

/** Every page of the shell with the roles that may open it (from the sidebar and header entries). */
export interface ShellPage {
  path: string;
  roles: readonly Role[];
  render: () => ReactNode;
}

// Each area is its own chunk, loaded when first opened.
const DashboardPage = lazy(() => import('../pages/dashboard/DashboardPage'));
const NotificationsPage = lazy(() => import('../pages/NotificationsPage'));
// A school's messages with the board: the school's pages and the board's view of one, one chunk.
const conversations = () => import('../pages/conversations/ConversationsPage');
const SchoolMessagesPage = lazy(conversations);
const BoardConversationPage = lazy(() => conversations().then((m) => ({ default: m.BoardConversationPage })));
const SchoolsPage = lazy(() => import('../pages/schools/SchoolsPage'));
const CoursesPage = lazy(() => import('../pages/courses/CoursesPage'));
const DietsPage = lazy(() => import('../pages/diets/DietsPage'));
const BulkIndexPage = lazy(() => import('../pages/bulk/BulkIndexPage'));
const OffendersPage = lazy(() => import('../pages/offenders/OffendersPage'));
const ResitsPage = lazy(() => import('../pages/resits/ResitsPage'));
const StaffPage = lazy(() => import('../pages/staff/StaffPage'));
const AuditTrailPage = lazy(() => import('../pages/auditTrail/AuditTrailPage'));
const IntegrityPage = lazy(() => import('../pages/integrity/IntegrityPage'));
const PrintDocumentsPage = lazy(() => import('../pages/documents/PrintDocumentsPage'));
const SendBroadcastPage = lazy(() => import('../pages/broadcasts/SendBroadcastPage'));
const YourBroadcastsPage = lazy(() => import('../pages/broadcasts/YourBroadcastsPage'));
const SchoolBroadcastsPage = lazy(() => import('../pages/broadcasts/SchoolBroadcastsPage'));
// The payments area is one chunk; its tabs are named exports of it.
const payments = () => import('../pages/payments/PaymentsPage');
const PaymentsPage = lazy(payments);
const HistoriesPage = lazy(() => payments().then((m) => ({ default: m.HistoriesPage })));
const ReconciliationPage = lazy(() => payments().then((m) => ({ default: m.ReconciliationPage })));
const ReceiptPage = lazy(() => payments().then((m) => ({ default: m.ReceiptPage })));
// Score entry and results are one chunk; its pages are named exports of it.
const scores = () => import('../pages/scores/ScorePage');
const SheetsPage = lazy(scores);
const SheetPage = lazy(() => scores().then((m) => ({ default: m.SheetPage })));
const PapersPage = lazy(() => scores().then((m) => ({ default: m.PapersPage })));
const ResultsPage = lazy(() => scores().then((m) => ({ default: m.ResultsPage })));
const SchoolResultsPage = lazy(() => scores().then((m) => ({ default: m.SchoolResultsPage })));
// The candidate area is one chunk (its lists and pages; the form and VineJS are a chunk of their own);
// each page is a named export of it.
const candidates = () => import('../pages/candidates/CandidateFormPage');
// The index form page asks at once for what its form needs (the form's own chunk with VineJS, and the
// form's choices), not one after the other.
const IndexFormPage = lazy(() => {
  prefetchFormChoices();
  import('../pages/candidates/CandidateForm').catch(() => {}); // Loaded again, and shown, by the page.
  return candidates().then((m) => ({ default: m.IndexFormPage }));
});
const SearchPage = lazy(() => candidates().then((m) => ({ default: m.SearchPage })));
const EditPage = lazy(() => candidates().then((m) => ({ default: m.EditPage })));
const IndexedPage = lazy(() => candidates().then((m) => ({ default: m.IndexedPage })));
const RegisteredPage = lazy(() => candidates().then((m) => ({ default: m.RegisteredPage })));
const CandidateRecordPage = lazy(() => candidates().then((m) => ({ default: m.CandidateRecordPage })));

const builtPages: Record<string, () => ReactNode> = {
  [HOME_PATH]: () => <DashboardPage />,
  '/print-document': () => <PrintDocumentsPage />,
  '/notifications': () => <NotificationsPage />,
  '/notifications/conversation': () => <BoardConversationPage />,
  '/messages': () => <SchoolMessagesPage />,
  '/school': () => <SchoolsPage />,
  '/courses': () => <CoursesPage />,
  '/candidate/index-a-candidate': () => <IndexFormPage />,
  '/candidate/candidate-search': () => <SearchPage />,
  '/candidate/edit-candidate': () => <EditPage />,
  '/candidate/candidate-indexed': () => <IndexedPage />,
  '/candidate/candidate-registered': () => <RegisteredPage />,
  '/candidate/resit': () => <ResitsPage />,
  '/candidate/offender/candidate-exam-offenders': () => <OffendersPage />,
  '/courses/diets': () => <DietsPage />,
  '/candidate/index-a-candidate/bulk': () => <BulkIndexPage />,
  '/payments': () => <PaymentsPage />,
  '/payments/histories': () => <HistoriesPage />,
  '/payments/reconciliation': () => <ReconciliationPage />,
  '/payments/receipt': () => <ReceiptPage />,
  '/score': () => <SheetsPage />,
  '/score/sheet': () => <SheetPage />,
  '/score/papers': () => <PapersPage />,
  '/score/results': () => <ResultsPage />,
  '/candidate/candidate-registered/results': () => <SchoolResultsPage />,
  [CANDIDATE_RECORD_PAGE]: () => <CandidateRecordPage />,
  [BROADCAST_LINKS[0].path]: () => <SendBroadcastPage />,
  [BROADCAST_LINKS[1].path]: () => <YourBroadcastsPage />,
  '/broadcasts': () => <SchoolBroadcastsPage />,
  [BOARD_STAFF_PAGE]: () => <StaffPage />,
  [AUDIT_TRAIL_PAGE]: () => <AuditTrailPage />,
  [INTEGRITY_PAGE]: () => <IntegrityPage />,
};

const SHELL_PAGES: ShellPage[] = [...SIDEBAR, ...BROADCAST_LINKS, ...SUB_PAGES].map((entry) => ({
  path: entry.path,
  roles: entry.roles,
  render: builtPages[entry.path] ?? (() => <AreaBeingBuilt title={entry.label} />),
}));

/** The page for a path: the exact entry, or the longest entry the path sits under. */
export function findShellPage(path: string): ShellPage | null {
  const exact = SHELL_PAGES.find((page) => page.path === path);
  if (exact) return exact;
  return (
    SHELL_PAGES.filter((page) => path.startsWith(page.path + '/')).sort(
      (a, b) => b.path.length - a.path.length,
    )[0] ?? null
  );
}
