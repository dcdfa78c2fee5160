import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PER_PAGE } from '../../contract/pagination';
import { SCHOOL_MESSAGES, type SchoolRow } from '../../contract/schools';
import { issueToken } from '../../server/auth/tokens';
import { trainingSchools, users } from '../../server/db/schema';
import { addUser, userIdOf, emptyPage } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/** GET /api/admin/training-schools: the schools with their admins, searched, filtered and paged. */

const LIST = '/api/admin/training-schools';
let t: TestPortal;
let admin: string;
const db = () => t.portal.database.db;

/** The demo's six schools plus 44 more, so paging has something to page. */
const EXTRA = Array.from({ length: 44 }, (_, i) => ({
  code: `TST-${String(i + 1).padStart(2, '0')}`,
  name: `Test School of Nursing ${String(i + 1).padStart(2, '0')}`,
  state: 'Lagos',
}));

beforeAll(async () => {
  t = await startTestPortal();
  admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
  await db().insert(trainingSchools).values(EXTRA);
  await db().update(trainingSchools).set({ status: 'suspended' }).where(eq(trainingSchools.code, 'SHT-KN'));
  const [ibadan] = await db().select().from(trainingSchools).where(eq(trainingSchools.code, 'SHT-IB'));
  const second = await addUser(t, {
    email: 'aaa.deputy@example.org',
    name: 'Aaron Deputy',
    role: 'school_admin',
    trainingSchoolId: ibadan.id,
  });
  await db().update(users).set({ active: false }).where(eq(users.id, second));
});
afterAll(() => t?.close());

const list = (query = '', token: string | undefined = admin) =>
  t.request('GET', `${LIST}${query}`, { token });

describe('the list', () => {
  it('answers the first 20 by name, each with its admins, and the total', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const page = response.body.data;
    expect(page).toMatchObject({ page: 1, per_page: 20, total: 50 });
    expect(page.items).toHaveLength(20);
    const names = page.items.map((row: SchoolRow) => row.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : 1)));

    const all = (await list('?per_page=100')).body.data.items as SchoolRow[];
    const ibadan = all.find((row) => row.code === 'SHT-IB')!;
    expect(ibadan).toEqual({
      id: expect.any(Number),
      code: 'SHT-IB',
      name: 'School of Health Technology, Ibadan',
      state: 'Oyo',
      country: 'NG',
      address: 'Agodi GRA, Ibadan',
      contact_email: null,
      contact_phone: null,
      status: 'active',
      admins: [
        {
          id: expect.any(Number),
          name: 'Aaron Deputy',
          email: 'aaa.deputy@example.org',
          phone_number: null,
          active: false,
        },
        {
          id: await userIdOf(t, 'school1@example.org'),
          name: 'Babatunde Adeyemi',
          email: 'school1@example.org',
          phone_number: '+234 803 000 0002',
          active: true,
        },
      ],
    });
    expect(all.find((row) => row.code === 'CHT-CA')!.admins.map((a) => a.email)).toEqual([
      'school2@example.org',
    ]);
    expect(all.find((row) => row.code === 'TST-01')!.admins).toEqual([]);
    expect(all.find((row) => row.code === 'SHT-KN')!.status).toBe('suspended');
  });

  it('pages in SQL: page 3 of 20 holds the last 10, a page past the end is empty with the total', async () => {
    const first = (await list('?per_page=20')).body.data.items as SchoolRow[];
    const third = await list('?page=3&per_page=20');
    expect(third.body.data).toMatchObject({ page: 3, per_page: 20, total: 50 });
    expect(third.body.data.items).toHaveLength(10);
    const all = (await list('?per_page=100')).body.data.items as SchoolRow[];
    expect(third.body.data.items.map((r: SchoolRow) => r.id)).toEqual(all.slice(40).map((r) => r.id));
    expect(first.map((r) => r.id)).toEqual(all.slice(0, 20).map((r) => r.id));

    const past = await list('?page=9&per_page=20');
    expect(past.body.data).toEqual(emptyPage(9, 50));
  });

  it.each([
    ['per_page over the maximum', `?per_page=${MAX_PER_PAGE + 1}`, { page: 1, per_page: MAX_PER_PAGE }],
    ['per_page of zero', '?per_page=0', { page: 1, per_page: 20 }],
    ['words for numbers', '?page=two&per_page=many', { page: 1, per_page: 20 }],
    ['a negative page', '?page=-3', { page: 1, per_page: 20 }],
    ['a fractional page', '?page=1.5&per_page=5', { page: 1, per_page: 5 }],
  ])('reads %s leniently', async (_name, query, expected) => {
    const response = await list(query);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject(expected);
  });
});

describe('search and filter', () => {
  it('finds by name, in any case', async () => {
    const response = await list('?search=IBADAN');
    expect(response.body.data.total).toBe(1);
    expect(response.body.data.items[0].code).toBe('SHT-IB');
  });

  it('finds by code, in any case', async () => {
    const response = await list('?search=cht-&per_page=100');
    expect(response.body.data.items.map((r: SchoolRow) => r.code).sort()).toEqual(['CHT-CA', 'CHT-EN']);
  });

  it("takes the user's % and _ literally", async () => {
    expect((await list('?search=%25')).body.data.total).toBe(0);
    expect((await list('?search=_')).body.data.total).toBe(0);
    expect((await list(`?search=${encodeURIComponent('TST-0_')}`)).body.data.total).toBe(0);
  });

  it('filters by status, and combines with the search', async () => {
    const suspended = await list('?status=suspended');
    expect(suspended.body.data.items.map((r: SchoolRow) => r.code)).toEqual(['SHT-KN']);
    expect((await list('?status=active')).body.data.total).toBe(49);
    expect((await list('?status=active&search=kano')).body.data.total).toBe(0);
    expect((await list('?status=&search=kano')).body.data.total).toBe(1);
  });

  it('refuses an unknown status, and a search too long, with 422', async () => {
    const status = await list('?status=closed');
    expect(status.status).toBe(422);
    expect(status.body).toEqual({ success: false, message: { status: [SCHOOL_MESSAGES.statusInvalid] } });
    const search = await list(`?search=${'x'.repeat(101)}`);
    expect(search.status).toBe(422);
    expect(search.body).toEqual({ success: false, message: { search: [SCHOOL_MESSAGES.searchTooLong] } });
  });
});

describe('who may list', () => {
  it('admins only: a school admin is refused (403), nobody is 401', async () => {
    const school = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 10)).token;
    expect((await list('', school)).status).toBe(403);
    expect((await t.request('GET', LIST)).status).toBe(401);
  });
});

describe('the queries', () => {
  it('the page query can walk the name index (no sort of the whole table)', async () => {
    await db().execute(sql`analyze training_schools`);
    await db().execute(sql`set enable_seqscan = off`);
    try {
      const plan = (await db().execute(
        sql`explain select id from training_schools order by name, id limit 20`,
      )) as unknown as { rows: Record<string, string>[] };
      const text = plan.rows.map((row) => Object.values(row)[0]).join('\n');
      expect(text).toMatch(/Index Scan using training_schools_name_idx|Incremental Sort/);
    } finally {
      await db().execute(sql`reset enable_seqscan`);
    }
  });
});
