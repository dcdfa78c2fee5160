/** The board's calendar: dates as they are in Lagos, whatever the server's clock zone. */
const lagosDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Africa/Lagos',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** Today in Lagos, YYYY-MM-DD. */
export function boardToday(now = new Date()): string {
  return lagosDate.format(now);
}

/** The board's year in Lagos, as index numbers carry it. */
export function boardYear(now = new Date()): number {
  return Number(boardToday(now).slice(0, 4));
}
