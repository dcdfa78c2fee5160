import { fromPromise } from 'xstate';
import { listParams, viewFromParams, type ListDefinition } from '../../contract/lists';
import type { Page } from '../../contract/pagination';
import type { ListQuery } from '../../machines/list.machine';
import { downloadFile } from './download';
import { askEarly, takeEarly } from './early';
import { send } from './send';

/**
 * A list machine's fetchPage for a list: its definition's path, asked for the query's page, search,
 * filters and order (and the keyset cursor of the page next to the one shown); `data` is a Page.
 */
export function pageFetcher<Row>(definition: ListDefinition<Row>) {
  return fromPromise<Page<Row>, ListQuery>(({ input }) => {
    const params = pageParams(definition, input);
    return takeEarly(
      `list ${definition.path}?${params}`,
      async () => (await send(definition, { query: params })).data,
    );
  });
}

function pageParams<Row>(definition: ListDefinition<Row>, query: ListQuery) {
  const params = listParams(definition as ListDefinition<unknown>, query);
  if (query.page === 1) params.set('page', '1');
  if (query.cursor && 'after' in query.cursor) params.set('after', String(query.cursor.after));
  if (query.cursor && 'before' in query.cursor) params.set('before', String(query.cursor.before));
  return params;
}

/**
 * A list page opened cold (src/shell/pageChunks.ts): the page its list machine will ask for first (the
 * address bar's page, filters and order, as useList starts from them), asked for now, beside the page's
 * chunk; the machine's first fetch takes it (src/api/early.ts).
 */
export function askFirstPageEarly<Row>(definition: ListDefinition<Row>, search: string) {
  const params = pageParams(
    definition,
    viewFromParams(definition as ListDefinition<unknown>, new URLSearchParams(search)),
  );
  askEarly(`list ${definition.path}?${params}`, async () => (await send(definition, { query: params })).data);
}

/**
 * A list machine's exportRows: the CSV of every row of the query (`?format=csv` on the list's own
 * path, so its scope and access rule are the list's), fetched with the bearer token like every call,
 * then handed to the browser as a download under the name the server gives it. A refusal (a filter
 * the list does not take, a session that ended) comes back as the failure the list shows.
 */
export function csvExporter<Row>(definition: ListDefinition<Row>) {
  return fromPromise<void, ListQuery>(async ({ input }) => {
    const params = listParams(definition as ListDefinition<unknown>, { ...input, page: 1 });
    params.set('format', 'csv');
    await downloadFile(`${definition.path}?${params}`, `${definition.name}.csv`);
  });
}
