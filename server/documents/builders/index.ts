import type { PrintDocumentEnding } from '../../../contract/navigation';
import type { DocumentBuilder } from '../builder';
import { candidateIndexFormBuilder } from './candidateIndexForm';
import { candidateInfoBuilder } from './candidateInfo';
import { CANDIDATE_LIST_BUILDERS } from './candidateLists';
import { courseIndexStats, courseRegStats } from './courseStats';
import { documentsChecklistBuilder } from './documentsChecklist';
import { photocardBuilder } from './photocard';

/** Every document's builder, by ending (contract/documents.ts DOCUMENTS names the same 22). */
export const BUILDERS: Partial<Record<PrintDocumentEnding, DocumentBuilder>> = Object.fromEntries(
  [
    ...CANDIDATE_LIST_BUILDERS,
    photocardBuilder,
    candidateIndexFormBuilder,
    candidateInfoBuilder,
    documentsChecklistBuilder,
    courseIndexStats,
    courseRegStats,
  ].map((builder) => [builder.ending, builder]),
);
