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

/** A moment given as text or a Date, in milliseconds (NaN when it is not one). */
const millisecondsOf = (instant: string | Date) =>
  typeof instant === 'string' ? Date.parse(instant) : instant.getTime();

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
  return (instant) => {
    const time = millisecondsOf(instant);
    const wall = zone.wall(time);
    if (Number.isNaN(wall)) {
      const { year, month, day, hour, minute } = zone.intl(time);
      return `${day}/${month}/${year} ${hour}:${minute}`;
    }
    const local = new Date(wall);
    const date = `${two(local.getUTCDate())}/${two(local.getUTCMonth() + 1)}/${local.getUTCFullYear()}`;
    return `${date} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}`;
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
