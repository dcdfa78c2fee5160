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

const lagosParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: BOARD_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function partsInLagos(instant: string | Date) {
  const parts = Object.fromEntries(
    lagosParts.formatToParts(new Date(instant)).map((part) => [part.type, part.value]),
  );
  return parts as Record<'year' | 'month' | 'day' | 'hour' | 'minute', string>;
}

/** A moment's day in Lagos, YYYY-MM-DD: the board's calendar, whatever the clock zone of the machine. */
export function boardDay(instant: string | Date = new Date()): string {
  const { year, month, day } = partsInLagos(instant);
  return `${year}-${month}-${day}`;
}

/** A moment as 30/06/2027 14:05, Lagos time (24-hour clock). */
export function formatDateTime(instant: string | Date): string {
  const { year, month, day, hour, minute } = partsInLagos(instant);
  return `${day}/${month}/${year} ${hour}:${minute}`;
}
