/**
 * One page of a list, as every list endpoint answers it. The total is exact while counting is cheap;
 * past EXACT_TOTAL_LIMIT matches it is the database planner's estimate (`total_exact: false`), so a
 * page costs the same at a thousand rows and at a million. Whether a next page exists is known without
 * counting (`has_more`).
 */
export interface Page<T> {
  items: T[];
  page: number;
  per_page: number;
  total: number;
  /** False: `total` is an estimate, and there are more than EXACT_TOTAL_LIMIT matches. */
  total_exact: boolean;
  /** A next page exists. */
  has_more: boolean;
  /**
   * Keyset cursors of id-ordered lists: ask `?after=<next_cursor>` for the next page and
   * `?before=<prev_cursor>` for the previous one, so a deep page costs what the first does. Null: the
   * list pages by number only (short lists ordered by name or code).
   */
  next_cursor: number | null;
  prev_cursor: number | null;
}

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
/** Matches counted exactly, at most; past it the total is the planner's estimate. */
export const EXACT_TOTAL_LIMIT = 1_000;

/**
 * The total as a person reads it: "25", or "about 98,000" / "more than 1,000" when it is not exact;
 * `shown` is the last row on screen, which "about" never goes below.
 */
export function totalLabel(page: Pick<Page<unknown>, 'total' | 'total_exact'>, shown = 0): string {
  const number = (value: number) => value.toLocaleString('en-NG');
  if (page.total_exact) return number(page.total);
  if (page.total <= EXACT_TOTAL_LIMIT + 1) return `more than ${number(EXACT_TOTAL_LIMIT)}`;
  // Two significant figures: an estimate shown to the last digit would claim a precision it has not.
  // Rounded up when rounding would say fewer than the rows already paged through (`shown`).
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(page.total)) - 1);
  const rounded = Math.round(page.total / magnitude) * magnitude;
  return `about ${number(rounded < shown ? Math.ceil(page.total / magnitude) * magnitude : rounded)}`;
}
