import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { INPUT_MESSAGES } from '../../contract/input';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CandidateRow } from '../../contract/candidates';
import { CANDIDATES_LIST, LIST_MESSAGES, LISTS, REGISTERED_LISTS, SCHOOLS_LIST } from '../../contract/lists';
import type { Page } from '../../contract/pagination';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';
import { SCHOOL_ENDPOINTS } from '../../contract/schools.endpoints';
import { ACCESS_MATRIX } from '../../server/access';
import { issueToken } from '../../server/auth/tokens';
import { CSV_OPTIONS, csvWriter } from '../../server/lists/csv';
import { fetchRaw, seedCandidates, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * The one list helper (server/lists/), on the candidate lists, which have every feature: the scope of
 * the caller's school, search, filters, sort, paging, and the CSV export of the same query. The rows
 * of this file are in years no demo row has (2017 to 2019), so its filters see only them.
 */

let t: TestPortal;
let admin: string;
let school1: string;
const db = () => t.portal.database.db;
/** Past two CSV batches of 500 and a bit, all in 2018. */
const MANY = 2_500;

beforeAll(async () => {
  t = await startTestPortal();
  admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
  school1 = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
  await seedCandidates(t, [
    { first_name: 'Adaeze', last_name: 'Okafor', school: 'SHT-IB', course_header: 'A1', year: 2019 },
    { first_name: 'Bola', last_name: 'Ahmed', school: 'SHT-IB', course_header: 'A2', year: 2019 },
    {
      first_name: 'Chidi',
      last_name: 'Okonkwo',
      school: 'CHT-CA',
      course_header: 'A1',
      year: 2019,
      reg_status: 'registered',
    },
    { first_name: 'Dayo', last_name: 'Okoro', school: 'SHT-IB', course_header: 'A1', year: 2019 },
    { first_name: 'Efe', last_name: 'Obi', school: 'CHT-CA', course_header: 'B5', year: 2019 },
    // Cells a spreadsheet would take for formulas.
    {
      first_name: '=HYPERLINK("http://x")',
      last_name: 'Formula',
      school: 'SHT-IB',
      course_header: 'A1',
      year: 2017,
    },
    { first_name: '+1', last_name: '-Minus', school: 'SHT-IB', course_header: 'A1', year: 2017 },
    { first_name: '@SUM(A1)', last_name: 'At', school: 'SHT-IB', course_header: 'A1', year: 2017 },
    { first_name: '\tTab', last_name: 'Comma, "Quoted"', school: 'SHT-IB', course_header: 'A1', year: 2017 },
    // Names as the board writes them: tone marks, dots below, an apostrophe, a hyphen.
    { first_name: 'Ọlábísí', last_name: 'Adébáyọ̀-Ńnàmdí', school: 'SHT-IB', course_header: 'A2', year: 2017 },
    { first_name: "Chi'oma", last_name: 'Eze; "Jr", Ụ', school: 'CHT-CA', course_header: 'A2', year: 2017 },
  ]);
  const createdBy = await userIdOf(t, 'admin@example.org');
  await db().execute(sql`
    insert into candidates (candidate_index, training_school_id, course_header_id, year, first_name,
      last_name, date_of_birth, candidate_category, marital_status, gender, nationality, created_by)
    select 'WHB/18/B1/' || lpad(nextval('candidate_index_seq')::text, 6, '0'),
      (select id from training_schools where code = 'SHT-JS'), (select id from course_headers where code = 'B1'),
      2018, 'Stream', 'Person' || n, '1990-01-01', 'fresh', 'S', 'female', 'NG', ${createdBy}
    from generate_series(1, ${MANY}) as n`);
});
afterAll(() => t?.close());

const get = (path: string, token = admin) => t.request('GET', path, { token });

const page = async (path: string, token = admin): Promise<Page<CandidateRow>> => {
  const response = await get(path, token);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
};

/** Every row of a list, page by page (as the SPA walks it), in order. */
async function allPages(path: string, token = admin): Promise<CandidateRow[]> {
  const rows: CandidateRow[] = [];
  for (let n = 1; ; n++) {
    const data = await page(`${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${n}`, token);
    rows.push(...data.items);
    if (!data.has_more) return rows;
  }
}

/** A CSV download: its rows under its header, parsed by a CSV library (fetch's text() drops the BOM). */
async function csv(path: string, token = admin) {
  const response = await get(`${path}${path.includes('?') ? '&' : '?'}format=csv`, token);
  expect(response.status, String(response.body)).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  const text = response.body as string;
  const [header, ...rows] = parse(text) as string[][];
  return { header, rows, response, text };
}

const INDEX = 0;

describe('the definitions', () => {
  it('name each list route once, with the roles the access matrix gives its path', () => {
    const paths = LISTS.map((list) => list.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const list of LISTS) {
      const rule = ACCESS_MATRIX.find((entry) => entry.method === 'GET' && entry.path === list.path);
      expect(rule?.allow, list.path).toEqual(list.roles);
    }
  });
});

describe('search, filters and sort', () => {
  it('a search and a filter together, in the default order (newest first) with keyset cursors', async () => {
    const data = await page(`${CANDIDATE_ENDPOINTS.list.path}?year=2019&search=oko&school=SHT-IB`);
    expect(data.items.map((row) => row.last_name)).toEqual(['Okoro']);
    const all = await page(`${CANDIDATE_ENDPOINTS.list.path}?year=2019&per_page=2`);
    expect(all.next_cursor).toBe(all.items[1].id);
  });

  it('sorts by a column in its own direction or the one asked, and pages such an order by number', async () => {
    const byName = await page(`${CANDIDATE_ENDPOINTS.list.path}?year=2019&sort=name`);
    expect(byName.items.map((row) => row.last_name)).toEqual(['Ahmed', 'Obi', 'Okafor', 'Okonkwo', 'Okoro']);
    const reversed = await page(`${CANDIDATE_ENDPOINTS.list.path}?year=2019&sort=name&direction=desc`);
    expect(reversed.items.map((row) => row.last_name)).toEqual([
      'Okoro',
      'Okonkwo',
      'Okafor',
      'Obi',
      'Ahmed',
    ]);
    const two = await page(`${CANDIDATE_ENDPOINTS.list.path}?year=2019&sort=name&per_page=2&page=2`);
    expect(two.items.map((row) => row.last_name)).toEqual(['Okafor', 'Okonkwo']);
    expect(two).toMatchObject({ next_cursor: null, prev_cursor: null, total: 5, total_exact: true });
    // A cursor sent with another order is not taken: the page is the page by number.
    const withCursor = await page(
      `${CANDIDATE_ENDPOINTS.list.path}?year=2019&sort=name&per_page=2&page=2&after=${byName.items[4].id}`,
    );
    expect(withCursor.items).toEqual(two.items);
  });

  it('refuses an unknown sort, direction or format with 422, naming each', async () => {
    const response = await get(`${CANDIDATE_ENDPOINTS.list.path}?sort=password&direction=up&format=xls`);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      success: false,
      message: {
        sort: [LIST_MESSAGES.sortUnknown],
        direction: [LIST_MESSAGES.directionUnknown],
        format: [LIST_MESSAGES.formatUnknown],
      },
    });
  });

  it('refuses a search holding a NUL with 422, never a 500', async () => {
    const response = await get(`${CANDIDATE_ENDPOINTS.list.path}?search=a%00b`);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message: { search: [INPUT_MESSAGES.unreadable] } });
  });

  it('answers a search that is not UTF-8 (a lone surrogate) with no rows, never a 500', async () => {
    expect((await page(`${CANDIDATE_ENDPOINTS.list.path}?search=%ED%A0%80`)).items).toEqual([]);
  });
});

describe('the CSV export', () => {
  it('holds exactly the filtered rows, in the order of the pages', async () => {
    const query = `${CANDIDATE_ENDPOINTS.list.path}?year=2019&course_header=A1`;
    const paged = await allPages(query);
    const { header, rows, response } = await csv(query);
    expect(header).toEqual(CANDIDATES_LIST.columns.map((column) => column.header));
    expect(rows.map((row) => row[INDEX])).toEqual(paged.map((row) => row.candidate_index));
    expect(rows).toHaveLength(3);
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="candidates-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    // It starts with a byte order mark, so a spreadsheet reads the names' accents as UTF-8.
    const raw = await fetchRaw(t, `${query}&format=csv`, { authorization: `Bearer ${admin}` });
    expect([...raw.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('follows the sort asked for', async () => {
    const query = `${CANDIDATE_ENDPOINTS.list.path}?year=2019&sort=name&direction=desc`;
    const { rows } = await csv(query);
    expect(rows.map((row) => row[1])).toEqual(['Okoro', 'Okonkwo', 'Okafor', 'Obi', 'Ahmed']);
  });

  it("a school admin's holds only their own school's rows, whatever school they ask for", async () => {
    const query = `${REGISTERED_LISTS.school_admin.path}?year=2019&school=CHT-CA`;
    const { header, rows } = await csv(query, school1);
    expect(header).toEqual(REGISTERED_LISTS.school_admin.columns.map((column) => column.header));
    const schoolColumn = header.indexOf('School code');
    expect(rows.map((row) => row[schoolColumn])).toEqual(['SHT-IB', 'SHT-IB', 'SHT-IB']);
    expect(rows.map((row) => row[1]).sort()).toEqual(['Ahmed', 'Okafor', 'Okoro']);
    expect(rows.map((row) => row[INDEX])).toEqual(
      (await allPages(query, school1)).map((row) => row.candidate_index),
    );
    // The board's export of the same list path is the board's own route; a school admin is refused it.
    expect((await get(`${CANDIDATE_ENDPOINTS.list.path}?format=csv`, school1)).status).toBe(403);
    expect((await t.request('GET', `${CANDIDATE_ENDPOINTS.list.path}?format=csv`)).status).toBe(401);
  });

  it('neutralises cells a spreadsheet would run as formulas, and quotes what needs quoting', async () => {
    const { rows, text } = await csv(`${CANDIDATE_ENDPOINTS.list.path}?year=2017&course_header=A1&sort=name`);
    const names = rows.map((row) => [row[1], row[2]]);
    expect(names).toEqual([
      ["'-Minus", "'+1"],
      ['At', "'@SUM(A1)"],
      ['Comma, "Quoted"', "'\tTab"],
      ['Formula', `'=HYPERLINK("http://x")`],
    ]);
    // No cell of the file starts with a formula character.
    for (const row of rows) for (const cell of row) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
    expect(text).toContain('"Comma, ""Quoted"""');
  });

  it('streams every matching row, not a page: 2,500 arrive complete, once each, in order', async () => {
    const query = `${CANDIDATE_ENDPOINTS.list.path}?year=2018`;
    const { rows, response } = await csv(query);
    expect(response.headers.get('content-length')).toBeNull();
    expect(rows).toHaveLength(MANY);
    const numbers = rows.map((row) => row[INDEX]);
    expect(new Set(numbers).size).toBe(MANY);
    // Newest first, as the list: the index numbers' sequence falls.
    const sequences = numbers.map((number) => Number(number.split('/')[3]));
    expect(sequences).toEqual([...sequences].sort((a, b) => b - a));
    const first = await page(`${query}&per_page=100`);
    expect(numbers.slice(0, 100)).toEqual(first.items.map((row) => row.candidate_index));
  });

  it('streams batch after batch in any order asked for, each row once', async () => {
    const { rows } = await csv(`${CANDIDATE_ENDPOINTS.list.path}?year=2018&sort=name&direction=desc`);
    const surnames = rows.map((row) => row[1]);
    expect(surnames).toHaveLength(MANY);
    expect(new Set(surnames).size).toBe(MANY);
    expect(surnames).toEqual([...surnames].sort().reverse());
  });

  it('refuses the same bad query as the list, with the same 422', async () => {
    const response = await get(`${CANDIDATE_ENDPOINTS.list.path}?year=26&format=csv`);
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it("is byte for byte every list's rows as its pages give them, each cell by its column, through csv-stringify", async () => {
    // The export's path is its own (rows read as the database sends them, not through the pages'
    // mapping): what it writes must be what the definition's cells of the pages' rows make, with the
    // same library and options, a BOM first: the same bytes the export wrote before it was made fast.
    const tokens: Partial<Record<string, string>> = { admin, school_admin: school1 };
    let lists = 0;
    for (const list of LISTS) {
      const token = list.roles.map((role) => tokens[role]).find(Boolean);
      if (!token) continue;
      lists++;
      const rows = (await allPages(list.path, token)) as unknown[];
      const expected = Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(
          stringify(
            [
              list.columns.map((column) => column.header),
              ...rows.map((row) => list.columns.map((column) => column.cell(row))),
            ],
            CSV_OPTIONS,
          ),
        ),
      ]);
      const raw = await fetchRaw(t, `${list.path}?format=csv`, { authorization: `Bearer ${token}` });
      expect(raw.status, list.path).toBe(200);
      expect(Buffer.from(raw.bytes).equals(expected), `${list.path}: ${rows.length} rows`).toBe(true);
    }
    expect(lists).toBeGreaterThan(10);
    const names = (await csv(`${CANDIDATE_ENDPOINTS.list.path}?year=2017&course_header=A2`)).rows;
    expect(names.map((row) => [row[1], row[2]]).sort()).toEqual([
      ['Adébáyọ̀-Ńnàmdí', 'Ọlábísí'],
      ['Eze; "Jr", Ụ', "Chi'oma"],
    ]);
  });

  it('quotes a cell written on several lines, so its row stays one row', async () => {
    // Before CSV_OPTIONS.quote_record_delimiter, a line feed or a carriage return alone went out unquoted:
    // csv-parse, which takes the file's own CRLF as the row's end, read it back; a spreadsheet, which
    // ends a row at any line break, did not.
    const address = 'Block 4\nRing Road\rIbadan';
    const created = await t.request('POST', SCHOOL_ENDPOINTS.create.path, {
      token: admin,
      json: { name: 'Lines School', code: 'LINES-01', state: 'Oyo', country: 'NG', address },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { header, rows, text } = await csv(`${SCHOOLS_LIST.path}?search=LINES-01`);
    expect(rows).toHaveLength(1);
    expect(rows[0][header.indexOf('Address')]).toBe(address);
    expect(text).toContain(`"${address}"`);
  });

  it('works for a list whose rows are completed from other tables (schools and their admins)', async () => {
    const { header, rows } = await csv(`${SCHOOLS_LIST.path}?search=SHT-IB`);
    expect(header).toEqual(SCHOOLS_LIST.columns.map((column) => column.header));
    expect(rows).toHaveLength(1);
    expect(rows[0][0]).toBe('SHT-IB');
    expect(rows[0][header.indexOf('School admins')]).toContain('school1@example.org');
  });
});

describe('csvWriter: what csv-stringify writes, calling it only for the cells that need it', () => {
  /** Every character csv-stringify quotes, escapes or neutralises, among ordinary ones. */
  const character = fc.constantFrom(
    ...['a', 'Z', '0', ' ', 'é', 'Ụ', '\u0300', ';', "'", ',', '"', '\r', '\n', '\t', '=', '+', '-', '@'],
    ...['\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'],
  );
  const cell = fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit: character, maxLength: 8 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.integer({ min: -1_000, max: 1_000 }) },
    { weight: 1, arbitrary: fc.double() },
  );
  const table = fc.integer({ min: 1, max: 6 }).chain((width) =>
    fc.record({
      headers: fc.array(fc.string({ unit: character, maxLength: 8 }), { minLength: width, maxLength: width }),
      rows: fc.array(fc.array(cell, { minLength: width, maxLength: width }), { maxLength: 6 }),
    }),
  );
  const columnsOf = (headers: string[]) =>
    headers.map((header, i) => ({ header, cell: (row: (string | number | null)[]) => row[i] }));

  it('byte for byte, for any header and rows, the same writer across batches', () => {
    fc.assert(
      fc.property(table, ({ headers, rows }) => {
        const writer = csvWriter(columnsOf(headers));
        // Twice: the second batch meets the cells the first quoted and kept.
        const written = writer.header() + writer.rows(rows) + writer.rows(rows);
        expect(written).toBe(stringify([headers, ...rows, ...rows], CSV_OPTIONS));
      }),
      { numRuns: 3_000 },
    );
  });

  it('past the quoted cells it keeps, quotes the next ones as well', () => {
    const rows = Array.from({ length: 2_500 }, (_, i) => [`=${i % 1_200}, "${i}"`, i]);
    const writer = csvWriter(columnsOf(['a', 'b']));
    expect(writer.rows(rows)).toBe(stringify(rows, CSV_OPTIONS));
  });
});
