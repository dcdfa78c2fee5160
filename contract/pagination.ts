/** One page of a list, as every list endpoint answers it. */
export interface Page<T> {
  items: T[];
  page: number;
  per_page: number;
  total: number;
}

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

export function pageCount(page: Pick<Page<unknown>, 'per_page' | 'total'>): number {
  return Math.max(1, Math.ceil(page.total / page.per_page));
}
