import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timestamptzIso } from '../../server/db/timestamps';
import { startTestPortal, type TestPortal } from './portal';

/**
 * timestamptzIso: PostgreSQL's text of a moment to toISOString's, cut from the text rather than read
 * through a Date, gives what Drizzle's decoding and toISOString gave (`new Date(text).toISOString()`),
 * on arbitrary text of the shape and on the database's own text (PGlite by default, PostgreSQL with
 * DATABASE_URL).
 */

/** What the export did before: Drizzle's decoding (`new Date` of the text), then toISOString. */
const ordinary = (text: string) => {
  try {
    return new Date(text).toISOString();
  } catch (error) {
    return (error as Error).name;
  }
};
const fast = (text: string) => {
  try {
    return timestamptzIso(text);
  } catch (error) {
    return (error as Error).name;
  }
};

const digits = (length: number, max = 9) =>
  fc.array(fc.integer({ min: 0, max }), { minLength: length, maxLength: length }).map((ds) => ds.join(''));

describe('timestamptzIso: the same text as new Date(text).toISOString()', () => {
  it('on arbitrary text of PostgreSQL’s shape, days and times that do not exist and other offsets too', () => {
    const text = fc
      .record({
        year: fc.oneof(
          fc.integer({ min: 1000, max: 9999 }).map(String),
          digits(4),
          digits(5),
          fc.integer({ min: 1899, max: 2201 }).map(String),
        ),
        month: fc.oneof(
          fc.integer({ min: 1, max: 12 }).map((m) => String(m).padStart(2, '0')),
          digits(2, 3),
        ),
        day: fc.oneof(
          fc.integer({ min: 1, max: 31 }).map((d) => String(d).padStart(2, '0')),
          digits(2, 3),
        ),
        hour: fc.oneof(
          fc.integer({ min: 0, max: 23 }).map((h) => String(h).padStart(2, '0')),
          digits(2, 2),
        ),
        minute: digits(2, 6),
        second: digits(2, 6),
        fraction: fc.oneof(
          fc.constant(''),
          fc.integer({ min: 1, max: 7 }).chain((n) => digits(n)),
        ),
        separator: fc.constantFrom(' ', ' ', ' ', 'T', 'x'),
        offset: fc.constantFrom('+00', '+00', '+00', '+01', '-00', '+05:30', 'Z', '', '+00 BC', '+0'),
      })
      .map(
        (p) =>
          `${p.year}-${p.month}-${p.day}${p.separator}${p.hour}:${p.minute}:${p.second}` +
          `${p.fraction ? `.${p.fraction}` : ''}${p.offset}`,
      );
    fc.assert(
      fc.property(text, (t) => {
        expect(fast(t)).toBe(ordinary(t));
      }),
      { numRuns: 20_000 },
    );
  });

  it('on text that is not a moment, throws as toISOString did', () => {
    for (const t of ['', 'infinity', '-infinity', 'not a moment', '2027-06-30 13:05:59.123+0x'])
      expect(fast(t)).toBe(ordinary(t));
    expect(() => timestamptzIso('infinity')).toThrow(RangeError);
  });
});

describe('timestamptzIso on the database’s own text', () => {
  let t: TestPortal;

  beforeAll(async () => {
    t = await startTestPortal();
  }, 240_000);

  afterAll(async () => {
    await t?.close();
  });

  it('every moment from 1000 to 9999, to the microsecond, as the moment it is', async () => {
    let seed = 11;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const from = Date.UTC(1000, 0, 1);
    const to = Date.UTC(9999, 11, 31);
    // Microseconds since 1970: whole seconds, whole milliseconds, and any microsecond.
    const micros = Array.from({ length: 3_000 }, (_, i) => {
      const ms = from + Math.floor(random() * (to - from));
      const us = Math.floor(random() * 1000);
      return i % 3 === 0 ? Math.floor(ms / 1000) * 1_000_000 : i % 3 === 1 ? ms * 1000 : ms * 1000 + us;
    });
    const result = (await t.portal.database.db.execute(
      sql`select (timestamptz 'epoch' + (m / 1000000) * interval '1 second' + (m % 1000000) * interval '1 microsecond')
          as at, m::text as micros
        from unnest(${`{${micros.join(',')}}`}::bigint[]) as m`,
    )) as unknown as { rows: { at: string; micros: string }[] };
    expect(result.rows).toHaveLength(micros.length);
    for (const row of result.rows) {
      expect(typeof row.at).toBe('string');
      // (BigInt: microseconds past 2255 are more than a double holds exactly; floored, as before 1970.)
      const m = BigInt(row.micros);
      const ms = m / 1000n - (m % 1000n < 0n ? 1n : 0n);
      const expected = new Date(Number(ms)).toISOString();
      expect([row.at, timestamptzIso(row.at)]).toEqual([row.at, expected]);
      expect(timestamptzIso(row.at)).toBe(ordinary(row.at));
    }
  });
});
