/**
 * The Dashboard (/overview), the first page of both roles: the current diet first, then the counts a
 * board admin or a school admin starts the day with, each a link to the list it counts with the
 * list's filters set (`DASHBOARD_LINKS`, read by the page and by the tests that compare the counts
 * with the lists' totals), and the charts' data. Answered by one call a role
 * (dashboard.endpoints.ts).
 */

import type { RegistrationWindow } from './diets';
import type { PaidWhen } from './payments';
import type { SheetState } from './scores';

export interface DietRef {
  code: string;
  name: string;
}

/** One day's new registrations for the current diet (day: YYYY-MM-DD in Lagos time). */
export interface DayCount {
  day: string;
  count: number;
}

/** Candidates of one course header: indexed (all time) and registered for the current diet. */
export interface CourseHeaderCount {
  code: string;
  title: string;
  indexed: number;
  registered: number;
}

/** One school's published results for a diet: how many sat (a result published) and how many passed. */
interface SchoolPassRate {
  code: string;
  name: string;
  results: number;
  passed: number;
}

/** Candidates of the current diet, as the registered lists count them (filters in DASHBOARD_LINKS). */
interface DietCandidates {
  /** Every candidate indexed (all diets: indexing is not per diet). */
  indexed: number;
  /** Documents verified by the board. */
  verified: number;
  /** Registered for the current diet. */
  registered: number;
  /** Registered, and their registration fee for the diet credited. */
  paid: number;
  /** Registered, charged a registration fee of the diet, and not credited for it. */
  unpaid: number;
}

/** Money in, in kobo, and the number of payments credited. */
interface PaymentsTotal {
  count: number;
  amount_kobo: number;
}

export interface BoardDashboard {
  /** The diet current for registration (contract/diets.ts); null when none is. */
  diet: DietRef | null;
  /** Its registration window as it applies to the board (no extension), and the schools extended. */
  window: RegistrationWindow;
  extensions: number;
  schools: { active: number; suspended: number };
  candidates: DietCandidates;
  /** Paid since midnight and since Monday's midnight, Lagos time. */
  payments: { today: PaymentsTotal; week: PaymentsTotal };
  /** Scripts of the current diet out of tolerance, waiting for their third mark. */
  scripts_awaiting_third_marker: number;
  /** The current diet's score sheets by state. */
  sheets: Record<SheetState, number>;
  /** Open items of the payments reconciliation queue. */
  reconciliation_open: number;
  /** Unread notifications (what schools did and sent). */
  unread_notifications: number;
  /** Registrations per day for the current diet, the last `REGISTRATION_DAYS` days up to today. */
  registrations_per_day: DayCount[];
  candidates_per_course_header: CourseHeaderCount[];
  /**
   * The last diet with results published: the board's pass rate and the schools' (the
   * `PASS_RATE_SCHOOLS` schools with the most results, most first).
   */
  pass_rates: { diet: DietRef; results: number; passed: number; schools: SchoolPassRate[] } | null;
  /**
   * When the candidates' counts and the charts were counted (the job queue counts them each minute;
   * the other numbers are read at the visit).
   */
  counted_at: string;
}

export interface SchoolDashboard {
  diet: DietRef | null;
  /** The window as it applies to the school, its extension included. */
  window: RegistrationWindow;
  candidates: DietCandidates & { unverified: number; unregistered: number };
  /** The school's published results of the last diet it has any for. */
  results: { diet: DietRef; results: number; passed: number } | null;
  /** Broadcasts addressed to the school that ask for an acknowledgement it has not given. */
  broadcasts_to_acknowledge: number;
  /** Answers from the board not yet read, and conversations waiting for the board's answer. */
  messages_with_board: { unread_answers: number; open: number };
}

/** How many days of registrations the chart shows, and how many schools' pass rates. */
export const REGISTRATION_DAYS = 30;
export const PASS_RATE_SCHOOLS = 12;

/**
 * The page each number links to, with the list's filters in the query (the lists read them from the
 * address bar: contract/lists.ts viewFromParams). Where the list has no filter for what is counted, the
 * link is to the list as a whole, said by `filtered: false`.
 */
export interface DashboardLink {
  href: string;
  filtered: boolean;
}

const link = (
  path: string,
  params: Record<string, string | undefined> = {},
  filtered = true,
): DashboardLink => {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  const text = query.toString();
  return { href: text ? `${path}?${text}` : path, filtered };
};

export const DASHBOARD_LINKS = {
  schools: (status: 'active' | 'suspended') => link('/school', { status }),
  indexed: () => link('/candidate/candidate-indexed'),
  /** A school admin's candidates: their Registered Candidates list, every status. */
  schoolIndexed: () => link('/candidate/candidate-registered'),
  verified: () => link('/candidate/candidate-indexed', { verified: 'true' }),
  /** A school admin's candidates by status, on their Registered Candidates list. */
  schoolVerified: (verified: boolean) =>
    link('/candidate/candidate-registered', { verified: String(verified) }),
  registered: (diet: string | undefined, courseHeader?: string) =>
    link('/candidate/candidate-registered', { diet, reg_status: 'registered', course_header: courseHeader }),
  unregistered: (diet: string | undefined) =>
    link('/candidate/candidate-registered', { diet, reg_status: 'unregistered', verified: 'true' }),
  fee: (diet: string | undefined, fee: 'paid' | 'unpaid') =>
    link('/candidate/candidate-registered', { diet, reg_status: 'registered', registration_fee: fee }),
  indexedInCourse: (courseHeader: string) =>
    link('/candidate/candidate-indexed', { course_header: courseHeader }),
  /** The payments paid today or this week, Lagos time, as the Dashboard counts them. */
  paymentsPaid: (paid: PaidWhen) => link('/payments/histories', { paid }),
  /** Score entry's sheets of a diet in one state, or those with scripts waiting for a third marker. */
  sheets: (diet: string | undefined, show: SheetState | 'third_marker') => link('/score', { diet, show }),
  reconciliation: () => link('/payments/reconciliation', { state: 'open' }),
  notifications: () => link('/notifications'),
  diets: () => link('/courses/diets'),
  results: (diet: string, school?: string) => link('/score/results', { diet, school }),
  schoolResults: (diet: string) => link('/candidate/candidate-registered/results', { diet }),
} as const;
