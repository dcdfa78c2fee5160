import { boardDay } from '../contract/format';

/** Today in Lagos, YYYY-MM-DD: the board's calendar, whatever the server's clock zone. */
export function boardToday(now = new Date()): string {
  return boardDay(now);
}

/** The board's year in Lagos, as index numbers carry it. */
export function boardYear(now = new Date()): number {
  return Number(boardToday(now).slice(0, 4));
}
