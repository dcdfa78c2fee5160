import {
  and,
  asc,
  Column,
  count,
  desc,
  getTableName,
  gt,
  is,
  lt,
  noopDecoder,
  SQL,
  sql,
  type DriverValueDecoder,
} from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { EXACT_TOTAL_LIMIT, type Page } from '../../contract/pagination';
import type { Database } from '../db/client';

export interface Paging {
  page: number;
  perPage: number;
  offset: number;
  /** Keyset cursors (`?after=`, `?before=`): the rows past this id, in the list's order. */
  after: number | null;
  before: number | null;
}

/**
 * An estimate this far past EXACT_TOTAL_LIMIT is taken as it is: counting even the first 1,001 of that
 * many matches reads the whole bitmap of them (10-13 ms for a common name at a million candidates),
 * and the planner, with the statistics the migrations ask for, is not that far out.
 */
const ESTIMATE_TRUSTED = 10 * EXACT_TOTAL_LIMIT;

/**
 * A list's order: the columns it sorts by (none: by its key alone), then its unique key (an id), all in
 * one direction, so any row's place in it is known from its key (`beyond`). The columns are of the
 * key's table and never null.
 */
export interface ListOrder {
  key: AnyPgColumn;
  by: AnyPgColumn[];
  direction: 'asc' | 'desc';
  /** The pages carry keyset cursors (`next_cursor`, `prev_cursor`) and take them (`after`, `before`). */
  cursors: boolean;
}

/** What one list asks of the database: its rows, filtered, a window at a time, and how many match. */
export interface ListSource<Q extends PgSelect> {
  /** A new select of the rows with their joins (`.$dynamic()`); filtering, order and window are added. */
  rows: () => Q;
  /** A new `select 1` from the tables the filters need (`.$dynamic()`), for the total. */
  matching: () => PgSelect;
  /** The list's filters. */
  where: SQL | undefined;
  order: ListOrder;
}

const ordered = (order: ListOrder, direction = order.direction) =>
  [...order.by, order.key].map((column) => (direction === 'asc' ? asc(column) : desc(column)));

const flip = (direction: 'asc' | 'desc') => (direction === 'asc' ? 'desc' : 'asc');

/**
 * The rows after row `id` in the order (`direction` as the order's, or flipped to walk back). By the
 * key alone it is `key < id` (newest first); with sort columns, the row value of those columns and the
 * key is compared with that of row `id`, read by its key, so a cursor is an id whatever the order.
 */
function beyond(order: ListOrder, id: number, direction = order.direction): SQL {
  if (!order.by.length) return direction === 'asc' ? gt(order.key, id) : lt(order.key, id);
  const all = [...order.by, order.key];
  const table = getTableName(order.key.table);
  // One scalar subquery a column (each run once, before the scan), not one row subquery: a row compared
  // with constants is an index condition, so a deep page of an index in this order starts at its place.
  const values = sql.join(
    all.map((column) => sql`(select ${column} from ${sql.identifier(table)} where ${order.key} = ${id})`),
    sql`, `,
  );
  return sql`(${sql.join(all, sql`, `)}) ${sql.raw(direction === 'asc' ? '>' : '<')} (${values})`;
}

/**
 * One page of a list, with a cost that does not grow with the table: one more row than the page tells
 * whether a next page exists; a cursor from the page before or after replaces OFFSET; and the total is
 * counted only when the page does not show it, and only while it is cheap (`countMatching`).
 */
export async function readPage<Q extends PgSelect, Item extends { id: number }>(
  db: Database,
  paging: Paging,
  source: ListSource<Q>,
  toItem: (row: Awaited<Q>[number]) => Item,
): Promise<Page<Item>> {
  const { perPage } = paging;
  const queries = pageQueries(db, paging, source);
  // On a pool (PostgreSQL), the planner's estimate is asked beside the window, on a second connection,
  // whenever the total may be needed: the answer waits for one round trip, not two. An estimate is a
  // plan, no rows; when the page shows its own total it goes unused. PGlite has one connection: there
  // the estimate waits for the window, and is asked only when needed.
  const early = hasPool(db) ? estimateRows(db, queries.matching()) : null;
  // Settled now, so a failed window leaves no estimate's rejection unhandled (the window's failure is
  // what the request answers).
  early?.catch(() => {});
  const found = (await queries.window) as Awaited<Q>[number][];
  // Walking back, the window is the rows just newer than the cursor, oldest first: turned round.
  const rows = queries.backwards ? found.slice(0, perPage).reverse() : found.slice(0, perPage);
  const hasMore = queries.backwards || found.length > perPage;

  const shown = (paging.page - 1) * perPage + rows.length;
  // A page that ends the list shows its total; an empty page past the end does not.
  const { total, exact } =
    !hasMore && (rows.length > 0 || paging.page === 1)
      ? { total: shown, exact: true }
      : await countMatching(db, queries, early);
  const items = rows.map(toItem);
  const keyed = queries.keyed;
  return {
    items,
    page: paging.page,
    per_page: perPage,
    // Never below the rows paged through to here (an empty page past the end has paged through none).
    total: exact || rows.length === 0 ? total : Math.max(total, shown + (hasMore ? 1 : 0)),
    total_exact: exact,
    has_more: hasMore,
    next_cursor: keyed && hasMore && items.length ? items[items.length - 1].id : null,
    prev_cursor: keyed && paging.page > 1 && items.length ? items[0].id : null,
  };
}

/**
 * The statements of one page, as `readPage` runs them (and `npm run bench` times them raw): the window
 * of rows (one more than the page), and the capped count of the matches (`count`), whose rows the
 * planner estimates when the count reaches the cap (`matching`).
 */
export function pageQueries<Q extends PgSelect>(db: Database, paging: Paging, source: ListSource<Q>) {
  const { order } = source;
  const window = (where: SQL | undefined, orderBy: SQL[], offset: number) =>
    source
      .rows()
      .where(where)
      .orderBy(...orderBy)
      .limit(paging.perPage + 1)
      .offset(offset);
  const backwards = order.cursors && paging.before !== null;
  const matching = () => source.matching().where(source.where);
  return {
    keyed: order.cursors,
    backwards,
    window: backwards
      ? window(
          and(source.where, beyond(order, paging.before!, flip(order.direction))),
          ordered(order, flip(order.direction)),
          0,
        )
      : order.cursors && paging.after !== null
        ? window(and(source.where, beyond(order, paging.after)), ordered(order), 0)
        : window(source.where, ordered(order), paging.offset),
    // Built only when counted (most pages show their total, or take the estimate).
    count: () =>
      db.select({ total: count() }).from(
        matching()
          .limit(EXACT_TOTAL_LIMIT + 1)
          .as('matching'),
      ),
    matching,
  };
}

/**
 * Every matching row, `size` at a time, in the list's order: each batch is the rows beyond the last
 * one of the batch before, by its key (`beyond`), so a deep batch costs what the first does and no
 * statement stays open between batches (a slow download holds no connection and no transaction).
 */
export async function* batches<Q extends PgSelect, Item extends { id: number }>(
  db: Database,
  source: ListSource<Q>,
  size: number,
  toItem: (row: Awaited<Q>[number]) => Item,
): AsyncGenerator<Item[]> {
  let last: number | null = null;
  for (;;) {
    const where: SQL | undefined =
      last === null ? source.where : and(source.where, beyond(source.order, last));
    const rows: Awaited<Q>[number][] = await readRows(
      db,
      source
        .rows()
        .where(where)
        .orderBy(...ordered(source.order))
        .limit(size),
    );
    const items: Item[] = rows.map(toItem);
    if (items.length) yield items;
    if (items.length < size) return;
    last = items[items.length - 1].id;
  }
}

/** What Drizzle keeps of a `sql` selection's `.mapWith()` (on the object, not in its types). */
type Decoded = { decoder: DriverValueDecoder<unknown, unknown> };

/** A column's decoder, null where it gives the driver's value back (text, a boolean, a plain `sql`). */
function decoderOf(field: Column | SQL | SQL.Aliased): DriverValueDecoder<unknown, unknown> | null {
  const decoder = is(field, Column)
    ? field
    : is(field, SQL)
      ? (field as unknown as Decoded).decoder
      : (field.sql as unknown as Decoded).decoder;
  const same = decoder === noopDecoder || decoder.mapFromDriverValue === Column.prototype.mapFromDriverValue;
  return same ? null : decoder;
}

/**
 * A select's rows, in its shape, without Drizzle's mapping of each row (`mapResultRow`: a reduce, an
 * `is` test and a path iterator a cell, 14 % of a million-row export's CPU). The driver gives each row
 * as an array (Drizzle's own array mode, with its type parsers, on PGlite and node-postgres alike) and
 * each cell that needs it is decoded by its column, as Drizzle decodes it. A selection with nested
 * objects (a joined table's columns under one name, which Drizzle sets to null when a left join found
 * nothing) is left to Drizzle.
 */
async function readRows<Q extends PgSelect>(db: Database, query: Q): Promise<Awaited<Q>[number][]> {
  const fields = Object.entries(query._.selectedFields as Record<string, unknown>);
  const flat = (field: unknown) => is(field, Column) || is(field, SQL) || is(field, SQL.Aliased);
  if (!fields.every(([, field]) => flat(field))) return (await query) as Awaited<Q>[number][];
  const names = fields.map(([name]) => name);
  const decoders = fields.map(([, field]) => decoderOf(field as Column | SQL | SQL.Aliased));
  // Each row a copy of one object holding every name (one shape, made at once), its cells then set:
  // a property added at a time walked the shape's transitions on every row.
  const shape: Record<string, unknown> = Object.fromEntries(names.map((name) => [name, null]));
  const toObject = (cells: unknown[]) => {
    const row: Record<string, unknown> = { ...shape };
    for (let i = 0; i < names.length; i++) {
      const cell = cells[i];
      const decoder = decoders[i];
      row[names[i]] = cell === null || decoder === null ? cell : decoder.mapFromDriverValue(cell);
    }
    return row as Awaited<Q>[number];
  };
  return db._.session
    .prepareQuery(query.toSQL(), undefined, undefined, true, (rows) => rows.map(toObject))
    .execute() as Promise<Awaited<Q>[number][]>;
}

/**
 * How many rows match, at a cost that does not grow with them. The planner's estimate comes first (a
 * plan, no rows): far past the limit it is the answer. Otherwise the matches are counted, stopping at
 * EXACT_TOTAL_LIMIT + 1; past the limit the total is the larger of the two.
 */
async function countMatching(
  db: Database,
  queries: Pick<ReturnType<typeof pageQueries>, 'count' | 'matching'>,
  asked: Promise<number> | null = null,
): Promise<{ total: number; exact: boolean }> {
  const estimate = await (asked ?? estimateRows(db, queries.matching()));
  if (estimate > ESTIMATE_TRUSTED) return { total: estimate, exact: false };
  const [{ total }] = await queries.count();
  if (total <= EXACT_TOTAL_LIMIT) return { total, exact: true };
  return { total: Math.max(total, estimate), exact: false };
}

/**
 * A database on a pool of connections (node-postgres), where two statements can be under way at once;
 * PGlite's one connection runs them in turn.
 */
const hasPool = (db: Database) => (db as unknown as { $client?: unknown }).$client instanceof pg.Pool;

/** The planner's estimate of a query's rows (from the statistics ANALYZE keeps). */
async function estimateRows(db: Database, query: PgSelect): Promise<number> {
  const result = (await db.execute(sql`explain (format json) ${query}`)) as unknown as {
    rows: Record<string, unknown>[];
  };
  const raw = Object.values(result.rows[0] ?? {})[0];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: { 'Plan Rows'?: number } }[];
  return Math.round(plan[0]?.Plan?.['Plan Rows'] ?? 0);
}

/** A LIKE pattern that finds `text` anywhere, with the user's own % and _ taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** The page of a scope that can hold no rows (a school admin without a school). */
export const noRows = <Item>(paging: Paging): Page<Item> => ({
  items: [],
  page: paging.page,
  per_page: paging.perPage,
  total: 0,
  total_exact: true,
  has_more: false,
  next_cursor: null,
  prev_cursor: null,
});
