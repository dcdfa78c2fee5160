/**
 * Dates as the board writes them and as the API carries them. People type DD/MM/YYYY; the API takes
 * and gives YYYY-MM-DD (the spec's 'year-month-day form'); both are checked as real calendar dates
 * here, for a candidate's date of birth and an offence's sanction dates alike.
 */

export const DATE_MESSAGES = {
  /** A date that is not a real one (31/02/2027), or not written as one. */
  invalid: 'Enter a real date (DD/MM/YYYY)',
} as const;

/** A real calendar date written year-month-day (what the API takes). */
export function isRealIsoDate(value: unknown): value is string {
  const match = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  if (!match) return false;
  const date = new Date(Date.UTC(+match[1], +match[2] - 1, +match[3]));
  return (
    date.getUTCFullYear() === +match[1] &&
    date.getUTCMonth() === +match[2] - 1 &&
    date.getUTCDate() === +match[3]
  );
}

/** How the board writes a date, for hints and placeholders. */
export const BOARD_DATE_PATTERN = 'DD/MM/YYYY';

/**
 * A date typed as DD/MM/YYYY (a day or month of one digit, and '.', '-' or a space between the parts,
 * are taken too: people type 9/3/2001 and 09.03.2001) as YYYY-MM-DD; null when it is not a real date
 * written that way (31/02/2001, 2001-03-09, 9/3/01).
 */
export function parseBoardDate(typed: string): string | null {
  const match = /^\s*(\d{1,2})\s*[/.\- ]\s*(\d{1,2})\s*[/.\- ]\s*(\d{4})\s*$/.exec(typed);
  if (!match) return null;
  const iso = `${match[3]}-${match[2].padStart(2, '0')}-${match[1].padStart(2, '0')}`;
  return isRealIsoDate(iso) ? iso : null;
}
