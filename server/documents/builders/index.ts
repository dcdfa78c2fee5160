import type { PrintDocumentEnding } from '../../../contract/navigation';
import type { DocumentBuilder } from '../builder';
import { courseIndexStats, courseRegStats } from './courseStats';

/** Every document's builder, by ending (contract/documents.ts DOCUMENTS names the same 22). */
export const BUILDERS: Partial<Record<PrintDocumentEnding, DocumentBuilder>> = {
  'course-index-stats': courseIndexStats,
  'course-reg-stats': courseRegStats,
};
