import { digitsAt, utcMoment } from '../../contract/format';

const PLUS = 43;
const ZERO = 48;
const DOT = 46;
const SPACE = 32;
const DASH = 45;
const COLON = 58;

/**
 * PostgreSQL's text of a `timestamp with time zone` (DateStyle ISO, a UTC session: both drivers' sessions
 * here, `2027-06-30 13:05:59.123456+00`) as `toISOString` writes the moment (`2027-06-30T13:05:59.123Z`),
 * by cutting the text rather than through a `Date`: Drizzle's decoding (`new Date` of the text) and
 * `toISOString` were most of the 10-18 % of a million-row export's CPU that its "Indexed at" cell took.
 * Any other text (another zone's offset, a year before 1000 or past 9999, a date that does not exist)
 * goes the ordinary way, `new Date(text)`, and so does what is not a moment (`toISOString` throws, as it
 * did). tests/api/timestamps.test.ts holds it to `new Date(text).toISOString()` on arbitrary text of the
 * shape, and to PGlite's and PostgreSQL's own.
 */
export function timestamptzIso(text: string): string {
  const n = text.length;
  const first = text.charCodeAt(0);
  if (
    (n === 22 || (n >= 24 && n <= 29)) &&
    first > ZERO &&
    first <= ZERO + 9 &&
    text.charCodeAt(4) === DASH &&
    text.charCodeAt(7) === DASH &&
    text.charCodeAt(10) === SPACE &&
    text.charCodeAt(13) === COLON &&
    text.charCodeAt(16) === COLON &&
    text.charCodeAt(n - 3) === PLUS &&
    text.charCodeAt(n - 2) === ZERO &&
    text.charCodeAt(n - 1) === ZERO &&
    (n === 22 || text.charCodeAt(19) === DOT) &&
    // Every digit of the fraction a digit (the fourth on are cut, as Date reads them).
    (n < 24 || !Number.isNaN(digitsAt(text, 20, n - 3)))
  ) {
    // Read here, on the database's own (flat) text, for the check: the ISO text below is made of pieces.
    const fraction = n - 23;
    const ms =
      fraction <= 0
        ? 0
        : digitsAt(text, 20, 20 + Math.min(fraction, 3)) * (fraction === 1 ? 100 : fraction === 2 ? 10 : 1);
    const moment = utcMoment(
      digitsAt(text, 0, 4),
      digitsAt(text, 5, 7),
      digitsAt(text, 8, 10),
      digitsAt(text, 11, 13),
      digitsAt(text, 14, 16),
      digitsAt(text, 17, 19),
      ms,
    );
    if (!Number.isNaN(moment)) {
      const millis =
        fraction >= 3
          ? text.slice(19, 23)
          : fraction === 2
            ? text.slice(19, 22) + '0'
            : fraction === 1
              ? text.slice(19, 21) + '00'
              : '.000';
      return text.slice(0, 10) + 'T' + text.slice(11, 19) + millis + 'Z';
    }
  }
  return new Date(text).toISOString();
}
