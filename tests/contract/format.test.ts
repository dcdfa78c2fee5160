import { describe, expect, it } from 'vitest';
import { parseBoardDate } from '../../contract/dates';
import {
  boardDay,
  formatDate,
  formatDateTime,
  formatPersonName,
  zonedClock,
  zonedDateTime,
} from '../../contract/format';

/** The one way the portal writes names, dates and times, and reads the dates people type. */

describe('parseBoardDate: DD/MM/YYYY as typed, to the API’s YYYY-MM-DD', () => {
  it.each([
    ['09/03/2001', '2001-03-09'],
    ['9/3/2001', '2001-03-09'],
    ['09.03.2001', '2001-03-09'],
    ['09-03-2001', '2001-03-09'],
    [' 29/02/2000 ', '2000-02-29'],
    ['31/12/1999', '1999-12-31'],
  ])('%j reads as %j', (typed, iso) => {
    expect(parseBoardDate(typed)).toBe(iso);
  });

  it.each([
    ['31/02/2001', 'no 31 February'],
    ['29/02/1900', '1900 was no leap year'],
    ['01/13/2001', 'no month 13'],
    ['00/01/2001', 'no day 0'],
    ['2001-03-09', 'year first is not how people type it'],
    ['9/3/01', 'a two-digit year is not a year'],
    ['yesterday', 'not a date'],
    ['', 'nothing'],
  ])('%j (%s) is not a date', (typed) => {
    expect(parseBoardDate(typed)).toBeNull();
  });
});

describe('formatDate', () => {
  it('writes a stored date as DD/MM/YYYY', () => {
    expect(formatDate('2027-06-30')).toBe('30/06/2027');
    expect(formatDate('2001-03-09')).toBe('09/03/2001');
  });

  it('shows anything else as it is, never a wrong date', () => {
    expect(formatDate('2001-02-30')).toBe('2001-02-30');
    expect(formatDate('')).toBe('');
  });
});

describe('formatDateTime and boardDay: Lagos time, whatever the machine’s zone', () => {
  it('shows a moment on the 24-hour clock of Lagos (UTC+1, no summer time)', () => {
    expect(formatDateTime('2026-11-23T13:05:00Z')).toBe('23/11/2026 14:05');
    expect(formatDateTime(new Date('2026-06-30T08:00:00Z'))).toBe('30/06/2026 09:00');
  });

  it('an hour before midnight in London is already the next day in Lagos', () => {
    expect(formatDateTime('2026-12-31T23:30:00Z')).toBe('01/01/2027 00:30');
    expect(boardDay(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
    expect(boardDay(new Date('2026-12-31T22:59:59Z'))).toBe('2026-12-31');
  });
});

describe('zonedClock: Intl read once a day, the same wall clock as Intl at every moment', () => {
  const byIntl = (timeZone: string) => {
    const format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    return (time: number) => {
      const parts = Object.fromEntries(format.formatToParts(time).map((part) => [part.type, part.value]));
      return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}`;
    };
  };
  // Summer time at whole hours (London), at half past (St John's), by half an hour (Lord Howe), an
  // offset of 5:45 (Kathmandu), Lagos' own history (+0:13:35 local mean time until 1919, then +0:30, +1).
  it.each(['Africa/Lagos', 'Europe/London', 'America/St_Johns', 'Australia/Lord_Howe', 'Asia/Kathmandu'])(
    '%s',
    (timeZone) => {
      const clock = zonedClock(timeZone);
      const intl = byIntl(timeZone);
      const show = (time: number) => {
        const p = clock(new Date(time));
        return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
      };
      let seed = 7;
      const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
      const moments: number[] = [];
      // Every 17 minutes and 13 seconds through two years of clock changes, and moments either side.
      for (let time = Date.UTC(2025, 0, 1); time < Date.UTC(2027, 0, 1); time += 1_033_000)
        moments.push(time);
      for (let i = 0; i < 10_000; i++)
        moments.push(Date.UTC(1850, 0, 1) + Math.floor(random() * 400 * 365.25 * 86_400_000));
      // zonedDateTime writes the same text without the parts, from a moment as text or as a Date.
      const dateTime = zonedDateTime(timeZone);
      const differing = moments.filter(
        (time) =>
          show(time) !== intl(time) ||
          dateTime(new Date(time)) !== intl(time) ||
          dateTime(new Date(time).toISOString()) !== intl(time),
      );
      expect(differing.map((time) => new Date(time).toISOString())).toEqual([]);
    },
  );

  it('takes the text of a moment as a Date does, and refuses what is not one as Intl does', () => {
    const clock = zonedClock('Africa/Lagos');
    expect(clock('2026-11-23T13:05:59.999Z')).toEqual({
      year: '2026',
      month: '11',
      day: '23',
      hour: '14',
      minute: '05',
    });
    expect(() => clock('not a moment')).toThrow(RangeError);
    expect(zonedDateTime('Africa/Lagos')('2026-11-23T13:05:59.999Z')).toBe('23/11/2026 14:05');
    expect(() => zonedDateTime('Africa/Lagos')('not a moment')).toThrow(RangeError);
  });
});

describe("formatPersonName: given names, then the surname, as the accounts' Full name is written", () => {
  it('writes the first, middle and last names in that order', () => {
    expect(formatPersonName({ first_name: 'Adaeze', middle_name: 'Chioma', last_name: 'Okafor' })).toBe(
      'Adaeze Chioma Okafor',
    );
  });

  it('leaves out a missing or empty middle name and stray spaces', () => {
    expect(formatPersonName({ first_name: 'Bola', middle_name: null, last_name: 'Adeyemi' })).toBe(
      'Bola Adeyemi',
    );
    expect(formatPersonName({ first_name: ' Bola ', middle_name: ' ', last_name: ' Adeyemi ' })).toBe(
      'Bola Adeyemi',
    );
  });

  it('keeps the marks of Yoruba and Igbo names as written', () => {
    expect(formatPersonName({ first_name: 'Adéọlá', last_name: 'Ọ̀ṣúnníyì' })).toBe('Adéọlá Ọ̀ṣúnníyì');
  });
});
