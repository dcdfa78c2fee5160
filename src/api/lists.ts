import { fromPromise } from 'xstate';
import { listParams, type ListDefinition } from '../../contract/lists';
import type { Page } from '../../contract/pagination';
import type { ListQuery } from '../../machines/list.machine';
import { downloadFile } from './download';
import { send } from './send';

/**
 * A list machine's fetchPage for a list: its definition's path, asked for the query's page, search,
 * filters and order (and the keyset cursor of the page next to the one shown); `data` is a Page.
 */
export function pageFetcher<Row>(definition: ListDefinition<Row>) {
  return fromPromise<Page<Row>, ListQuery>(async ({ input }) => {
    const params = listParams(definition as ListDefinition<unknown>, input);
    if (input.page === 1) params.set('page', '1');
    if (input.cursor && 'after' in input.cursor) params.set('after', String(input.cursor.after));
    if (input.cursor && 'before' in input.cursor) params.set('before', String(input.cursor.before));
    return (await send(definition, { query: params })).data;
  });
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
