import { fromPromise } from 'xstate';
import type { Page } from '../../contract/pagination';
import type { ListQuery } from '../../machines/list.machine';
import { call } from './client';

/** A list machine's fetchPage for an endpoint that answers `data: Page<T>` to ?page=&...filters (and
 * the keyset cursor of the page next to the one shown). */
export function pageFetcher(path: string) {
  return fromPromise<Page<unknown>, ListQuery>(async ({ input }) => {
    const params = new URLSearchParams({ page: String(input.page) });
    if (input.cursor && 'after' in input.cursor) params.set('after', String(input.cursor.after));
    if (input.cursor && 'before' in input.cursor) params.set('before', String(input.cursor.before));
    for (const [name, value] of Object.entries(input.filters)) if (value) params.set(name, value);
    const response = await call<Page<unknown>>(`${path}?${params}`);
    return response.data!;
  });
}
