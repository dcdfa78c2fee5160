import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBoardDate } from '../../contract/dates';
import {
  boardDay,
  formatDate,
  formatDateTime,
  formatPersonName,
  parseIsoMoment,
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
      const differing = moments.filter((time) => {
        const expected = intl(time);
        return (
          show(time) !== expected ||
          dateTime(new Date(time)) !== expected ||
          dateTime(new Date(time).toISOString()) !== expected
        );
      });
      expect(differing.map((time) => new Date(time).toISOString())).toEqual([]);
    },
    // Intl at 71,000 moments a zone: seconds on a busy machine (5 s was reached at load 9).
    30_000,
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

describe('parseIsoMoment: Date.parse of toISOString’s shape, by arithmetic', () => {
  const digits = (length: number, max = 9) =>
    fc.array(fc.integer({ min: 0, max }), { minLength: length, maxLength: length }).map((ds) => ds.join(''));
  const two = (min: number, max: number) => fc.integer({ min, max }).map((n) => String(n).padStart(2, '0'));

  it('the same moment as Date.parse for every text of the shape it reads, NaN only where it leaves it', () => {
    // Fields in range and out of it (month 13, 30 February, 24:00, a letter), and the marks between.
    const text = fc
      .record({
        year: fc.oneof(digits(4), fc.integer({ min: 1895, max: 2205 }).map(String)),
        month: fc.oneof(two(1, 12), digits(2, 3)),
        day: fc.oneof(two(1, 31), digits(2, 3)),
        hour: fc.oneof(two(0, 23), digits(2, 2)),
        minute: fc.oneof(two(0, 59), digits(2, 6)),
        second: fc.oneof(two(0, 59), digits(2, 6)),
        ms: digits(3),
        marks: fc.constantFrom('--T::.Z', '--T::.Z', '--T::.Z', '-- ::.Z', '--T::,Z', '--T::.z', '--T:: Z'),
        letter: fc.oneof({ weight: 9, arbitrary: fc.constant(-1) }, fc.integer({ min: 0, max: 23 })),
      })
      .map(({ year, month, day, hour, minute, second, ms, marks, letter }) => {
        const [d1, d2, t, c1, c2, dot, z] = marks;
        const whole = `${year}${d1}${month}${d2}${day}${t}${hour}${c1}${minute}${c2}${second}${dot}${ms}${z}`;
        return letter < 0 ? whole : `${whole.slice(0, letter)}x${whole.slice(letter + 1)}`;
      });
    fc.assert(
      fc.property(text, (t) => {
        const fast = parseIsoMoment(t);
        if (!Number.isNaN(fast)) expect(fast).toBe(Date.parse(t));
      }),
      { numRuns: 30_000 },
    );
  });

  it('reads every moment toISOString writes from year 0 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), (time) => {
        expect(parseIsoMoment(new Date(time).toISOString())).toBe(time);
      }),
      { numRuns: 30_000 },
    );
    expect(parseIsoMoment('0000-01-01T00:00:00.000Z')).toBe(-62_167_219_200_000);
    expect(parseIsoMoment('2024-02-29T23:59:59.999Z')).toBe(Date.parse('2024-02-29T23:59:59.999Z'));
    expect(parseIsoMoment('2023-02-29T00:00:00.000Z')).toBeNaN();
    expect(parseIsoMoment('+002024-02-29T00:00:00.000Z')).toBeNaN();
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
