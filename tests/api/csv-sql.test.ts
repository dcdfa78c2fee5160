import { stringify } from 'csv-stringify/sync';
import { sql, type SQL } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REG_STATUSES, type CandidateRow } from '../../contract/candidates';
import { formatDateTime } from '../../contract/format';
import { CANDIDATES_LIST, REGISTERED_LISTS, type CsvColumn } from '../../contract/lists';
import type { Page } from '../../contract/pagination';
import { issueToken } from '../../server/auth/tokens';
import { candidateSource } from '../../server/candidates/list';
import { CSV_OPTIONS, csvWriter } from '../../server/lists/csv';
import { csvDateTime, csvPlain, csvText } from '../../server/lists/csvSql';
import { listRoute } from '../../server/lists/route';
import { fetchRaw, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * The candidate lists' CSV is written mostly by the database (ListSourceOf.csvLines, server/lists/
 * csvSql.ts), every other list's by the portal (csvWriter): the two must write the same bytes. Each SQL helper is
 * held to its TypeScript counterpart over arbitrary values, and the candidates' export over rows made to
 * break it, on the database the suite runs on (PGlite, and PostgreSQL in CI).
 */

let t: TestPortal;
let admin: string;
const db = () => t.portal.database.db;

/** `cell` of each value, in the database, as one `select` from the values unnested, in their order. */
async function cellsOf(
  cell: (value: SQL) => SQL,
  values: unknown[],
  type: 'text' | 'integer' | 'timestamptz',
) {
  const rows = await db().execute(
    sql`select ${cell(sql`u.v`)} as cell
      from unnest(${sql.param(values)}::${sql.raw(type)}[]) with ordinality as u(v, n) order by u.n`,
  );
  return (rows as unknown as { rows: { cell: string }[] }).rows.map((row) => row.cell);
}

/** The cell csvWriter writes for a value (its own `cell`, as the export uses it for a text part). */
const written = csvWriter([]).cell;

/** A school whose code and name need quoting and neutralising, and rows that break a line of CSV. */
const HOSTILE_SCHOOL = { code: 'CSV-SQL', name: '=School of "Health", Ward\r\nTwo' };
const HOSTILE_NAMES: [first: string, last: string, middle: string | null][] = [
  ['Line\nFeed', 'Carriage\rReturn', null],
  ['"Quoted"', 'Comma, Name', ''],
  ['=SUM(A1)', '+234', '-minus'],
  ['@once', '\tTabbed', '\uFF1Dfull-width'],
  ['\uFF0Bplus', '\uFF0Dminus', '\uFF20at'],
  ['Ọlábísí', 'Adébáyọ̀-Ńnàmdí', "Chi'oma"],
  ['\r\n', ',', '"'],
];
/** Moments either side of Lagos' midnight and of a year's end (Lagos is an hour ahead of UTC). */
const MOMENTS = [
  '2016-03-01T22:59:59.999Z',
  '2016-03-01T23:00:00.000Z',
  '2016-12-31T23:30:00.000Z',
  '2016-02-28T23:59:00.000Z',
  '2016-06-30T13:05:59.000Z',
  '2016-01-01T00:00:00.000Z',
  '2016-07-15T09:00:30.000Z',
];

beforeAll(async () => {
  t = await startTestPortal();
  admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
  const createdBy = await userIdOf(t, 'admin@example.org');
  await db().execute(sql`
    insert into training_schools (code, name, state, country, address)
    values (${HOSTILE_SCHOOL.code}, ${HOSTILE_SCHOOL.name}, 'Oyo', 'NG', 'Ring Road')`);
  for (const [i, [first, last, middle]] of HOSTILE_NAMES.entries()) {
    await db().execute(sql`
      insert into candidates (candidate_index, training_school_id, course_header_id, year, first_name,
        middle_name, last_name, date_of_birth, candidate_category, marital_status, gender, nationality,
        created_by, created_at, verified)
      values ('WHB/16/A1/' || lpad(nextval('candidate_index_seq')::text, 6, '0'),
        (select id from training_schools where code = ${HOSTILE_SCHOOL.code}),
        (select id from course_headers where code = 'A1'),
        2016, ${first}, ${middle}, ${last}, '1990-01-01', 'fresh', 'S', 'female', 'NG', ${createdBy},
        ${MOMENTS[i]}, ${i % 2 === 0})`);
  }
});
afterAll(() => t?.close());

describe('the SQL of a CSV cell writes what csvWriter writes', () => {
  /** Every character csvWriter quotes, escapes or neutralises, among ordinary ones (no NUL: text holds none). */
  const character = fc.constantFrom(
    ...['a', 'Z', '0', ' ', 'é', 'Ụ', '\u0300', ';', "'", ',', '"', '\r', '\n', '\t', '=', '+', '-', '@'],
    ...['\uFF1D', '\uFF0B', '\uFF0D', '\uFF20', '😀'],
  );
  const text = fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit: character, maxLength: 10 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
    { weight: 1, arbitrary: fc.constant(null) },
  );

  it('csvText: text, quoted and neutralised as csv-stringify does', async () => {
    const values = fc.sample(text, 3_000);
    expect(await cellsOf(csvText, values, 'text')).toEqual(values.map(written));
  });

  it('csvPlain: a number as it is, nothing for null', async () => {
    const values = [...fc.sample(fc.integer({ min: -1_000_000, max: 1_000_000 }), 200), null];
    expect(await cellsOf(csvPlain, values, 'integer')).toEqual(values.map(written));
  });

  it("csvDateTime: formatDateTime's 30/06/2027 14:05 in the board's zone, nothing for null", async () => {
    const moments = fc
      .sample(
        fc.date({ min: new Date('1971-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
        2_000,
      )
      .map((date) => date.toISOString());
    const values = [...moments, ...MOMENTS, null];
    expect(await cellsOf(csvDateTime, values, 'timestamptz')).toEqual(
      values.map((value) => (value === null ? '' : formatDateTime(value))),
    );
  });

  it('the words a plain cell holds need no quoting (a plain cell is read once, never quoted)', () => {
    for (const word of [...REG_STATUSES, 'verified', 'unverified']) expect(written(word)).toBe(word);
  });
});

describe("the candidates' CSV lines", () => {
  const paged = async (path: string): Promise<CandidateRow[]> => {
    const rows: CandidateRow[] = [];
    for (let n = 1; ; n++) {
      const response = await t.request('GET', `${path}&per_page=100&page=${n}`, { token: admin });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const page: Page<CandidateRow> = response.body.data;
      rows.push(...page.items);
      if (!page.has_more) return rows;
    }
  };

  it('are byte for byte what csvWriter makes of the pages, for rows made to break a line', async () => {
    for (const list of [CANDIDATES_LIST, REGISTERED_LISTS.admin]) {
      const query = `${list.path}?school=${HOSTILE_SCHOOL.code}`;
      const rows = await paged(query);
      expect(rows).toHaveLength(HOSTILE_NAMES.length);
      const columns = list.columns as CsvColumn<CandidateRow>[];
      const expected = Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(
          stringify(
            [
              columns.map((column) => column.header),
              ...rows.map((row) => columns.map((column) => column.cell(row))),
            ],
            CSV_OPTIONS,
          ),
        ),
      ]);
      const raw = await fetchRaw(t, `${query}&format=csv`, { authorization: `Bearer ${admin}` });
      expect(raw.status).toBe(200);
      expect(Buffer.from(raw.bytes).toString('utf8')).toBe(expected.toString('utf8'));
      expect(Buffer.from(raw.bytes).equals(expected)).toBe(true);
    }
  });

  it("are refused at start when they are not written for the list's columns", () => {
    const [first, ...rest] = CANDIDATES_LIST.columns;
    const reordered = { ...CANDIDATES_LIST, columns: [...rest, first] };
    expect(() => listRoute(reordered, candidateSource)).toThrow(
      /CSV lines are written for the columns Index number, .* but its columns are Surname, /,
    );
    expect(() => listRoute(CANDIDATES_LIST, candidateSource)).not.toThrow();
  });
});
