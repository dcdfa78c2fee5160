import { eq, sql, type SQL } from 'drizzle-orm';
import { QueryBuilder, type AnyPgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { BOARD_TIME_ZONE } from '../../contract/format';
import { FORMULA_STARTS } from './csv';
import type { CsvPart } from './source';

/**
 * A list's CSV cells written by the database (ListSourceOf.csvLines): each cell as csvWriter (csv.ts)
 * writes it, so a long list's export moves a few texts a row instead of a row of cells the portal writes
 * one by one (a million candidates: 1.5-1.6x the time of PostgreSQL's own COPY of the rows, against
 * 2.1-2.4x for the export the portal wrote; docs/performance.md). tests/api/csv-sql.test.ts holds each
 * helper to csvWriter and formatDateTime over arbitrary values on both databases.
 */

type Expression = SQL | AnyPgColumn;

const formulaStart = (value: Expression) => sql`ascii(${value}) in (${sql.raw(FORMULA_STARTS.join(', '))})`;

/**
 * Text as csvWriter writes it with CSV_OPTIONS: null and empty are nothing; a first character a
 * spreadsheet takes for a formula gets a `'` before it; a cell holding a quote, a comma, a carriage return
 * or a line feed is quoted, its quotes doubled. `value` is read several times: give it a column (or a
 * select's column), not a subquery.
 */
export function csvText(value: Expression): SQL<string> {
  const neutral = sql`case when ${formulaStart(value)} then '''' || ${value} else ${value} end`;
  return sql<string>`case
    when strpos(${value}, '"') + strpos(${value}, ',') + strpos(${value}, chr(10)) + strpos(${value}, chr(13)) > 0
      then '"' || replace(${neutral}, '"', '""') || '"'
    when ${formulaStart(value)} then '''' || ${value}
    else coalesce(${value}, '') end`;
}

/**
 * A value csvWriter writes as it is, read once: a number, a word of a fixed set none of which needs
 * quoting (the test says which), a date. Null is nothing.
 */
export const csvPlain = (value: Expression): SQL<string> => sql<string>`coalesce((${value})::text, '')`;

/** A moment as formatDateTime writes it (30/06/2027 14:05, the board's time zone), or nothing. */
export const csvDateTime = (instant: Expression): SQL<string> =>
  sql<string>`coalesce(to_char(${instant} at time zone ${BOARD_TIME_ZONE}, 'DD/MM/YYYY HH24:MI'), '')`;

/** Cells the database wrote, joined: a run of a line's cells, without the record's end. */
const joined = (cells: SQL<string>[]): SQL<string> =>
  sql<string>`concat_ws(',', ${sql.join(cells, sql`, `)})`;

/**
 * A cell of a list's CSV line (ListSourceOf.csvLines): a text column the portal quotes (`{ text }`:
 * csvWriter's own check, a loop in the portal, costs less than PostgreSQL's four `strpos` and its formula
 * test did a cell, and runs beside the database's reading of the next batch), or a cell the database
 * writes for the request's query (csvText, csvPlain, csvDateTime, a looked-up cell of csvCellsOf).
 */
export type CsvCell<Q> = { text: AnyPgColumn } | ((query: Q) => SQL<string>);

/**
 * A list's CSV lines from its cells, header by header in its columns' order: the headers (listRoute
 * holds them to the definition's), the parts in order, and the select's fields for a query, a text cell
 * a field of its own and each run of written cells one field, joined by the database.
 */
export function csvLineParts<Q>(cells: readonly (readonly [header: string, cell: CsvCell<Q>])[]) {
  const parts: (CsvPart & { column?: AnyPgColumn; written: ((query: Q) => SQL<string>)[] })[] = [];
  for (const [i, [, cell]] of cells.entries()) {
    const last = parts.at(-1);
    if (typeof cell !== 'function')
      parts.push({ field: `part${i}`, quote: true, column: cell.text, written: [] });
    else if (last && !last.quote) last.written.push(cell);
    else parts.push({ field: `part${i}`, quote: false, written: [cell] });
  }
  return {
    headers: cells.map(([header]) => header),
    parts: parts.map(({ field, quote }): CsvPart => ({ field, quote })),
    fields: (query: Q): Record<string, AnyPgColumn | SQL<string>> =>
      Object.fromEntries(
        parts.map((part) => [part.field, part.column ?? joined(part.written.map((cell) => cell(query)))]),
      ),
  };
}

/**
 * Text columns of one row of a small table (a candidate's school, its course header: the row whose `key`
 * is `foreign`) as csvText cells, a subquery to join laterally (`innerJoinLateral(cells, sql\`true\`)`).
 * Grouped by its key (one row all the same), it is kept apart by the planner instead of merged into the
 * outer row, and cached by `foreign` (a Memoize node): each row's cells are quoted once a batch and looked
 * up, not once an outer row (a plain join under a batch's LIMIT scanned the table for every candidate:
 * 0.6-2 s more a million; docs/performance.md). `name` names the subquery and prefixes its columns.
 */
export function csvCellsOf<K extends string>(
  name: string,
  table: PgTable,
  key: AnyPgColumn,
  foreign: AnyPgColumn,
  columns: Record<K, AnyPgColumn>,
) {
  const cells = Object.fromEntries(
    Object.entries<AnyPgColumn>(columns).map(([field, column]) => [
      field,
      csvText(column).as(`${name}_${field}`),
    ]),
  ) as Record<K, SQL.Aliased<string>>;
  return new QueryBuilder().select(cells).from(table).where(eq(key, foreign)).groupBy(key).as(name);
}
