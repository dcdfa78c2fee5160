import { and, eq, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { ListDefinition } from '../../contract/lists';
import { listQueryValidator, type ListQuery } from '../../contract/lists.validators';
import type { Page } from '../../contract/pagination';
import type { Database } from '../db/client';
import { dbOf, scopeOf, type ListScope } from '../http/context';
import { noRows, pageQueries, readPage, type ListSource, type Paging } from '../http/paging';
import { ok } from '../http/respond';
import { serveList, type Route } from '../http/route';
import { query } from '../http/validate';
import { csvResponse } from './csv';
import type { ListSourceOf } from './source';

export type { ListScope };

export type { ListSourceOf };

/**
 * The source of one request: the scope's school, the query's filters and search, and the order it
 * asks for. Null when the scope can hold no rows (a school admin without a school).
 */
function sourceOf<Row extends { id: number }, F extends string, Q extends PgSelect>(
  db: Database,
  definition: ListDefinition<Row, F>,
  source: ListSourceOf<Row, F, Q>,
  scope: ListScope,
  query: ListQuery,
): ListSource<Q> | null {
  const conditions: SQL[] = source.where ? [source.where] : [];
  if (scope.kind === 'school') {
    if (scope.schoolId === null || !source.school) return null;
    conditions.push(eq(source.school, scope.schoolId));
  }
  for (const [name, value] of Object.entries(query.filters)) {
    conditions.push(source.filters[name as F](value, query));
  }
  if (query.search && source.search) conditions.push(...source.search(query.search));
  const by = source.sorts[query.sort];
  const isDefault = query.sort === definition.defaultSort;
  return {
    rows: () => source.rows(db, query),
    matching: () => source.matching(db, query),
    where: conditions.length ? and(...conditions) : undefined,
    order: {
      key: source.key,
      by,
      direction: query.direction,
      // Keyset pages for the default order of an id-ordered list (a deep page costs what the first
      // does); any other order pages by number (lists ordered by name are a few hundred rows).
      cursors:
        isDefault &&
        (by.length === 0 || source.keyset === true) &&
        query.direction === definition.sorts[query.sort].direction,
    },
  };
}

const pagingOf = (query: ListQuery): Paging => ({
  page: query.page,
  perPage: query.perPage,
  offset: (query.page - 1) * query.perPage,
  after: query.after,
  before: query.before,
});

/**
 * The GET of a list, made from its definition and its source: its path and the roles that may call it
 * are the definition's (the access matrix reads them from this route); the query is validated by the
 * `query()` middleware (a 422 names every problem); the rows are scoped to the caller's school,
 * filtered, searched, sorted and paged with a total (server/http/paging.ts); with `?format=csv`, every
 * matching row is streamed as CSV (csv.ts).
 */
export function listRoute<Row extends { id: number }, F extends string, Q extends PgSelect>(
  definition: ListDefinition<Row, F>,
  source: ListSourceOf<Row, F, Q>,
): Route {
  for (const role of definition.roles) {
    if (role !== 'admin' && !source.school) {
      throw new Error(
        `The list ${definition.path} is open to ${role}, but its source names no school column`,
      );
    }
  }
  const headers = definition.columns.map((column) => column.header);
  const lines = source.csvLines?.headers;
  if (lines && (lines.length !== headers.length || lines.some((header, i) => header !== headers[i]))) {
    throw new Error(
      `The list ${definition.path}'s CSV lines are written for the columns ${lines.join(', ')}, but its columns are ${headers.join(', ')}`,
    );
  }
  const { validator, toQuery } = listQueryValidator(definition as ListDefinition<unknown>);
  return serveList(definition, query(validator), async (c) => {
    const asked = toQuery(c.req.valid('query'));
    const db = dbOf(c);
    const built = sourceOf(db, definition, source, scopeOf(c), asked);
    if (asked.format === 'csv') return csvResponse(c, definition, built, source, asked);
    const paging = pagingOf(asked);
    if (!built) return ok(c, noRows<Row>(paging));
    const page: Page<Row> = await readPage(db, paging, built, source.toRow);
    return ok(c, source.complete ? { ...page, items: await source.complete(db, page.items, asked) } : page);
  });
}

/**
 * The SQL one list request sends, for `npm run bench` to time beside the HTTP answer: the page (one row
 * more than asked), then what the total takes when the page is full: the planner's estimate, and the
 * capped count (which the portal skips when the estimate is far past the limit).
 */
export async function listStatements<Row extends { id: number }, F extends string, Q extends PgSelect>(
  db: Database,
  definition: ListDefinition<Row, F>,
  source: ListSourceOf<Row, F, Q>,
  scope: ListScope,
  params: Record<string, string>,
  paging: Partial<Paging> = {},
): Promise<{ text: string; values: unknown[] }[]> {
  const { validator, toQuery } = listQueryValidator(definition as ListDefinition<unknown>);
  const query = toQuery(await validator.validate(params));
  const built = sourceOf(db, definition, source, scope, query);
  if (!built) throw new Error('this scope holds no rows');
  const queries = pageQueries(db, { ...pagingOf(query), ...paging }, built);
  const statement = (query: { toSQL(): { sql: string; params: unknown[] } }, prefix = '') => {
    const { sql: text, params } = query.toSQL();
    return { text: prefix + text, values: params };
  };
  return [
    statement(queries.window),
    statement(queries.matching(), 'explain (format json) '),
    statement(queries.count()),
  ];
}
