import { DEFAULT_PER_PAGE, MAX_PER_PAGE, type Page } from '../../contract/pagination';
import type { AppContext } from './context';

export interface Paging {
  page: number;
  perPage: number;
  offset: number;
}

/** Far past any real list; keeps OFFSET a sane number whatever the query says. */
const MAX_PAGE = 100_000;

/**
 * `?page=&per_page=` read leniently, since they come from links and address bars: anything that is
 * not a whole number from 1 falls back to the default, and per_page is capped at MAX_PER_PAGE.
 */
export function readPaging(c: AppContext): Paging {
  const whole = (raw: string | undefined, fallback: number) => {
    const value = Number(raw);
    return raw && Number.isInteger(value) && value >= 1 ? value : fallback;
  };
  const page = Math.min(whole(c.req.query('page'), 1), MAX_PAGE);
  const perPage = Math.min(whole(c.req.query('per_page'), DEFAULT_PER_PAGE), MAX_PER_PAGE);
  return { page, perPage, offset: (page - 1) * perPage };
}

export const pageOf = <T>(items: T[], paging: Paging, total: number): Page<T> => ({
  items,
  page: paging.page,
  per_page: paging.perPage,
  total,
});

/** A LIKE pattern that finds `text` anywhere, with the user's own % and _ taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
