import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CANDIDATE_RULE_MESSAGES as R,
  type CandidateFormOptions,
  type CandidateRow,
} from '../../contract/candidates';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';
import { issueToken } from '../../server/auth/tokens';
import { candidates, courseHeaders, trainingSchools } from '../../server/db/schema';
import { seedCandidates, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * GET /api/admin/candidates: the board's search and indexed list. Search by name and index number,
 * every filter, newest first, paged in SQL; and the form's options.
 */

let t: TestPortal;
let admin: string;
const db = () => t.portal.database.db;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestPortal();
  admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
  const named = await seedCandidates(t, [
    {
      first_name: 'Adaeze',
      middle_name: 'Ngozi',
      last_name: 'Okafor',
      school: 'SHT-IB',
      course_header: 'A1',
      year: 2025,
      reg_status: 'registered',
      verified: true,
    },
    { first_name: 'Babatunde', last_name: 'Adeyemi', school: 'SHT-IB', course_header: 'A2', year: 2026 },
    {
      first_name: 'Chinedu',
      last_name: 'Okonkwo',
      school: 'CHT-CA',
      course_header: 'A1',
      year: 2026,
      reg_status: 'registered',
    },
    {
      first_name: 'Ngozi',
      last_name: 'Eze',
      school: 'CHT-CA',
      course_header: 'B5',
      year: 2026,
      verified: true,
    },
    {
      first_name: 'Emeka',
      middle_name: 'Tunde',
      last_name: 'Obi',
      school: 'SHT-KN',
      course_header: 'A1',
      year: 2024,
    },
  ]);
  ['okafor', 'adeyemi', 'okonkwo', 'eze', 'obi'].forEach((name, i) => (ids[name] = named[i]));
  await seedCandidates(
    t,
    Array.from({ length: 25 }, (_, i) => ({
      first_name: 'Filler',
      last_name: `Person${String(i + 1).padStart(2, '0')}`,
      school: 'SHT-JS',
      course_header: 'B1',
      year: 2023,
    })),
  );
});
afterAll(() => t?.close());

const list = (query = '', token: string = admin) =>
  t.request('GET', `${CANDIDATE_ENDPOINTS.list.path}${query}`, { token });

/** The last names of a list's items, in order. */
const lastNames = async (query: string) => {
  const response = await list(query);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body.data.items as CandidateRow[]).map((row) => row.last_name);
};

describe('the list', () => {
  it('answers rows newest first, 20 a page, with the total', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    const page = response.body.data;
    expect(page).toMatchObject({ page: 1, per_page: 20, total: 30 });
    expect(page.items).toHaveLength(20);
    const listed = (page.items as CandidateRow[]).map((row) => row.id);
    expect(listed).toEqual([...listed].sort((a, b) => b - a));
    expect(page.items[0].last_name).toBe('Person25');
  });

  it('each row is a CandidateRow', async () => {
    const response = await list('?search=okafor');
    const [row] = response.body.data.items as CandidateRow[];
    const [school] = await db().select().from(trainingSchools).where(eq(trainingSchools.code, 'SHT-IB'));
    expect(row).toEqual({
      id: ids.okafor,
      candidate_index: expect.stringMatching(/^WHB\/25\/A1\/\d{6}$/),
      first_name: 'Adaeze',
      middle_name: 'Ngozi',
      last_name: 'Okafor',
      school: { id: school.id, code: 'SHT-IB', name: 'School of Health Technology, Ibadan' },
      course_header: {
        code: 'A1',
        title: 'Community Health Extension Worker (CHEW)',
        registration_status: 'open',
      },
      year: 2025,
      reg_status: 'registered',
      verified: true,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
  });

  it('is for admins only', async () => {
    const school = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
    expect((await list('', school)).status).toBe(403);
    expect((await t.request('GET', CANDIDATE_ENDPOINTS.list.path)).status).toBe(401);
  });
});

describe('search', () => {
  it.each([
    ['okafor', ['Okafor']],
    ['OKAF', ['Okafor']],
    ['  afor  ', ['Okafor']],
    ['ngozi', ['Eze', 'Okafor']],
    ['ngozi okafor', ['Okafor']],
    ['okafor ngozi', ['Okafor']],
    // Adaeze holds 'eze' too: each word anywhere.
    ['ngozi eze', ['Eze', 'Okafor']],
    ['ade', ['Adeyemi']],
    ['tunde', ['Obi', 'Adeyemi']],
    ['emeka tunde obi', ['Obi']],
    ['nobody', []],
  ])('%j finds names anywhere (first, middle, last; any case; every word): %j', async (search, expected) => {
    expect(await lastNames(`?search=${encodeURIComponent(search)}`)).toEqual(expected);
  });

  it('finds the index number, whole or in part', async () => {
    const [row] = await db().select().from(candidates).where(eq(candidates.id, ids.okonkwo));
    const index = row.candidateIndex;
    expect(await lastNames(`?search=${encodeURIComponent(index)}`)).toEqual(['Okonkwo']);
    expect(await lastNames(`?search=${encodeURIComponent(index.toLowerCase())}`)).toEqual(['Okonkwo']);
    expect(await lastNames(`?search=${index.split('/')[3]}`)).toEqual(['Okonkwo']);
    expect(await lastNames(`?search=${encodeURIComponent('WHB/25/')}`)).toEqual(['Okafor']);
  });

  it('a word of one or two letters matches the start of a first or last name', async () => {
    expect(await lastNames('?search=ok')).toEqual(['Okonkwo', 'Okafor']);
    expect(await lastNames('?search=O')).toEqual(['Obi', 'Okonkwo', 'Okafor']);
    expect(await lastNames('?search=ng')).toEqual(['Eze']);
    expect(await lastNames('?search=ng%20ok')).toEqual([]);
    expect(await lastNames('?search=ch%20okonkwo')).toEqual(['Okonkwo']);
  });

  it("takes the user's % and _ literally", async () => {
    expect(await lastNames('?search=%25')).toEqual([]);
    expect(await lastNames('?search=_')).toEqual([]);
    expect(await lastNames(`?search=${encodeURIComponent('ok_for')}`)).toEqual([]);
    expect(await lastNames(`?search=${encodeURIComponent('o%a')}`)).toEqual([]);
  });

  it('at most 100 characters: 422 This is too long', async () => {
    const response = await list(`?search=${'a'.repeat(101)}`);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message: { search: [R.tooLong] } });
    expect((await list(`?search=${'a'.repeat(100)}`)).status).toBe(200);
  });

  it('keeps the search up to date with a changed name', async () => {
    await db().update(candidates).set({ last_name: 'Okafor-Bello' }).where(eq(candidates.id, ids.okafor));
    expect(await lastNames('?search=bello')).toEqual(['Okafor-Bello']);
    await db().update(candidates).set({ last_name: 'Okafor' }).where(eq(candidates.id, ids.okafor));
    expect(await lastNames('?search=bello')).toEqual([]);
  });
});

describe('filters', () => {
  it.each([
    ['?school=SHT-IB', ['Adeyemi', 'Okafor']],
    ['?school=CHT-CA', ['Eze', 'Okonkwo']],
    ['?school=NOPE', []],
    ['?course_header=A1', ['Obi', 'Okonkwo', 'Okafor']],
    ['?course_header=B5', ['Eze']],
    ['?course_header=Z9', []],
    ['?year=2025', ['Okafor']],
    ['?year=2024', ['Obi']],
    ['?year=2026', ['Eze', 'Okonkwo', 'Adeyemi']],
    ['?reg_status=registered', ['Okonkwo', 'Okafor']],
    ['?verified=true', ['Eze', 'Okafor']],
    ['?school=CHT-CA&verified=true', ['Eze']],
    ['?school=CHT-CA&verified=false', ['Okonkwo']],
    ['?course_header=A1&reg_status=registered&year=2026', ['Okonkwo']],
    ['?course_header=A1&search=ok', ['Okonkwo', 'Okafor']],
    ['?school=SHT-IB&search=ngozi', ['Okafor']],
  ])('%s: %j', async (query, expected) => {
    expect(await lastNames(query)).toEqual(expected);
  });

  it('reg_status=unregistered and verified=false count the rest', async () => {
    expect((await list('?reg_status=unregistered')).body.data.total).toBe(28);
    expect((await list('?verified=false')).body.data.total).toBe(28);
  });

  it('empty filters are no filters', async () => {
    const response = await list('?search=&school=&course_header=&year=&reg_status=&verified=');
    expect(response.body.data.total).toBe(30);
  });

  it.each([
    ['?year=26', { year: [R.yearInvalid] }],
    ['?year=twenty', { year: [R.yearInvalid] }],
    ['?reg_status=pending', { reg_status: [R.choose] }],
    ['?verified=yes', { verified: [R.choose] }],
    [
      '?year=1&reg_status=x&verified=2',
      { year: [R.yearInvalid], reg_status: [R.choose], verified: [R.choose] },
    ],
  ])('%s: 422 %j', async (query, message) => {
    const response = await list(query);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message });
  });
});

describe('paging', () => {
  it('pages in SQL with the total of the whole list', async () => {
    const one = (await list('?school=SHT-JS&per_page=10')).body.data;
    expect(one).toMatchObject({ page: 1, per_page: 10, total: 25 });
    expect(one.items.map((row: CandidateRow) => row.last_name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Person${String(25 - i).padStart(2, '0')}`),
    );
    const three = (await list('?school=SHT-JS&per_page=10&page=3')).body.data;
    expect(three).toMatchObject({ page: 3, per_page: 10, total: 25 });
    expect(three.items.map((row: CandidateRow) => row.last_name)).toEqual([
      'Person05',
      'Person04',
      'Person03',
      'Person02',
      'Person01',
    ]);
  });

  it('a full last page and a page past the end still carry the total', async () => {
    expect((await list('?school=SHT-JS&per_page=5&page=5')).body.data).toMatchObject({ page: 5, total: 25 });
    expect((await list('?school=SHT-JS&per_page=5&page=5')).body.data.items).toHaveLength(5);
    const past = (await list('?school=SHT-JS&per_page=10&page=4')).body.data;
    expect(past).toMatchObject({ items: [], page: 4, total: 25 });
  });

  it('pages never overlap and together hold every row once', async () => {
    const seen: number[] = [];
    for (let page = 1; page <= 4; page++) {
      seen.push(
        ...(await list(`?per_page=8&page=${page}`)).body.data.items.map((row: CandidateRow) => row.id),
      );
    }
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
  });

  it('per_page is capped at 100 and odd values fall back to the defaults', async () => {
    expect((await list('?per_page=1000')).body.data.per_page).toBe(100);
    expect((await list('?per_page=abc&page=-2')).body.data).toMatchObject({ page: 1, per_page: 20 });
  });
});

describe('GET /api/admin/candidate-form-options', () => {
  it('answers every school with its status, and every course header with both statuses', async () => {
    await db().update(courseHeaders).set({ indexingStatus: 'closed' }).where(eq(courseHeaders.code, 'B4'));
    const response = await t.request('GET', CANDIDATE_ENDPOINTS.formOptions.path, { token: admin });
    expect(response.status).toBe(200);
    const options = response.body.data as CandidateFormOptions;
    expect(options.schools).toHaveLength(6);
    expect(options.schools).toContainEqual({
      code: 'SHT-IB',
      name: 'School of Health Technology, Ibadan',
      status: 'active',
    });
    const names = options.schools.map((school) => school.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : 1)));
    expect(options.course_headers.map((header) => header.code)).toEqual([
      'A1',
      'A2',
      'A3',
      'A4',
      'A5',
      'B1',
      'B2',
      'B3',
      'B4',
      'B5',
    ]);
    expect(options.course_headers).toContainEqual({
      code: 'B4',
      title: 'Dental Surgery Technician',
      indexing_status: 'closed',
      registration_status: 'open',
    });
  });

  it('is for admins only', async () => {
    const school = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
    expect((await t.request('GET', CANDIDATE_ENDPOINTS.formOptions.path, { token: school })).status).toBe(
      403,
    );
  });
});
