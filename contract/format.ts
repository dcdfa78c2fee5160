import { isRealIsoDate } from './dates';

/**
 * How the portal writes people's names, dates and times: one place, used by every page and list cell,
 * and by what the server makes later (CSV exports, printed documents), so they read the same
 * everywhere. Built on `Intl` alone: the runtime's ICU data knows the board's time zone.
 */

/** The board's clock: times are shown, and days are counted, as they are in Lagos. */
export const BOARD_TIME_ZONE = 'Africa/Lagos';

export interface PersonName {
  first_name: string;
  middle_name?: string | null;
  last_name: string;
}

/**
 * `Adaeze Chioma Okafor`: given names, then the surname, each as written. The portal's accounts have
 * one Full name field (spec section 2), which people fill in that order, so candidates read the same
 * way and a name has one shape on every page. The lists that sort by name sort by the surname column,
 * so the order does not depend on how the name is shown.
 */
export function formatPersonName(person: PersonName): string {
  return [person.first_name, person.middle_name, person.last_name]
    .map((name) => name?.trim())
    .filter(Boolean)
    .join(' ');
}

/** 2027-06-30 as 30/06/2027. Text that is not a YYYY-MM-DD date is shown as it is. */
export function formatDate(isoDate: string): string {
  if (!isRealIsoDate(isoDate)) return isoDate;
  const [year, month, day] = isoDate.split('-');
  return `${day}/${month}/${year}`;
}

type ClockParts = Record<'year' | 'month' | 'day' | 'hour' | 'minute', string>;

const DAY = 86_400_000;
/** The span read by arithmetic; a moment outside it is read by Intl each time. */
const FAST_FROM = Date.UTC(1900, 0, 1);
const FAST_TO = Date.UTC(2200, 0, 1);
/** 00 to 99, written once: a moment's text is four of them and a year. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => (n < 10 ? `0${n}` : String(n)));

/** Days in each month of a common year; February of a leap year has one more. */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const ZERO = 48;

/**
 * `Date.parse` of toISOString's own shape, `2027-06-30T13:05:59.999Z` (years 0000-9999), by arithmetic:
 * an export reads a million of them, and `Date.parse` was 2.3 % of its CPU by itself. NaN for
 * any other text (the caller asks `Date.parse`) and for a date or time that does not exist (as
 * `Date.parse` says of it). tests/contract/format.test.ts holds it to `Date.parse` on arbitrary text
 * of that shape.
 */
export function parseIsoMoment(text: string): number {
  if (
    text.length !== 24 ||
    text.charCodeAt(4) !== 45 || // -
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 84 || // T
    text.charCodeAt(13) !== 58 || // :
    text.charCodeAt(16) !== 58 ||
    text.charCodeAt(19) !== 46 || // .
    text.charCodeAt(23) !== 90 // Z
  )
    return NaN;
  return utcMoment(
    digitsAt(text, 0, 4),
    digitsAt(text, 5, 7),
    digitsAt(text, 8, 10),
    digitsAt(text, 11, 13),
    digitsAt(text, 14, 16),
    digitsAt(text, 17, 19),
    digitsAt(text, 20, 23),
  );
}

/**
 * A UTC date and time (month from 1) as milliseconds since 1970, by arithmetic, NaN where any part is
 * NaN or the date or time does not exist (30 February, 24:00): what `Date.parse` reads of toISOString's
 * text of it, for years 0 to 9999.
 */
export function utcMoment(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  ms: number,
): number {
  // (A NaN fails every comparison.)
  if (!(year >= 0 && month >= 1 && month <= 12 && hour <= 23 && minute <= 59 && second <= 59 && ms >= 0))
    return NaN;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (!(day >= 1 && day <= MONTH_DAYS[month - 1] + (month === 2 && leap ? 1 : 0))) return NaN;
  // Days since 1970-01-01 of a proleptic Gregorian date (the year counted from March).
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  const days = era * 146_097 + dayOfEra - 719_468;
  return days * DAY + hour * 3_600_000 + minute * 60_000 + second * 1000 + ms;
}

/**
 * The decimal number written at text[from, to), NaN if any of it is not a digit. (A function of its
 * own, not a closure made at each call: V8 then inlines it, and a closure a call was 4x slower.)
 */
export function digitsAt(text: string, from: number, to: number): number {
  let n = 0;
  for (let at = from; at < to; at++) {
    const d = text.charCodeAt(at) - ZERO;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
  }
  return n;
}

/** A moment given as text or a Date, in milliseconds (NaN when it is not one). */
const millisecondsOf = (instant: string | Date) => {
  if (typeof instant !== 'string') return instant.getTime();
  const time = parseIsoMoment(instant);
  return Number.isNaN(time) ? Date.parse(instant) : time;
};

/**
 * A zone's wall clock. Intl's `formatToParts` costs microseconds a call (a CSV export of a million rows
 * spent 30 % of its time there), so Intl is asked the zone's offset once a day (UTC), at the day's
 * first and last second, and a moment in a day whose two agree (every day but one that holds a change
 * of the zone's clock) is read by arithmetic from that offset; any other moment, and one before 1900 or
 * after 2199, is read by Intl itself. `wall` gives the wall clock as a moment whose UTC fields are it,
 * or NaN where Intl must read the moment (`intl`, which refuses what is not a moment as Intl does).
 */
function zoneClock(timeZone: string) {
  const options: Intl.DateTimeFormatOptions = {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  };
  // Made when first asked: a format costs milliseconds to build (tens on a slow phone's CPU), and every
  // page's start imports this module, most without showing a moment at once.
  let intlFormat: Intl.DateTimeFormat | undefined;
  let withSeconds: Intl.DateTimeFormat | undefined;
  const read = (format: Intl.DateTimeFormat, time: number) =>
    Object.fromEntries(format.formatToParts(time).map((part) => [part.type, part.value])) as Record<
      string,
      string
    >;
  const offsetAt = (time: number) => {
    withSeconds ??= new Intl.DateTimeFormat('en-GB', { ...options, second: '2-digit' });
    const p = read(withSeconds, time);
    return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - time;
  };
  // Day (since 1970) to the zone's offset in it, NaN where it changes within the day. 300 years of
  // days are 110,000 numbers: the map is emptied only past that.
  const offsets = new Map<number, number>();
  return {
    wall(time: number): number {
      if (!(time >= FAST_FROM && time < FAST_TO)) return NaN;
      const day = Math.floor(time / DAY);
      let offset = offsets.get(day);
      if (offset === undefined) {
        if (offsets.size >= 120_000) offsets.clear();
        const first = offsetAt(day * DAY);
        offset = first === offsetAt(day * DAY + DAY - 1000) ? first : NaN;
        offsets.set(day, offset);
      }
      return time + offset;
    },
    intl: (time: number) =>
      read((intlFormat ??= new Intl.DateTimeFormat('en-GB', options)), time) as ClockParts,
  };
}

/**
 * A zone's wall clock at a moment, in parts (zoneClock). Exported for its test, which holds it to Intl
 * in zones with summer time and odd offsets.
 */
export function zonedClock(timeZone: string): (instant: string | Date) => ClockParts {
  const zone = zoneClock(timeZone);
  return (instant) => {
    const time = millisecondsOf(instant);
    const wall = zone.wall(time);
    if (Number.isNaN(wall)) return zone.intl(time);
    const local = new Date(wall);
    return {
      year: String(local.getUTCFullYear()),
      month: TWO_DIGITS[local.getUTCMonth() + 1],
      day: TWO_DIGITS[local.getUTCDate()],
      hour: TWO_DIGITS[local.getUTCHours()],
      minute: TWO_DIGITS[local.getUTCMinutes()],
    };
  };
}

/**
 * A zone's 30/06/2027 14:05 of a moment, written from the wall clock without the parts (a CSV export
 * writes one a row). Exported for its test, which holds it to Intl as it holds zonedClock.
 */
export function zonedDateTime(timeZone: string): (instant: string | Date) => string {
  const zone = zoneClock(timeZone);
  const two = (n: number) => TWO_DIGITS[n];
  // The wall clock's day (since 1970) to its `30/06/2027 ` (a Date once a day, not once a moment).
  const days = new Map<number, string>();
  const dayText = (day: number) => {
    let text = days.get(day);
    if (text === undefined) {
      if (days.size >= 120_000) days.clear();
      const local = new Date(day * DAY);
      text = `${two(local.getUTCDate())}/${two(local.getUTCMonth() + 1)}/${local.getUTCFullYear()} `;
      days.set(day, text);
    }
    return text;
  };
  return (instant) => {
    const time = millisecondsOf(instant);
    const wall = zone.wall(time);
    if (Number.isNaN(wall)) {
      const { year, month, day, hour, minute } = zone.intl(time);
      return `${day}/${month}/${year} ${hour}:${minute}`;
    }
    const day = Math.floor(wall / DAY);
    const minutes = Math.floor((wall - day * DAY) / 60_000);
    return dayText(day) + two(Math.floor(minutes / 60)) + ':' + two(minutes % 60);
  };
}

const partsInLagos = zonedClock(BOARD_TIME_ZONE);
const dateTimeInLagos = zonedDateTime(BOARD_TIME_ZONE);

/** A moment's day in Lagos, YYYY-MM-DD: the board's calendar, whatever the clock zone of the machine. */
export function boardDay(instant: string | Date = new Date()): string {
  const { year, month, day } = partsInLagos(instant);
  return `${year}-${month}-${day}`;
}

/** A moment as 30/06/2027 14:05, Lagos time (24-hour clock). */
export function formatDateTime(instant: string | Date): string {
  return dateTimeInLagos(instant);
}
