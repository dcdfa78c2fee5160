/**
 * Exam diets (for example "May 2027 Professional Examinations"): the sittings registration, resits,
 * sanctions, fees, scores and documents belong to. A diet has its paper dates and its registration
 * window (opens at, closes at: moments, written and shown in the board's time zone); one diet is current
 * for registration at a time; a closed diet is past and stays readable. The board may extend the window
 * for one school (until when, and why). The validators are in diets.validators.ts.
 */

import { DATE_MESSAGES, isRealIsoDate } from './dates';
import { BOARD_TIME_ZONE, formatDate, formatDateTime } from './format';

/** A diet's code: capitals, digits and dashes, e.g. MAY-2027 (it names the diet in CSVs and filters). */
export const DIET_CODE_PATTERN = /^[A-Z0-9][A-Z0-9-]{1,19}$/;
export const DIET_NAME_MAX = 120;
export const EXTENSION_REASON_MAX = 500;
/** The time of a moment as the board types it (17:00, seconds optional), after its date and a 'T'. */
const BOARD_TIME_PATTERN = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;
/** Reminders go to schools with verified candidates still unregistered, this many hours before closing. */
export const REMINDER_HOURS = [72, 24] as const;

export const DIET_MESSAGES = {
  codeRequired: 'Code is required',
  codeInvalid: 'The code is 2 to 20 capital letters, digits or dashes, like MAY-2027',
  codeTaken: 'There is already a diet with this code',
  nameRequired: 'Name is required',
  tooLong: 'This is too long',
  dateRequired: 'Enter a date (DD/MM/YYYY)',
  dateInvalid: DATE_MESSAGES.invalid,
  lastBeforeFirst: 'The last paper cannot be before the first',
  momentRequired: 'Enter a date and time',
  momentInvalid: 'Enter a real date and time',
  closesBeforeOpens: 'Registration must close after it opens',
  closesAfterPapers: 'Registration must close before the first paper',
  notFound: 'There is no such diet.',
  dietRequired: 'Choose the diet',
  dietUnknown: 'Choose a diet from the list',
  closed: 'This diet is closed, so it cannot be changed.',
  created: 'Diet created.',
  updated: 'Diet updated.',
  madeCurrent: 'This diet is now current for registration.',
  closedNow: 'The diet is closed.',
  schoolRequired: 'Choose a training school',
  schoolUnknown: 'There is no training school with this code',
  untilRequired: 'Enter the date and time the extension runs to',
  untilNotAfterClose: "The extension must run past the diet's closing time",
  reasonRequired: 'Say why the extension is granted',
  extensionGranted: 'The extension is granted.',
  extensionWithdrawn: 'The extension is withdrawn.',
  extensionNotFound: 'This school has no extension for this diet.',
  /** Registration for a diet is refused with one of these (both roles). */
  noCurrentDiet: 'No diet is open for registration yet. The board will announce the next one.',
  notVerified: "The board has not verified this candidate's documents yet, so they cannot be registered",
} as const;

/** Why registration is refused when the window is not open (school admins; the time in Lagos). */
export const windowClosedMessage = (diet: string, closedAt: string) =>
  `Registration for ${diet} closed at ${formatDateTime(closedAt)} (Lagos time)`;
export const windowNotYetOpenMessage = (diet: string, opensAt: string) =>
  `Registration for ${diet} opens at ${formatDateTime(opensAt)} (Lagos time)`;
export const dietClosedMessage = (diet: string) => `${diet} is closed, so nothing can be registered for it`;

/** A diet as the admin's list shows it. Moments are ISO instants; dates are YYYY-MM-DD. */
export interface DietRow {
  id: number;
  code: string;
  name: string;
  first_paper_on: string;
  last_paper_on: string;
  registration_opens_at: string;
  registration_closes_at: string;
  current: boolean;
  closed_at: string | null;
  /** Candidates registered for it. */
  registered: number;
  /** Schools with an extension. */
  extensions: number;
}

/** A diet as a filter or form offers it. */
export interface DietChoice {
  code: string;
  name: string;
  current: boolean;
  closed: boolean;
}

export interface DietExtension {
  school: { code: string; name: string };
  until: string;
  reason: string;
  granted_by: string | null;
  granted_at: string;
}

/**
 * The registration window as it applies to the caller (a school admin: with their extension), and the
 * server's clock when it answered, so a countdown runs on the server's time, not the browser's.
 */
export interface RegistrationWindow {
  diet: { code: string; name: string } | null;
  opens_at: string | null;
  /** When the diet's window closes for everyone. */
  closes_at: string | null;
  /** The caller's school's extension, if any (school admins only). */
  extension: { until: string; reason: string } | null;
  /** Whether registration is open for the caller now. */
  open: boolean;
  /** open: when it closes for the caller (their extension, or the diet's close); else when it opens. */
  next_change_at: string | null;
  server_now: string;
}

/** The parts of a moment in Lagos time: what the board's form shows in a datetime-local input. */
export function toBoardMoment(instant: string | Date): string {
  const text = formatDateTime(instant); // 30/06/2027 14:05
  const [day, month, year, hour, minute] = text.split(/[/ :]/);
  return `${year}-${month}-${day}T${hour}:${minute}`;
}

const lagosOffset = new Intl.DateTimeFormat('en-GB', {
  timeZone: BOARD_TIME_ZONE,
  timeZoneName: 'longOffset',
});

/**
 * A moment typed in Lagos time (2027-03-31T17:00, seconds optional) as an ISO instant; null when it is
 * not a real date and time. The zone's offset comes from the runtime's zone data, not a constant.
 */
export function parseBoardMoment(typed: string): string | null {
  // The date by the one ISO-date rule (contract/dates.ts), the time by its own pattern.
  const [day, time, ...more] = typed.trim().split('T');
  const clock = time !== undefined && !more.length ? BOARD_TIME_PATTERN.exec(time) : null;
  if (!clock || !isRealIsoDate(day)) return null;
  const [hour, minute, second = '0'] = clock.slice(1);
  if (+hour > 23 || +minute > 59 || +second > 59) return null;
  const [year, month, date] = day.split('-');
  const asUtc = Date.UTC(+year, +month - 1, +date, +hour, +minute, +second);
  const zone =
    lagosOffset.formatToParts(new Date(asUtc)).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const offset = /GMT([+-])(\d{2}):(\d{2})/.exec(zone);
  const minutes = offset ? (offset[1] === '-' ? -1 : 1) * (+offset[2] * 60 + +offset[3]) : 0;
  return new Date(asUtc - minutes * 60_000).toISOString();
}

/**
 * 'Registration closes in 3 days 4 hours': the two largest units of what is left (minutes only under an
 * hour; 'less than a minute' at the end), counted on the server's clock.
 */
export function formatCountdown(milliseconds: number): string {
  if (milliseconds < 60_000) return 'less than a minute';
  const minutes = Math.floor(milliseconds / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (days > 0) return hours > 0 ? `${unit(days, 'day')} ${unit(hours, 'hour')}` : unit(days, 'day');
  if (hours > 0) return rest > 0 ? `${unit(hours, 'hour')} ${unit(rest, 'minute')}` : unit(hours, 'hour');
  return unit(rest, 'minute');
}

/** A diet's papers as the board writes them: 04/05/2027 to 15/05/2027. */
export const formatPaperDates = (diet: Pick<DietRow, 'first_paper_on' | 'last_paper_on'>) =>
  diet.first_paper_on === diet.last_paper_on
    ? formatDate(diet.first_paper_on)
    : `${formatDate(diet.first_paper_on)} to ${formatDate(diet.last_paper_on)}`;
