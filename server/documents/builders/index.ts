import type { PrintDocumentEnding } from '../../../contract/navigation';
import type { DocumentBuilder } from '../builder';

/** Every document's builder, by ending (contract/documents.ts DOCUMENTS names the same 22). */
export const BUILDERS: Partial<Record<PrintDocumentEnding, DocumentBuilder>> = {};
