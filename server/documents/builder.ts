import type {
  DocumentBlock,
  DocumentCell,
  DocumentHeading,
  Photocard,
  PrintedDocument,
} from '../../contract/documents';
import type { PrintDocumentEnding } from '../../contract/navigation';
import type { Database } from '../db/client';

/**
 * How a printable document is built: one builder per ending (server/documents/builders/), each a pure
 * reading of the database for a resolved scope. The print pipeline (server/documents/print.ts) records
 * the print, gives it and each card its verification code, audits it when it names candidates, and
 * hands the result to a drawing: JSON for the HTML print page, or the PDF (server/documents/pdf.ts).
 * Builders never draw, never record and never check access: the scope they get is already the caller's.
 */

/** The parameters of a print, resolved and checked against the caller (server/documents/params.ts). */
export interface DocumentScope {
  diet: { id: number; code: string; name: string } | null;
  school: { id: number; code: string; name: string } | null;
  courseHeader: { id: number; code: string; name: string } | null;
  paper: { id: number; name: string; courseHeaderId: number } | null;
  candidate: { id: number; candidateIndex: string; trainingSchoolId: number } | null;
  /** One of the document's variants' values (its first when none was asked). */
  variant: string | null;
}

/**
 * What a row or card certifies, as printed: labelled values that verification compares with what the
 * database says now ('Result' 'Pass' → 'Withdrawn'). Only what the paper itself shows.
 */
export type Facts = Readonly<Record<string, string>>;

/** A table row, keyed (an index number, a school code) so verification can find it again. */
export interface BuiltRow {
  key: string;
  cells: DocumentCell[];
  facts: Facts;
}

/** A photocard before the pipeline gives it its own code. */
export interface BuiltCard {
  key: string;
  card: Omit<Photocard, 'verification'>;
  facts: Facts;
}

/**
 * Rows or cards: all at once, or counted first and then read in batches (large lists and photocards,
 * by keyset pages), so a PDF of 20,000 holds one batch in memory and knows its page count before it starts.
 */
export type Rows<T> = readonly T[] | { count: number; batches: AsyncIterable<readonly T[]> };

/** A block as built: a table's rows and the cards may come in batches; everything else as drawn. */
export type BuiltBlock =
  | Exclude<DocumentBlock, { kind: 'table' } | { kind: 'cards' }>
  | (Omit<Extract<DocumentBlock, { kind: 'table' }>, 'rows'> & { rows: Rows<BuiltRow> })
  | { kind: 'cards'; cards: Rows<BuiltCard> };

export interface BuiltDocument {
  heading: DocumentHeading[];
  blocks: BuiltBlock[];
  /** What the paper as a whole certifies beyond its rows ('Candidates' '78'; a record's fields). */
  facts: Facts;
}

export interface DocumentBuilder {
  ending: PrintDocumentEnding;
  /** How many rows or cards it will hold: up to DOCUMENT_INLINE_LIMIT a PDF is streamed, beyond it a job builds it. */
  count(db: Database, scope: DocumentScope): Promise<number>;
  build(db: Database, scope: DocumentScope): Promise<BuiltDocument>;
  /**
   * What one row or card (by its key) would certify now, for verifying one card of a large print
   * without building it all; null when it is no longer there. Without it, verification rebuilds.
   */
  factsOf?(db: Database, scope: DocumentScope, key: string): Promise<Facts | null>;
}

/** A block as a drawing reads it: rows and cards with their count, then in batches, cards with their codes. */
export type PrintingBlock =
  | Exclude<DocumentBlock, { kind: 'table' } | { kind: 'cards' }>
  | (Omit<Extract<DocumentBlock, { kind: 'table' }>, 'rows'> & {
      count: number;
      rows: AsyncIterable<readonly DocumentCell[][]>;
    })
  | { kind: 'cards'; count: number; cards: AsyncIterable<readonly Photocard[]> };

/**
 * A print under way (server/documents/print.ts `startPrinting`): recorded, with its code, its head
 * and its blocks to be drawn once, in order. A drawing (the JSON of the print page, the PDF) reads
 * every block's rows to the end and then calls `finish`, which stores what the print certified.
 */
export interface Printing {
  id: number;
  head: Omit<PrintedDocument, 'blocks'>;
  /** Rows and cards in all the blocks. */
  count: number;
  blocks: PrintingBlock[];
  finish(): Promise<void>;
}
