import { and, asc, count, desc, gt, lt, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import { DEFAULT_PER_PAGE, EXACT_TOTAL_LIMIT, MAX_PER_PAGE, type Page } from '../../contract/pagination';
import type { Database } from '../db/client';
import type { AppContext } from './context';
import { MAX_ID } from './params';

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

/** Far past any real list; keeps OFFSET a sane number whatever the query says. */
const MAX_PAGE = 100_000;

/**
 * `?page=&per_page=&after=&before=` read leniently, since they come from links and address bars:
 * anything that is not a whole number from 1 falls back to the default (no cursor), and per_page is
 * capped at MAX_PER_PAGE.
 */
export function readPaging(c: AppContext): Paging {
  const whole = (raw: string | undefined, fallback: number, max: number) => {
    const value = Number(raw);
    return raw && /^\d{1,10}$/.test(raw) && value >= 1 ? Math.min(value, max) : fallback;
  };
  const page = whole(c.req.query('page'), 1, MAX_PAGE);
  const perPage = whole(c.req.query('per_page'), DEFAULT_PER_PAGE, MAX_PER_PAGE);
  const cursor = (name: string) => {
    const value = whole(c.req.query(name), 0, MAX_ID + 1);
    return value >= 1 && value <= MAX_ID ? value : null;
  };
  // The first page is always the newest rows, whatever cursor came with it.
  const after = page > 1 ? cursor('after') : null;
  const before = page > 1 && after === null ? cursor('before') : null;
  return { page, perPage, offset: (page - 1) * perPage, after, before };
}

/** What one list asks of the database: its rows, filtered, a window at a time, and how many match. */
export interface ListSource<Q extends PgSelect> {
  /** A new select of the rows with their joins (`.$dynamic()`); filtering, order and window are added. */
  rows: () => Q;
  /** A new `select 1` from the tables the filters need (`.$dynamic()`), for the total. */
  matching: () => PgSelect;
  /** The list's filters. */
  where: SQL | undefined;
  /**
   * Id-ordered lists (newest first, each item's `id` is the key) give their unique key, and page by
   * keyset when a cursor comes; short lists ordered otherwise give their order and page by offset.
   */
  order: { key: AnyPgColumn } | { orderBy: SQL[] };
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
  const found = (await queries.window) as Awaited<Q>[number][];
  // Walking back, the window is the rows just newer than the cursor, oldest first: turned round.
  const rows = queries.backwards ? found.slice(0, perPage).reverse() : found.slice(0, perPage);
  const hasMore = queries.backwards || found.length > perPage;

  const shown = (paging.page - 1) * perPage + rows.length;
  // A page that ends the list shows its total; an empty page past the end does not.
  const { total, exact } =
    !hasMore && (rows.length > 0 || paging.page === 1)
      ? { total: shown, exact: true }
      : await countMatching(db, queries);
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
  const key = 'key' in source.order ? source.order.key : null;
  const window = (where: SQL | undefined, orderBy: SQL[], offset: number) =>
    source
      .rows()
      .where(where)
      .orderBy(...orderBy)
      .limit(paging.perPage + 1)
      .offset(offset);
  const backwards = key !== null && paging.before !== null;
  const matching = () => source.matching().where(source.where);
  return {
    keyed: key !== null,
    backwards,
    window:
      key === null
        ? window(source.where, (source.order as { orderBy: SQL[] }).orderBy, paging.offset)
        : backwards
          ? window(and(source.where, gt(key, paging.before!)), [asc(key)], 0)
          : paging.after !== null
            ? window(and(source.where, lt(key, paging.after)), [desc(key)], 0)
            : window(source.where, [desc(key)], paging.offset),
    count: db.select({ total: count() }).from(
      matching()
        .limit(EXACT_TOTAL_LIMIT + 1)
        .as('matching'),
    ),
    matching,
  };
}

/**
 * How many rows match, at a cost that does not grow with them. The planner's estimate comes first (a
 * plan, no rows): far past the limit it is the answer. Otherwise the matches are counted, stopping at
 * EXACT_TOTAL_LIMIT + 1; past the limit the total is the larger of the two.
 */
async function countMatching(
  db: Database,
  queries: Pick<ReturnType<typeof pageQueries>, 'count' | 'matching'>,
): Promise<{ total: number; exact: boolean }> {
  const estimate = await estimateRows(db, queries.matching());
  if (estimate > ESTIMATE_TRUSTED) return { total: estimate, exact: false };
  const [{ total }] = await queries.count;
  if (total <= EXACT_TOTAL_LIMIT) return { total, exact: true };
  return { total: Math.max(total, estimate), exact: false };
}

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
