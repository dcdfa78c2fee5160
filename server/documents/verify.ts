import { eq } from 'drizzle-orm';
import {
  DOCUMENT_MESSAGES as M,
  DOCUMENT_PARAM_LABELS as LABELS,
  DOCUMENTS,
  type DocumentParam,
  type VerifiedDocument,
} from '../../contract/documents';
import type { DocumentQuery } from '../../contract/documents.validators';
import type { Database } from '../db/client';
import { documentPrints, type StoredRowFacts } from '../db/schema';
import { Invalid, NotFound } from '../errors';
import type { BuiltDocument, DocumentBuilder, DocumentScope, Facts, Rows } from './builder';
import { BUILDERS } from './builders';
import { codeKey, readCode } from './codes';
import { BOARD, isDocumentEnding, resolveQuery } from './params';
import { printerName } from './print';
import { currentReceiptFacts, RECEIPT_TITLE } from './receipts';

/**
 * What /verify/<code> answers: whether the code is the portal's (its tag is checked before anything is
 * read), what the paper certified and when, and what differs now. What it certified is what was stored
 * as the paper was drawn; what holds now is the same builder's reading today, for the same query (the
 * card's alone when the builder can read one, else the whole document again). It shows only what the
 * paper shows: the certified facts, and of a list, the keys (index numbers) printed on it.
 */

type Print = typeof documentPrints.$inferSelect;

/** How many changed rows are named one by one before the rest are counted. */
const NAMED_ROWS = 5;
/** Up to this many changed rows, each row's changes are said in full. */
const DETAILED_ROWS = 3;

const rowsWord = (n: number) => (n === 1 ? '1 row' : `${n} rows`);

/** 'Surname: was ADÉBÁYỌ̀, now ADEBAYO', for each label whose value differs. */
function differences(was: Facts, now: Facts): string[] {
  const changes: string[] = [];
  for (const [label, value] of Object.entries(was)) {
    const current = now[label];
    if (current === value) continue;
    changes.push(
      current === undefined
        ? `${label}: was ${value}, now not held`
        : `${label}: was ${value}, now ${current}`,
    );
  }
  return changes;
}

const asList = (facts: Facts) => Object.entries(facts).map(([label, value]) => ({ label, value }));

/** The stored facts of one group's row (its key first). */
function factsOfRow(labels: string[], row: (string | null)[]): Facts {
  const facts: Record<string, string> = {};
  labels.forEach((label, i) => {
    const value = row[i + 1];
    if (value !== null && value !== undefined) facts[label] = value;
  });
  return facts;
}

/** The row that row number n (from 1) of a print names, across its blocks. */
function storedRow(groups: StoredRowFacts, n: number) {
  const group = groups.find((g) => n > g.first && n <= g.first + g.rows.length);
  if (!group) return null;
  const row = group.rows[n - 1 - group.first];
  return { block: group.block, key: row[0] ?? '', facts: factsOfRow(group.labels, row) };
}

/** Every row's facts of a block as built now, by key. */
async function currentRows(built: BuiltDocument, block: number): Promise<Map<string, Facts>> {
  const rows = new Map<string, Facts>();
  const found = built.blocks[block];
  if (!found || (found.kind !== 'table' && found.kind !== 'cards')) return rows;
  const source: Rows<{ key: string; facts: Facts }> = found.kind === 'table' ? found.rows : found.cards;
  if (!('batches' in source)) {
    for (const row of source) rows.set(row.key, row.facts);
    return rows;
  }
  for await (const batch of source.batches) for (const row of batch) rows.set(row.key, row.facts);
  return rows;
}

/** The query a print was made by, resolved again as the board; or why it names nothing now. */
async function scopeNow(db: Database, print: Print): Promise<DocumentScope | string[]> {
  try {
    const { scope } = await resolveQuery(db, BOARD, print.ending, print.query as DocumentQuery);
    return scope;
  } catch (error) {
    if (!(error instanceof Invalid) || typeof error.fields === 'string') throw error;
    return Object.keys(error.fields).map(
      (field) => `${LABELS[field as DocumentParam] ?? field}: no longer held by the board`,
    );
  }
}

async function verifyRow(db: Database, builder: DocumentBuilder, print: Print, row: number) {
  const stored = storedRow(print.rowFacts, row);
  if (!stored) throw new NotFound(M.codeUnknown);
  const scope = await scopeNow(db, print);
  let changes: string[];
  if (Array.isArray(scope)) {
    changes = scope;
  } else {
    const now = builder.factsOf
      ? await builder.factsOf(db, scope, stored.key)
      : ((await currentRows(await builder.build(db, scope), stored.block)).get(stored.key) ?? null);
    changes = now === null ? ['No longer on the list'] : differences(stored.facts, now);
  }
  return { certified: asList(stored.facts), changes };
}

async function verifyDocument(db: Database, builder: DocumentBuilder, print: Print) {
  const printed = Object.fromEntries(print.facts);
  const certified = asList(printed);
  if (certified.length === 0 && print.rowCount > 0)
    certified.push({ label: 'Rows', value: String(print.rowCount) });
  const scope = await scopeNow(db, print);
  if (Array.isArray(scope)) return { certified, changes: scope };
  const built = await builder.build(db, scope);
  const changes = differences(printed, built.facts);
  const changed: { key: string; changes: string[] }[] = [];
  const gone: string[] = [];
  let added = 0;
  // A drawing that stopped before the end stored no rows: only the document's own facts are compared.
  for (const group of print.finishedAt ? print.rowFacts : []) {
    const now = await currentRows(built, group.block);
    const printed = new Set<string>();
    for (const row of group.rows) {
      const key = row[0] ?? '';
      printed.add(key);
      const current = now.get(key);
      if (!current) gone.push(key);
      else {
        const rowChanges = differences(factsOfRow(group.labels, row), current);
        if (rowChanges.length) changed.push({ key, changes: rowChanges });
      }
    }
    for (const key of now.keys()) if (!printed.has(key)) added += 1;
  }
  const named = (keys: string[]) =>
    keys.slice(0, NAMED_ROWS).join(', ') +
    (keys.length > NAMED_ROWS ? ` and ${keys.length - NAMED_ROWS} more` : '');
  if (changed.length > 0 && changed.length <= DETAILED_ROWS) {
    for (const row of changed) changes.push(`${row.key}: ${row.changes.join('; ')}`);
  } else if (changed.length) {
    changes.push(`${rowsWord(changed.length)} changed: ${named(changed.map((row) => row.key))}`);
  }
  if (gone.length) changes.push(`${rowsWord(gone.length)} no longer on the list: ${named(gone)}`);
  if (added) changes.push(`${rowsWord(added)} added since it was printed`);
  return { certified, changes };
}

async function verifyReceipt(db: Database, print: Print) {
  const printed = Object.fromEntries(print.facts);
  const now = print.paymentId === null ? null : await currentReceiptFacts(db, print.paymentId);
  return {
    certified: asList(printed),
    changes: now === null ? ['The payment is no longer held by the board'] : differences(printed, now),
  };
}

/** A code's verification, or a 404 with codeUnknown for a code the portal did not issue. */
export async function verifyCode(db: Database, code: string): Promise<VerifiedDocument> {
  const parts = readCode(await codeKey(db), code);
  if (!parts) throw new NotFound(M.codeUnknown);
  const [print] = await db.select().from(documentPrints).where(eq(documentPrints.id, parts.printId));
  if (!print) throw new NotFound(M.codeUnknown);

  let title: string;
  let answer: { certified: VerifiedDocument['certified']; changes: string[] };
  if (print.ending === 'receipt') {
    if (parts.row !== 0) throw new NotFound(M.codeUnknown);
    title = RECEIPT_TITLE;
    answer = await verifyReceipt(db, print);
  } else {
    const builder = isDocumentEnding(print.ending) ? BUILDERS[print.ending] : undefined;
    if (!builder) throw new NotFound(M.codeUnknown);
    title = DOCUMENTS[builder.ending].title;
    answer =
      parts.row === 0
        ? await verifyDocument(db, builder, print)
        : await verifyRow(db, builder, print, parts.row);
  }
  return {
    status: answer.changes.length ? 'changed' : 'genuine',
    title,
    printedAt: print.printedAt.toISOString(),
    printedBy: await printerName(db, print.printedBy),
    heading: print.heading,
    certified: answer.certified,
    changes: answer.changes,
  };
}
