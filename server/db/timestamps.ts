import { parseIsoMoment } from '../../contract/format';

const PLUS = 43;
const ZERO = 48;
const DOT = 46;
const SPACE = 32;

/**
 * PostgreSQL's text of a `timestamp with time zone` (DateStyle ISO, a UTC session: both drivers' sessions
 * here, `2027-06-30 13:05:59.123456+00`) as `toISOString` writes the moment (`2027-06-30T13:05:59.123Z`),
 * by cutting the text rather than through a `Date`: Drizzle's decoding (`new Date` of the text) and
 * `toISOString` were a tenth of a million-row export's time. Any other text (another zone's offset, a
 * year before 1000 or past 9999, a date that does not exist) goes the ordinary way, `new Date(text)`, and
 * so does what is not a moment (`toISOString` throws, as it did). tests/api/timestamps.test.ts holds it
 * to `new Date(text).toISOString()` on arbitrary text of the shape, and to PGlite's and PostgreSQL's own.
 */
export function timestamptzIso(text: string): string {
  const n = text.length;
  const first = text.charCodeAt(0);
  const fast =
    (n === 22 || (n >= 24 && n <= 29)) &&
    first > ZERO &&
    first <= ZERO + 9 &&
    text.charCodeAt(10) === SPACE &&
    text.charCodeAt(n - 3) === PLUS &&
    text.charCodeAt(n - 2) === ZERO &&
    text.charCodeAt(n - 1) === ZERO &&
    (n === 22 || text.charCodeAt(19) === DOT);
  if (fast) {
    // Milliseconds: the fraction's first three digits (the rest cut, as Date reads them), zeros after.
    let ms: string;
    if (n === 22) ms = '.000';
    else if (n >= 26) ms = text.slice(19, 23);
    else ms = n === 24 ? text.slice(19, 21) + '00' : text.slice(19, 22) + '0';
    let digits = true;
    for (let at = 23; at < n - 3; at++) {
      const d = text.charCodeAt(at) - ZERO;
      if (d < 0 || d > 9) digits = false;
    }
    const iso = text.slice(0, 10) + 'T' + text.slice(11, 19) + ms + 'Z';
    // The date, the time and the first three digits of the fraction, checked as toISOString's shape.
    if (digits && !Number.isNaN(parseIsoMoment(iso))) return iso;
  }
  return new Date(text).toISOString();
}
