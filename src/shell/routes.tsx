import { lazy, type ReactNode } from 'react';
import {
  AUDIT_TRAIL_PAGE,
  BOARD_STAFF_PAGE,
  BROADCAST_LINKS,
  CANDIDATE_RECORD_PAGE,
  SIDEBAR,
  SUB_PAGES,
} from '../../contract/navigation';
import { HOME_PATH } from '../../contract/paths';
import { INTEGRITY_PAGE } from '../../contract/integrity';
import type { Role } from '../../contract/roles';
import {
  auditTrailChunk,
  bulkIndexChunk,
  candidatesChunk,
  conversationsChunk,
  coursesChunk,
  dashboardChunk,
  dietsChunk,
  integrityChunk,
  notificationsChunk,
  offendersChunk,
  paymentsChunk,
  printDocumentsChunk,
  resitsChunk,
  schoolBroadcastsChunk,
  schoolsChunk,
  scoresChunk,
  sendBroadcastChunk,
  staffChunk,
  yourBroadcastsChunk,
} from './pageTable';
import { indexFormChunk, scoreEntryChunk } from './pageChunks';
import { AreaBeingBuilt } from './pages';

/** Every page of the shell with the roles that may open it (from the sidebar and header entries). */
export interface ShellPage {
  path: string;
  roles: readonly Role[];
  render: () => ReactNode;
}

// Each area is its own chunk, loaded when first opened (or with the shell, on a page opened cold:
// pageTable.ts).
const DashboardPage = lazy(dashboardChunk);
const NotificationsPage = lazy(notificationsChunk);
const SchoolMessagesPage = lazy(conversationsChunk);
const BoardConversationPage = lazy(() =>
  conversationsChunk().then((m) => ({ default: m.BoardConversationPage })),
);
const SchoolsPage = lazy(schoolsChunk);
const CoursesPage = lazy(coursesChunk);
const DietsPage = lazy(dietsChunk);
const BulkIndexPage = lazy(bulkIndexChunk);
const OffendersPage = lazy(offendersChunk);
const ResitsPage = lazy(resitsChunk);
const StaffPage = lazy(staffChunk);
const AuditTrailPage = lazy(auditTrailChunk);
const IntegrityPage = lazy(integrityChunk);
const PrintDocumentsPage = lazy(printDocumentsChunk);
const SendBroadcastPage = lazy(sendBroadcastChunk);
const YourBroadcastsPage = lazy(yourBroadcastsChunk);
const SchoolBroadcastsPage = lazy(schoolBroadcastsChunk);
const PaymentsPage = lazy(paymentsChunk);
const HistoriesPage = lazy(() => paymentsChunk().then((m) => ({ default: m.HistoriesPage })));
const ReconciliationPage = lazy(() => paymentsChunk().then((m) => ({ default: m.ReconciliationPage })));
const ReceiptPage = lazy(() => paymentsChunk().then((m) => ({ default: m.ReceiptPage })));
const SheetsPage = lazy(scoreEntryChunk);
const SheetPage = lazy(() => scoresChunk().then((m) => ({ default: m.SheetPage })));
const PapersPage = lazy(() => scoresChunk().then((m) => ({ default: m.PapersPage })));
const ResultsPage = lazy(() => scoresChunk().then((m) => ({ default: m.ResultsPage })));
const SchoolResultsPage = lazy(() => scoresChunk().then((m) => ({ default: m.SchoolResultsPage })));
const IndexFormPage = lazy(() => indexFormChunk().then((m) => ({ default: m.IndexFormPage })));
const SearchPage = lazy(() => candidatesChunk().then((m) => ({ default: m.SearchPage })));
const EditPage = lazy(() => candidatesChunk().then((m) => ({ default: m.EditPage })));
const IndexedPage = lazy(() => candidatesChunk().then((m) => ({ default: m.IndexedPage })));
const RegisteredPage = lazy(() => candidatesChunk().then((m) => ({ default: m.RegisteredPage })));
const CandidateRecordPage = lazy(() => candidatesChunk().then((m) => ({ default: m.CandidateRecordPage })));

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
