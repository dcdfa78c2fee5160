import { sql } from 'drizzle-orm';
import pg from 'pg';
import { INPUT_MESSAGES } from '../../contract/input';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CandidateRow } from '../../contract/candidates';
import { EXACT_TOTAL_LIMIT, type Page } from '../../contract/pagination';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';
import { issueToken } from '../../server/auth/tokens';
import { candidateListStatements } from '../../server/candidates/list';
import { seedCandidates, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * How every list pages (server/http/paging.ts), on the candidates list, which is the one that grows:
 * one row more than the page says whether a next one exists; a cursor from the page before or after
 * replaces OFFSET; the total is exact up to EXACT_TOTAL_LIMIT matches and past that the planner's
 * estimate; and a whole index number is found through its unique btree.
 */

let t: TestPortal;
let admin: string;
const db = () => t.portal.database.db;
/** More than the exact-total limit, all at SHT-JS; a few elsewhere. */
const MANY = EXACT_TOTAL_LIMIT + 240;
let named: number[];

beforeAll(async () => {
  t = await startTestPortal();
  admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
  named = await seedCandidates(t, [
    { first_name: 'Adaeze', last_name: 'Okafor', school: 'SHT-IB', course_header: 'A1' },
    { first_name: 'Babatunde', last_name: 'Adeyemi', school: 'CHT-CA', course_header: 'A2' },
  ]);
  // One statement for the many: the fixture's one-at-a-time insert would take most of the file's time.
  const createdBy = await userIdOf(t, 'admin@example.org');
  await db().execute(sql`
    insert into candidates (candidate_index, training_school_id, course_header_id, year, first_name,
      last_name, date_of_birth, candidate_category, marital_status, gender, nationality, created_by)
    select 'WHB/23/B1/' || lpad(nextval('candidate_index_seq')::text, 6, '0'),
      (select id from training_schools where code = 'SHT-JS'), (select id from course_headers where code = 'B1'),
      2023, 'Filler', 'Person' || n, '1990-01-01', 'fresh', 'S', 'female', 'NG', ${createdBy}
    from generate_series(1, ${MANY}) as n`);
  // The statistics the planner's estimate comes from, as the portal's upkeep and autovacuum keep them.
  await db().execute(sql`analyze candidates`);
});
afterAll(() => t?.close());

const page = async (query: string): Promise<Page<CandidateRow>> => {
  const response = await t.request('GET', `${CANDIDATE_ENDPOINTS.list.path}${query}`, { token: admin });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
};
const idsOf = (data: Page<CandidateRow>) => data.items.map((row) => row.id);

describe('totals', () => {
  it('are exact while the matches are few, and say so', async () => {
    expect(await page('?school=CHT-CA')).toMatchObject({ total: 1, total_exact: true, has_more: false });
    const first = await page('?school=SHT-IB&per_page=1');
    expect(first).toMatchObject({ total: 1, total_exact: true, has_more: false });
  });

  it('past the limit are the planner estimate, marked as not exact, and never below what was seen', async () => {
    const all = await page('');
    const rows = MANY + 2;
    expect(all.total_exact).toBe(false);
    expect(all.has_more).toBe(true);
    expect(all.total).toBeGreaterThan(EXACT_TOTAL_LIMIT);
    // After ANALYZE the estimate of a whole table is its row count, give or take what was sampled.
    expect(Math.abs(all.total - rows) / rows).toBeLessThan(0.1);
    // An empty page past the end has paged through nothing: the total is not raised to its offset.
    const past = await page('?per_page=100&page=1000');
    expect(past).toMatchObject({ items: [], total_exact: false, has_more: false });
    expect(Math.abs(past.total - rows) / rows).toBeLessThan(0.1);
    const deep = await page('?per_page=100&page=12');
    expect(deep.total_exact).toBe(false);
    expect(deep.total).toBeGreaterThanOrEqual(1100 + (deep.has_more ? 1 : 0));
  });

  it('are exact again on the last page, which shows where the list ends', async () => {
    const last = await page(`?school=SHT-JS&per_page=100&page=${Math.ceil(MANY / 100)}`);
    expect(last).toMatchObject({ total: MANY, total_exact: true, has_more: false, next_cursor: null });
    expect(last.items).toHaveLength(MANY % 100);
  });
});

describe('the estimate', () => {
  it("is asked beside the window on PostgreSQL's pool (two connections at once), after it on PGlite", async () => {
    const pool = (db() as unknown as { $client: unknown }).$client;
    let out = 0;
    let most = 0;
    const onAcquire = () => (most = Math.max(most, ++out));
    const onRelease = () => out--;
    const events = pool instanceof pg.Pool ? pool : null;
    events?.on('acquire', onAcquire);
    events?.on('release', onRelease);
    try {
      const all = await page('');
      expect(all).toMatchObject({ total_exact: false, has_more: true });
    } finally {
      events?.off('acquire', onAcquire);
      events?.off('release', onRelease);
    }
    // PGlite has no pool: one connection, the statements in turn.
    expect(most).toBe(t.databaseUrl ? 2 : 0);
  });
});

describe('keyset paging', () => {
  it('walks the whole list by next_cursor, the same rows as by page number, each once', async () => {
    const byCursor: number[] = [];
    const byNumber: number[] = [];
    let current = await page('?per_page=100');
    for (let n = 1; ; n++) {
      byCursor.push(...idsOf(current));
      byNumber.push(...idsOf(await page(`?per_page=100&page=${n}`)));
      if (!current.has_more) break;
      expect(current.next_cursor).toBe(current.items[current.items.length - 1].id);
      current = await page(`?per_page=100&page=${n + 1}&after=${current.next_cursor}`);
      expect(current.page).toBe(n + 1);
    }
    expect(byCursor).toEqual(byNumber);
    expect(byCursor).toHaveLength(MANY + 2);
    expect(new Set(byCursor).size).toBe(MANY + 2);
    expect(byCursor).toEqual([...byCursor].sort((a, b) => b - a));
  });

  it('steps back by prev_cursor to the rows of the page before', async () => {
    const one = await page('?per_page=50');
    const two = await page(`?per_page=50&page=2&after=${one.next_cursor}`);
    const three = await page(`?per_page=50&page=3&after=${two.next_cursor}`);
    expect(three.prev_cursor).toBe(three.items[0].id);
    const back = await page(`?per_page=50&page=2&before=${three.prev_cursor}`);
    expect(idsOf(back)).toEqual(idsOf(two));
    expect(back).toMatchObject({ page: 2, has_more: true, next_cursor: two.next_cursor });
    expect(one.prev_cursor).toBeNull();
  });

  it('keeps the filters on every page it walks', async () => {
    const one = await page('?school=SHT-JS&search=filler&per_page=100');
    const two = await page(`?school=SHT-JS&search=filler&per_page=100&page=2&after=${one.next_cursor}`);
    expect(two.items.every((row) => row.school.code === 'SHT-JS')).toBe(true);
    expect(Math.max(...idsOf(two))).toBeLessThan(Math.min(...idsOf(one)));
  });

  it('ignores a cursor on the first page, and one that cannot be an id', async () => {
    const first = await page('?per_page=10');
    expect(idsOf(await page(`?per_page=10&after=${first.items[5].id}`))).toEqual(idsOf(first));
    const second = await page('?per_page=10&page=2');
    for (const cursor of ['abc', '0', '-5', '2147483648', '1e3', '99999999999']) {
      expect(idsOf(await page(`?per_page=10&page=2&after=${cursor}`)), cursor).toEqual(idsOf(second));
      expect(idsOf(await page(`?per_page=10&page=2&before=${cursor}`)), cursor).toEqual(idsOf(second));
    }
    // A NUL is no cursor a link carries: refused like a NUL anywhere (contract/input.ts).
    const nul = await t.request('GET', `${CANDIDATE_ENDPOINTS.list.path}?after=%00`, { token: admin });
    expect(nul).toMatchObject({ status: 422, body: { message: { after: [INPUT_MESSAGES.unreadable] } } });
  });

  it('gives no cursors to lists ordered by name, which page by number', async () => {
    const response = await t.request('GET', '/api/admin/training-schools?per_page=2', { token: admin });
    expect(response.body.data).toMatchObject({ has_more: true, next_cursor: null, prev_cursor: null });
  });
});

describe('search statistics', () => {
  it('keep 500 histogram entries of the search text, so a common word is not taken for a rare one', async () => {
    const { rows } = (await db().execute(
      sql`select attstattarget from pg_attribute where attrelid = 'candidates'::regclass and attname = 'search_text'`,
    )) as unknown as { rows: { attstattarget: number }[] };
    expect(Number(rows[0].attstattarget)).toBe(500);
  });
});

/** The plan of a statement, its values written in (`explain` takes no parameters); `verbose` too. */
async function planOf(statement: { text: string; values: unknown[] }, verbose = false) {
  const result = (await db().execute(
    sql.raw(
      `explain ${verbose ? '(verbose) ' : ''}${statement.text.replace(/\$(\d+)/g, (_, n) => {
        const value = statement.values[Number(n) - 1];
        return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
      })}`,
    ),
  )) as unknown as { rows: Record<string, string>[] };
  return result.rows.map((row) => Object.values(row)[0]).join('\n');
}

describe('an exact index number', () => {
  const plan = async (search: string) =>
    planOf((await candidateListStatements(db(), 'candidates', { kind: 'board' }, { search }))[0]);

  it('is found through its unique btree, in any case', async () => {
    const [index] = (
      (await db().execute(sql`select candidate_index from candidates where id = ${named[0]}`)) as unknown as {
        rows: { candidate_index: string }[];
      }
    ).rows;
    const exact = await page(`?search=${encodeURIComponent(index.candidate_index.toLowerCase())}`);
    expect(idsOf(exact)).toEqual([named[0]]);
    expect(exact).toMatchObject({ total: 1, total_exact: true });
    expect(await plan(index.candidate_index)).toContain('candidates_index_key');
  });

  it('a part of one is still searched anywhere, by trigrams', async () => {
    const part = await page('?search=whb/23/b1&per_page=5');
    expect(part.items).toHaveLength(5);
    expect(await plan('WHB/23/B1')).not.toContain('candidates_index_key');
  });
});

describe("Registered Candidates' Fee", () => {
  it('is asked a row at a time, never answered from a hash of every registration of the diet', async () => {
    // Every candidate registered for the current diet: a page of 25 rows among many registrations,
    // where a hash of them all once cost far more than the page (at 100,000 candidates 21.6 ms, not 4.5).
    await db().execute(sql`insert into registrations (diet_id, candidate_id, reg_status)
      select (select id from diets where current), id, 'registered' from candidates
      on conflict (diet_id, candidate_id) do update set reg_status = 'registered'`);
    await db().execute(sql`analyze registrations`);
    const school = (
      (await db().execute(sql`select id from training_schools where code = 'SHT-JS'`)) as unknown as {
        rows: { id: number }[];
      }
    ).rows[0].id;
    for (const scope of [{ kind: 'board' as const }, { kind: 'school' as const, schoolId: school }]) {
      const [window] = await candidateListStatements(db(), 'registered', scope, {});
      const plan = await planOf(window, true);
      // The registration's status, then the Fee's three parts: a registration, a credit, a charging fee.
      expect(new Set(plan.match(/SubPlan \d+/g)).size, plan).toBeGreaterThanOrEqual(4);
      expect(plan, plan).toMatch(/on (public\.)?payment_items/);
      expect(plan, plan).toMatch(/on (public\.)?fees/);
      expect(plan, plan).not.toMatch(/hashed SubPlan/i);
    }
  });
});
