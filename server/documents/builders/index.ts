import type { PrintDocumentEnding } from '../../../contract/navigation';
import type { DocumentBuilder } from '../builder';
import { MARK_SHEET_BUILDERS } from './markSheets';
import { allSchoolsExamPerf, failPassStats } from './passStats';
import { resultAnalysis } from './resultAnalysis';
import { schoolPerformance } from './schoolPerformance';
import { zonalLeadersMarksheet } from './zonalLeaders';

const byEnding = (builders: DocumentBuilder[]) =>
  Object.fromEntries(builders.map((builder) => [builder.ending, builder]));

/** Every document's builder, by ending (contract/documents.ts DOCUMENTS names the same 22). */
export const BUILDERS: Partial<Record<PrintDocumentEnding, DocumentBuilder>> = {
  // Mark sheets and statistics (helper "sheets").
  ...byEnding([
    ...MARK_SHEET_BUILDERS,
    zonalLeadersMarksheet,
    failPassStats,
    resultAnalysis,
    schoolPerformance,
    allSchoolsExamPerf,
  ]),
};
