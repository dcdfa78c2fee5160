import { stringify } from 'csv-stringify/sync';
import { eq, inArray, sql } from 'drizzle-orm';
import {
  BULK_COLUMNS,
  BULK_LIMITS as L,
  BULK_MESSAGES as M,
  type BulkProblem,
  type BulkReport,
} from '../../contract/bulkIndexing';
import {
  CANDIDATE_MESSAGES,
  UPLOAD_FIELDS,
  CANDIDATE_RULE_MESSAGES as R,
  type UploadField,
} from '../../contract/candidates';
import { parseBoardDate } from '../../contract/dates';
import { audit, userOf, type Actor } from '../audit';
import type { Database } from '../db/client';
import { bulkBatches, candidates, files } from '../db/schema';
import { Invalid, NotFound } from '../errors';
import { CSV_OPTIONS, readCsvRecords } from '../lists/csv';
import { newKey, type WithStorage } from '../storage/storage';
import { checkCandidateForm } from './form';
import { indexCandidate } from './service';
import { capsFor, readZip, sharedCopy, type ZipRead } from './zip';

/**
 * Bulk indexing (contract/bulkIndexing.ts): the dry run checks every row with the candidate form's own
 * check (server/candidates/form.ts), so a row is refused in the words the form would use; the import
 * indexes each good row as the form does (server/candidates/service.ts indexCandidate: the next index
 * number, its files, its audit entry, one transaction a candidate, so a failure leaves no candidate half
 * indexed), under a submission key of its own (`bulk:<batch>:<row>`), so a chunk sent again indexes
 * nobody twice.
 */

type Batch = typeof bulkBatches.$inferSelect;

/** Rows read from the CSV: the template's columns only, each value as text. */
function readCsv(bytes: Uint8Array): Record<string, string>[] {
  const records = readCsvRecords(bytes, { notCsv: M.csvNotCsv, empty: M.csvEmpty });
  const unknown = Object.keys(records[0]).filter(
    (name) => !(BULK_COLUMNS as readonly string[]).includes(name),
  );
  if (unknown.length) throw new Invalid({ csv: [M.unknownColumns(unknown)] });
  if (records.length > L.rows) throw new Invalid({ csv: [M.tooManyRows] });
  return records;
}

/** The zip's names, each also under `<row>-<field>` (its name without its extension) for the rows' own. */
function nameIndex(names: Set<string>) {
  const byStem = new Map<string, string>();
  for (const name of names) {
    const stem = name.replace(/\.[^.]+$/, '');
    if (!byStem.has(stem)) byStem.set(stem, name);
  }
  return { names, byStem };
}
type NameIndex = ReturnType<typeof nameIndex>;

/** The file of each upload field of a row, by name: the one its column names, or `<row>-<field>.<ext>`. */
function wantedFiles(row: number, record: Record<string, string>, { names, byStem }: NameIndex) {
  const wanted = new Map<UploadField, string>();
  const missing: BulkProblem[] = [];
  for (const field of UPLOAD_FIELDS) {
    const named = record[field]?.trim();
    if (named) {
      if (names.has(named)) wanted.set(field, named);
      else missing.push({ row, field, message: M.fileMissing(named) });
      continue;
    }
    const byRow = byStem.get(`${row}-${field}`);
    if (byRow) wanted.set(field, byRow);
  }
  return { wanted, missing };
}

/**
 * What the zip reader is to inflate for these rows (and nothing else): the names their upload columns
 * give, and `<row>-<field>` for each upload column left empty.
 */
function askedOf(rows: { row: number; record: Record<string, string> }[]) {
  const names = new Set<string>();
  const stems: string[] = [];
  for (const { row, record } of rows) {
    for (const field of UPLOAD_FIELDS) {
      const named = record[field]?.trim();
      if (named) names.add(named);
      else stems.push(`${row}-${field}`);
    }
  }
  return { names, stems };
}

/**
 * The rows' files as the form's File parts, and the problems of those the zip reader could not give:
 * one past the upload limit is the form's own 'File is too large', for its row and field.
 */
function filesOf(row: number, wanted: Map<UploadField, string>, read: ZipRead) {
  const found = new Map<UploadField, File>();
  const problems: BulkProblem[] = [];
  for (const [field, name] of wanted) {
    const entry = read.entries.get(name);
    if (entry?.tooLarge) problems.push({ row, field, message: CANDIDATE_MESSAGES.fileTooLarge });
    else if (!entry?.bytes) problems.push({ row, field, message: M.fileUnreadable(name) });
    else found.set(field, new File([entry.bytes as Uint8Array<ArrayBuffer>], name));
  }
  return { found, problems };
}

/** The form body of a row: its text under the form's names, and its files. */
function bodyOf(record: Record<string, string>, found: Map<UploadField, File>) {
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record)) {
    if (!(UPLOAD_FIELDS as readonly string[]).includes(name) && value !== '') body[name] = value;
  }
  // The date of birth as the board writes it (DD/MM/YYYY), or as the form sends it (YYYY-MM-DD).
  if (typeof body.date_of_birth === 'string')
    body.date_of_birth = parseBoardDate(body.date_of_birth) ?? body.date_of_birth;
  for (const [field, file] of found) body[field] = file;
  return body;
}

/**
 * The form's check of a row, with what the zip reader found of its files: a file missing from the zip,
 * or refused by the reader (too large, not unpackable), is that field's one problem, and the form's own
 * word on the field (required, the file being left out of the body) is left out.
 */
async function checkRow(
  db: Database,
  row: number,
  record: Record<string, string>,
  files: { wanted: Map<UploadField, string>; missing: BulkProblem[] },
  read: ZipRead,
) {
  const { found, problems } = filesOf(row, files.wanted, read);
  problems.unshift(...files.missing);
  const refused = new Set(problems.map((problem) => problem.field));
  try {
    const form = await checkCandidateForm(db, bodyOf(record, found));
    return { form: problems.length ? null : form, problems };
  } catch (error) {
    problems.push(...problemsOf(row, error).filter((problem) => !refused.has(problem.field)));
    return { form: null, problems };
  }
}

const problemsOf = (row: number, error: unknown): BulkProblem[] => {
  if (!(error instanceof Invalid)) throw error;
  if (typeof error.fields === 'string') return [{ row, field: '', message: error.fields }];
  return Object.entries(error.fields).flatMap(([field, messages]) =>
    messages.map((message) => ({ row, field, message })),
  );
};

/** The same person twice in one file (the duplicate rule's own columns). */
const personKey = (record: Record<string, string>) =>
  [record.school_code, record.course_header, record.first_name, record.last_name, record.date_of_birth]
    .map((value) => (value ?? '').trim().toLowerCase())
    .join('|');

/**
 * Rows checked or indexed at once: each waits mostly on the database and the storage, so a few side by
 * side keep both busy (on PostgreSQL they run on several connections; PGlite takes them in turn).
 */
const ROWS_AT_ONCE = 6;

/** `work` on every item, `limit` at a time, results in the items' order. */
async function eachAtMost<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** The dry run: every row checked as the form checks it; the batch kept for the import. */
export async function stageBatch(
  { db, storage, log }: WithStorage,
  actor: Actor,
  upload: { csv: File; zip: File | null },
): Promise<BulkReport> {
  const records = readCsv(new Uint8Array(await upload.csv.arrayBuffer()));
  const zip = upload.zip ? await sharedCopy(upload.zip) : null;
  // One read of the zip, in the zip reader's worker: the names, and the head of each file a row asks
  // for (its type is sniffed from it; its whole size was counted against the cap).
  const read: ZipRead = zip
    ? await readZip(
        zip,
        askedOf(records.map((record, i) => ({ row: i + 1, record }))),
        'head',
        capsFor(records.length),
      )
    : { names: new Set(), entries: new Map() };
  const index = nameIndex(read.names);

  const problems: BulkProblem[] = [];
  const good: number[] = [];
  const seen = new Map<string, number>();
  for (const [i, record] of records.entries()) {
    const row = i + 1;
    const { problems: found } = await checkRow(db, row, record, wantedFiles(row, record, index), read);
    const person = personKey(record);
    const earlier = seen.get(person);
    if (earlier === undefined) seen.set(person, row);
    else if (!found.some((problem) => problem.message === R.duplicate)) {
      found.push({ row, field: 'first_name', message: M.duplicateInFile });
    }
    if (found.length) problems.push(...found);
    else good.push(row);
  }

  let zipKey: string | null = null;
  if (zip && good.length) {
    zipKey = newKey('bulk-batches', 'zip');
    await storage.put(zipKey, zip, 'application/zip');
  }
  try {
    const id = await db.transaction(async (tx) => {
      if (zipKey) {
        await tx.insert(files).values({
          key: zipKey,
          kind: 'bulk_batch',
          ownerId: userOf(actor),
          contentType: 'application/zip',
          size: zip!.byteLength,
        });
      }
      const [batch] = await tx
        .insert(bulkBatches)
        .values({ createdBy: userOf(actor), rows: records, problems, goodRows: good, zipKey })
        .returning({ id: bulkBatches.id });
      await audit(tx, actor, {
        action: 'bulk_indexing.checked',
        entityId: batch.id,
        after: { rows: records.length, good: good.length, problems: problems.length },
      });
      return batch.id;
    });
    return loadReport(db, id);
  } catch (error) {
    if (zipKey) await storage.remove(zipKey).catch((cause) => log.error('bulk.zip_not_removed', { cause }));
    throw error;
  }
}

function toReport(batch: Batch): BulkReport {
  return {
    id: batch.id,
    rows: batch.rows.length,
    good: batch.goodRows.length,
    problems: batch.problems,
    indexed: batch.indexed,
    imported_through: batch.importedThrough,
    finished: batch.finished,
  };
}

async function batchOf(db: Database, id: number, lock = false): Promise<Batch> {
  const query = db.select().from(bulkBatches).where(eq(bulkBatches.id, id));
  const [batch] = lock ? await query.for('update') : await query;
  if (!batch) throw new NotFound(M.notFound);
  return batch;
}

export const loadReport = async (db: Database, id: number) => toReport(await batchOf(db, id));

/**
 * Indexes the good rows `from` to `from + count - 1` not indexed yet, each as the form would, and
 * records the progress. A row that fails now (a duplicate indexed since the dry run, a course header
 * closed) is added to the report and the rest go on.
 */
export async function importChunk(
  withStorage: WithStorage,
  actor: Actor,
  id: number,
  range: { from: number; count: number },
): Promise<{ report: BulkReport; indexed: number }> {
  const { db, storage } = withStorage;
  const batch = await batchOf(db, id);
  const done = new Set(batch.indexed.map((entry) => entry.row));
  const rows = batch.goodRows.filter(
    (row) => row >= range.from && row < range.from + range.count && !done.has(row),
  );
  const stored = batch.zipKey && rows.length ? ((await storage.get(batch.zipKey))?.bytes ?? null) : null;
  const zip = stored ? await sharedCopy(stored) : null;
  const read: ZipRead = zip
    ? await readZip(
        zip,
        askedOf(rows.map((row) => ({ row, record: batch.rows[row - 1] }))),
        'whole',
        capsFor(rows.length),
      )
    : { names: new Set(), entries: new Map() };
  const index = nameIndex(read.names);
  const planned = rows.map((row) => ({
    row,
    record: batch.rows[row - 1],
    ...wantedFiles(row, batch.rows[row - 1], index),
  }));

  // Rows a chunk sent before already indexed (their submission keys), read in one query.
  const keyOf = (row: number) => `bulk:${id}:${row}`;
  const before = new Map(
    (
      await db
        .select({ key: candidates.submissionKey, id: candidates.id })
        .from(candidates)
        .where(
          inArray(candidates.submissionKey, planned.length ? planned.map((entry) => keyOf(entry.row)) : ['']),
        )
    ).map((found) => [found.key, found.id]),
  );
  const made: { row: number; id: number }[] = [];
  const problems: BulkProblem[] = [];
  await eachAtMost(planned, ROWS_AT_ONCE, async ({ row, record, wanted, missing }) => {
    const key = keyOf(row);
    const earlier = before.get(key);
    if (earlier !== undefined) return made.push({ row, id: earlier });
    const checked = await checkRow(db, row, record, { wanted, missing }, read);
    if (!checked.form) return problems.push(...checked.problems);
    try {
      made.push({ row, id: await indexCandidate(withStorage, actor, checked.form, key) });
    } catch (error) {
      problems.push(...problemsOf(row, error));
    }
  });
  const numbers = new Map(
    (
      await db
        .select({ id: candidates.id, index: candidates.candidateIndex })
        .from(candidates)
        .where(inArray(candidates.id, made.length ? made.map((entry) => entry.id) : [0]))
    ).map((found) => [found.id, found.index]),
  );
  const indexed = made.map((entry) => ({ row: entry.row, candidate_index: numbers.get(entry.id)! }));

  // The progress, merged under the batch's lock: two chunks answered at once both count, once each.
  const report = await db.transaction(async (tx) => {
    const locked = await batchOf(tx, id, true);
    const byRow = new Map(locked.indexed.map((entry) => [entry.row, entry]));
    for (const entry of indexed) byRow.set(entry.row, entry);
    const through = Math.min(
      locked.rows.length,
      Math.max(locked.importedThrough, range.from + range.count - 1),
    );
    const finished = through >= locked.rows.length;
    const [updated] = await tx
      .update(bulkBatches)
      .set({
        indexed: [...byRow.values()].sort((a, b) => a.row - b.row),
        problems: [...locked.problems, ...problems],
        importedThrough: through,
        finished,
        zipKey: finished ? null : locked.zipKey,
        updatedAt: sql`now()`,
      })
      .where(eq(bulkBatches.id, id))
      .returning();
    // Finished: the zip has served; its file goes (the sweep would take it too, having no row).
    if (finished && locked.zipKey) await tx.delete(files).where(eq(files.key, locked.zipKey));
    return { report: toReport(updated), zipGone: finished ? locked.zipKey : null };
  });
  if (report.zipGone) await storage.remove(report.zipGone).catch(() => {});
  return { report: report.report, indexed: indexed.length };
}

/** The report as CSV: each problem, and each row indexed with its index number. */
export function reportCsv(report: BulkReport): string {
  const lines: (string | number)[][] = [
    ...report.problems.map((problem) => [problem.row, problem.field, problem.message, '']),
    ...report.indexed.map((entry) => [entry.row, '', 'Indexed', entry.candidate_index]),
  ].sort((a, b) => Number(a[0]) - Number(b[0]));
  return '\uFEFF' + stringify([['Row', 'Field', 'Message', 'Index number'], ...lines], CSV_OPTIONS);
}

/** The template: the columns, and one example row. */
export function templateCsv(example: Readonly<Record<string, string>>): string {
  return stringify([[...BULK_COLUMNS], BULK_COLUMNS.map((column) => example[column] ?? '')], CSV_OPTIONS);
}
