import type { PrintDocumentEnding } from '../../../contract/navigation';
import type { DocumentBuilder } from '../builder';
import { candidateIndexFormBuilder } from './candidateIndexForm';
import { candidateInfoBuilder } from './candidateInfo';
import { CANDIDATE_LIST_BUILDERS } from './candidateLists';
import { courseIndexStats, courseRegStats } from './courseStats';
import { documentsChecklistBuilder } from './documentsChecklist';
import { MARK_SHEET_BUILDERS } from './markSheets';
import { allSchoolsExamPerf, failPassStats } from './passStats';
import { photocardBuilder } from './photocard';
import { resultAnalysis } from './resultAnalysis';
import { schoolPerformance } from './schoolPerformance';
import { zonalLeadersMarksheet } from './zonalLeaders';

/** Every document's builder, by ending (contract/documents.ts DOCUMENTS names the same 22). */
export const BUILDERS: Partial<Record<PrintDocumentEnding, DocumentBuilder>> = Object.fromEntries(
  [
    // Candidate lists, cards and records.
    ...CANDIDATE_LIST_BUILDERS,
    photocardBuilder,
    candidateIndexFormBuilder,
    candidateInfoBuilder,
    documentsChecklistBuilder,
    // Mark sheets.
    ...MARK_SHEET_BUILDERS,
    zonalLeadersMarksheet,
    // Statistics.
    courseIndexStats,
    courseRegStats,
    failPassStats,
    resultAnalysis,
    schoolPerformance,
    allSchoolsExamPerf,
  ].map((builder) => [builder.ending, builder]),
);
