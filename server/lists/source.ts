import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { ListQuery } from '../../contract/lists.validators';
import type { Database } from '../db/client';

/** One field of a CSV lines select (csvSql.ts): a text the portal quotes, or a run of written cells. */
export interface CsvPart {
  field: string;
  quote: boolean;
}

/**
 * What the server knows of a list that its definition (contract/lists.ts) does not: how its rows are
 * read, and what each of the definition's filters and sorts means in SQL.
 */
export interface ListSourceOf<Row extends { id: number }, F extends string, Q extends PgSelect> {
  /**
   * A new select of the rows with their joins (`.$dynamic()`). The query is there for joins a filter
   * chooses (the candidates' registrations: for the diet asked, or the current one).
   */
  rows: (db: Database, query: ListQuery) => Q;
  /** A new `select 1` from the tables the filters and the scope need (`.$dynamic()`), for the total. */
  matching: (db: Database, query: ListQuery) => PgSelect;
  /** The rows' unique key (an id, `Row['id']`): the last word of every order, and the cursors. */
  key: AnyPgColumn;
  /** What every request of the list asks (a listed row not removed; a notification unread). */
  where?: SQL;
  /** The row's school: a school admin sees only their own school's rows. None: board admins only. */
  school?: AnyPgColumn;
  /** One condition a search word (each must match). */
  search?: (text: string) => SQL[];
  /** Each filter's condition (the query too, for a filter another one qualifies: reg_status by diet). */
  filters: Record<F, (value: string, query: ListQuery) => SQL>;
  /** Each sortable column of the definition: the columns it sorts by before the key ([]: the key). */
  sorts: Record<string, AnyPgColumn[]>;
  /**
   * The default sort's columns are never null and every filter has an index ending in them and the key
   * (the audit trail's `at, id`): its pages walk by keyset cursors too, not only an order by the key.
   */
  keyset?: boolean;
  toRow: (row: Awaited<Q>[number]) => Row;
  /** What a page's rows need from other tables (a school's admins), read once a page or batch. */
  complete?: (db: Database, rows: Row[], query: ListQuery) => Promise<Row[]>;
  /**
   * The CSV's lines mostly written by the database, for a list long enough that the portal's writing of
   * every cell would cost (the candidates: a million rows), made by csvLineParts (csvSql.ts): the
   * definition's column headers, in its order (listRoute checks them), the line's parts in order, and a
   * new select of each row's key (`id`) and its parts' fields, from the tables the filters, the search
   * and the scope name. The export then reads the parts, not the rows, and quotes the text parts; it
   * does not ask `complete`: the parts hold every column.
   */
  csvLines?: {
    headers: readonly string[];
    parts: readonly CsvPart[];
    rows: (db: Database, query: ListQuery) => PgSelect;
  };
}
