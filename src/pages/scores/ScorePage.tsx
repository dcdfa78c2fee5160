/**
 * Score entry (spec: /score, admin) and results. The board sets each course header's papers and result
 * rules, opens score sheets with their markers, and each marker enters their grid (machines/
 * scoreSheet.machine.ts drives a sheet; this view renders it); flagged scripts go to a third marker;
 * the sheet is locked; results are computed, published per diet and course header, and withdrawn. A
 * school admin reads its own candidates' published results (under Registered Candidates).
 */
// One chunk of pages, a file each beside this one.
export { default } from './SheetsPage';
export { SheetPage } from './SheetPage';
export { PapersPage } from './PapersPage';
export { ResultsPage } from './ResultsPage';
export { SchoolResultsPage } from './SchoolResultsPage';
