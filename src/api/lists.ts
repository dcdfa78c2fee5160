import { fromPromise } from 'xstate';
import type { Page } from '../../contract/pagination';
import type { ListQuery } from '../../machines/list.machine';
import { call } from './client';

/** A list machine's fetchPage for an endpoint that answers `data: Page<T>` to ?page=&...filters. */
export function pageFetcher(path: string) {
  return fromPromise<Page<unknown>, ListQuery>(async ({ input }) => {
    const params = new URLSearchParams({ page: String(input.page) });
    for (const [name, value] of Object.entries(input.filters)) if (value) params.set(name, value);
    const response = await call<Page<unknown>>(`${path}?${params}`);
    return response.data!;
  });
}
