import type { ListQuery } from '../../contract/lists.validators';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { CsvColumn, ListDefinition } from '../../contract/lists';
import { boardToday } from '../boardDate';
import type { AppContext } from '../http/context';
import { Invalid } from '../errors';
import { describeError } from '../log';
import { hostileInput } from '../http/validate';
import { unreadableCell } from '../../contract/input';
import { batches, type ListSource } from '../http/paging';
import type { ListSourceOf } from './source';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** What a decoder puts for bytes that are not UTF-8. */
const REPLACEMENT = '\uFFFD';

/**
 * The rows of an uploaded CSV (bulk indexing, marks from paper), each a record of its header's names
 * (trimmed, lower-cased) to text; a file that is not a CSV, or has no rows, is the form's `csv` message.
 * Every name and value goes through the validation middleware's own hostile-input check (hostileInput,
 * server/http/validate.ts), as a JSON body's do: a NUL or a lone surrogate, and bytes that are not
 * UTF-8, are the form's `csv` message naming the row (`rowOf` the record's place: the reports number
 * them differently) and the column.
 */
export function readCsvRecords(
  bytes: Uint8Array,
  messages: { notCsv: string; empty: string },
  { rowOf = (index: number) => index + 1 }: { rowOf?: (index: number) => number } = {},
) {
  let records: Record<string, string>[];
  let header: string[] = [];
  try {
    records = parse(Buffer.from(bytes), {
      bom: true,
      columns: (names: string[]) => (header = names.map((name) => name.trim().toLowerCase())),
      skip_empty_lines: true,
      trim: true,
      relax_column_count: false,
    });
  } catch {
    throw new Invalid({ csv: [messages.notCsv] });
  }
  // Bytes that are not UTF-8 were read as U+FFFD: the first cell holding one is named.
  let utf8 = true;
  try {
    strictUtf8.decode(bytes);
  } catch {
    utf8 = false;
  }
  const refuse = (row: number | 'header', column: string): never => {
    throw new Invalid({ csv: [unreadableCell(row, column)] });
  };
  for (const [i, name] of header.entries()) {
    if (hostileInput({ name }) || (!utf8 && name.includes(REPLACEMENT))) refuse('header', String(i + 1));
  }
  for (const [i, record] of records.entries()) {
    const hostile = hostileInput(record);
    if (hostile) refuse(rowOf(i), Object.keys(hostile)[0]);
    if (!utf8) {
      const column = Object.keys(record).find((name) => record[name].includes(REPLACEMENT));
      if (column !== undefined) refuse(rowOf(i), column);
    }
  }
  if (!records.length) throw new Invalid({ csv: [messages.empty] });
  return records;
}

/**
 * Rows read at a time: small enough that a million rows never sit in memory (two batches at most: the
 * one being written and the next being read), large enough to be few (500 a batch made 2,000 queries
 * and 2,000 small writes of a million rows). 1,000 rather than 2,000: the garbage collector copies the
 * two live batches at every collection of the young generation, and with half as much live the portal
 * took 0.72-0.99x the CPU and 70-100 MB less at its peak, its time 0.65-1.12x (docs/performance.md).
 */
const CSV_BATCH = 1_000;

/**
 * Lines read at a time (ListSourceOf.csvLines): a line is one text, not a row of cells, so a batch can
 * be larger; past a few thousand the planner's choice for the LIMIT changes and a million lines took
 * 7.7 s against 5.2-5.5 s at 3,000-5,000 (read alone, docs/performance.md); at 1,000 the planning of the
 * long statement, 2 ms a batch, was a second of it.
 */
const CSV_LINES_BATCH = 5_000;

/**
 * csv-stringify does the quoting; `escape_formulas` puts a `'` before a cell that starts with `=`,
 * `+`, `-`, `@`, a tab or a carriage return (OWASP's CSV injection list), so a spreadsheet never runs a
 * name or an offence typed as a formula. Numbers are numbers, not text, and are left as they are.
 * `quote_record_delimiter`: a cell holding a line feed or a carriage return alone is quoted too (given a
 * record delimiter, csv-stringify quotes only a cell holding that delimiter, `\r\n`, so an offence
 * written on two lines broke its row in two).
 */
export const CSV_OPTIONS = {
  escape_formulas: true,
  record_delimiter: 'windows',
  quote_record_delimiter: true,
} as const;
const RECORD_END = '\r\n';

/**
 * The first characters `escape_formulas` puts a `'` before (=, +, -, @, a tab, a carriage return, and
 * the full-width =, +, - and @), as UTF-16 code units; csvSql.ts writes the same rule in SQL.
 */
export const FORMULA_STARTS = [61, 43, 45, 64, 9, 13, 0xff1d, 0xff0b, 0xff0d, 0xff20] as const;
const FORMULA = new Set<number>(FORMULA_STARTS);

/**
 * The cells csv-stringify writes as they are with CSV_OPTIONS: no quote, comma, carriage return or line
 * feed, and a first character that `escape_formulas` leaves alone. A loop over the characters rather
 * than a pattern: a pattern's test was 3.4 % of a million-row export's CPU. tests/api/lists.test.ts
 * holds `csvWriter` to csv-stringify's own output over arbitrary rows.
 */
function isPlain(value: string): boolean {
  if (FORMULA.has(value.charCodeAt(0))) return false;
  for (let at = 0; at < value.length; at++) {
    const c = value.charCodeAt(at);
    // A quote (34), a comma (44), a carriage return (13) or a line feed (10); most characters are past 44.
    if (c <= 44 && (c === 34 || c === 44 || c === 13 || c === 10)) return false;
  }
  return true;
}
/** Cells quoted once an export and kept: past this many different ones, the kept ones are let go. */
const QUOTED_KEPT = 1_000;

/**
 * A list's rows as CSV text, cell by cell from its columns, quoted and escaped by csv-stringify: a cell
 * that needs neither (most of them) is written as it is, and only the others are given to
 * csv-stringify, each once (a school's name with a comma comes back on every row of its candidates).
 * csv-stringify called on every row made about ten objects a cell: with the garbage collector's share,
 * a third of a million-row export's CPU.
 */
export function csvWriter<Row>(columns: readonly CsvColumn<Row>[]) {
  const quoted = new Map<string, string>();
  const cell = (value: string | number | null): string => {
    // (undefined too, as csv-stringify writes it, should a cell's function miss a field.)
    if (value === null || value === undefined || value === '') return '';
    if (typeof value === 'number') return String(value);
    if (typeof value !== 'string') return stringify([[value]], CSV_OPTIONS).slice(0, -RECORD_END.length);
    if (isPlain(value)) return value;
    let text = quoted.get(value);
    if (text === undefined) {
      if (quoted.size >= QUOTED_KEPT) quoted.clear();
      text = stringify([[value]], CSV_OPTIONS).slice(0, -RECORD_END.length);
      quoted.set(value, text);
    }
    return text;
  };
  const cells = columns.map((column) => column.cell);
  return {
    /** One cell as this writer writes it (a list's CSV lines quote their text parts with it). */
    cell,
    header: () => columns.map((column) => cell(column.header)).join(',') + RECORD_END,
    // One string a batch by `+=`: an array of the cells joined once was twice as slow (measured on
    // 20,000 rows, docs/performance.md).
    rows(rows: readonly Row[]) {
      let text = '';
      for (const row of rows) {
        text += cell(cells[0](row));
        for (let i = 1; i < cells.length; i++) text += ',' + cell(cells[i](row));
        text += RECORD_END;
      }
      return text;
    },
  };
}

/** A row of a list's CSV lines (ListSourceOf.csvLines): its key and its parts' texts by field. */
type LineRow = { id: number } & Record<string, string | null>;

/** Each batch of `source` as `text` makes it, read one batch ahead as the source is. */
async function* mapBatches<Item>(
  source: AsyncGenerator<Item[]>,
  text: (batch: Item[]) => string | Promise<string>,
): AsyncGenerator<string> {
  try {
    for await (const batch of source) yield await text(batch);
  } finally {
    await source.return(undefined);
  }
}

/**
 * Every row of the request's query as CSV, streamed: the header row (in the board's words), then one
 * batch after another as the client reads them, each read by keyset after the batch before, so a slow
 * download holds no database connection between batches and a million rows never sit in memory. The
 * file begins with a byte order mark, so a spreadsheet reads the names' accents as UTF-8.
 */
export function csvResponse<Row extends { id: number }, F extends string, Q extends PgSelect>(
  c: AppContext,
  definition: ListDefinition<Row, F>,
  built: ListSource<Q> | null,
  source: ListSourceOf<Row, F, Q>,
  query: ListQuery,
): Response {
  const db = c.get('deps').database.db;
  const { log } = c.get('deps');
  const requestId = c.get('requestId');
  const encoder = new TextEncoder();
  const csv = csvWriter(definition.columns);
  const lines = source.csvLines;
  // Each batch's text: the database's lines (csvSql.ts), or the rows completed and written cell by cell.
  const texts: AsyncGenerator<string> | null = !built
    ? null
    : lines
      ? mapBatches(
          batches(
            db,
            { ...built, rows: () => lines.rows(db, query) },
            CSV_LINES_BATCH,
            (row) => row as LineRow,
          ),
          (batch) => {
            const { parts } = lines;
            let text = '';
            for (const row of batch) {
              for (let i = 0; i < parts.length; i++) {
                const value = row[parts[i].field];
                if (i > 0) text += ',';
                text += parts[i].quote ? csv.cell(value) : value;
              }
              text += RECORD_END;
            }
            return text;
          },
        )
      : mapBatches(batches(db, built, CSV_BATCH, source.toRow), async (batch) =>
          csv.rows(source.complete ? await source.complete(db, batch, query) : batch),
        );
  // The next batch is asked for as soon as one arrives, so the database reads it while this process
  // writes the one before (its key is the last row's, known when the rows come).
  const read = () => {
    const next = texts ? texts.next() : Promise.resolve({ done: true as const, value: undefined });
    // Awaited by the next pull; handled here too, so a failure meanwhile is not an unhandled rejection.
    next.catch(() => {});
    return next;
  };
  let pending: ReturnType<typeof read> | null = null;

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('\uFEFF'));
      controller.enqueue(encoder.encode(csv.header()));
    },
    async pull(controller) {
      try {
        const next = await (pending ?? read());
        if (next.done) return controller.close();
        pending = read();
        controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        // The headers are sent: the download can only stop short, which the browser reports as failed.
        log.error('list.export_failed', { id: requestId, path: definition.path, ...describeError(error) });
        controller.error(error);
      }
    },
    async cancel() {
      await texts?.return(undefined);
    },
  });

  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${definition.name}-${boardToday()}.csv"`,
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
