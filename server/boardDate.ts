import { sql } from 'drizzle-orm';
import type { PaidWhen } from '../contract/payments';
import { boardDay } from '../contract/format';

/** Today in Lagos, YYYY-MM-DD: the board's calendar, whatever the server's clock zone. */
export function boardToday(now = new Date()): string {
  return boardDay(now);
}

/** The board's year in Lagos, as index numbers carry it. */
export function boardYear(now = new Date()): number {
  return Number(boardToday(now).slice(0, 4));
}

/** Lagos is UTC+1 all year (no summer time): a board day starts at 23:00 UTC the day before. */
export const startOfBoardDay = (day: string) => new Date(`${day}T00:00:00+01:00`);

/** Monday's midnight in Lagos, of the week holding `today` (YYYY-MM-DD). */
export function startOfBoardWeek(today: string): Date {
  const weekday = (new Date(`${today}T12:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  const monday = new Date(`${today}T12:00:00Z`);
  monday.setUTCDate(monday.getUTCDate() - weekday);
  return startOfBoardDay(monday.toISOString().slice(0, 10));
}

/**
 * The same starts by the database's clock, for a list's filter (a filter has no clock of its own):
 * midnight, or Monday's midnight, in Lagos, as a moment. Computed on UTC wall time shifted by Lagos's
 * hour, so it needs no time zone data and reads no session time zone.
 */
export const boardPeriodStart = (when: PaidWhen) =>
  sql`((date_trunc(${when === 'today' ? 'day' : 'week'}, (now() at time zone 'UTC') + interval '1 hour') - interval '1 hour') at time zone 'UTC')`;
