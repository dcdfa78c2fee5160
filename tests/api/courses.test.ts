import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANDIDATE_RULE_MESSAGES as R } from '../../contract/candidates';
import {
  COURSE_MESSAGES as M,
  COURSE_PATHS,
  statusChangedMessage,
  type CourseHeaderRow,
  type CourseStatusField,
} from '../../contract/courses';
import { UNAUTHENTICATED_MESSAGE } from '../../contract/envelope';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';
import { fillPath } from '../../contract/endpoint';
import { auditLog, candidates, courseHeaders } from '../../server/db/schema';
import {
  candidateForm,
  demoSignIns,
  lastAudit,
  regStatusOf,
  seedCandidates,
  uniqueFirstName,
} from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Course headers: the board's list, create and edit (a code is locked once candidates carry it), each
 * row's two statuses, their audit entries, and that closing them takes effect on indexing and on a
 * school admin's registration.
 */

let t: TestPortal;
const db = () => t.portal.database.db;
let admin = '';
let school = '';
let adminId = 0;

beforeAll(async () => {
  t = await startTestPortal();
  ({ adminId, admin, school1: school } = await demoSignIns(t));
});
afterAll(() => t?.close());

const list = (query = '', token = admin) => t.request('GET', `${COURSE_PATHS.list}${query}`, { token });
const create = (json: unknown, token = admin) => t.request('POST', COURSE_PATHS.list, { token, json });
const edit = (id: number, json: unknown, token = admin) =>
  t.request('POST', COURSE_PATHS.one(id), { token, json });
const setStatus = (id: number, field: CourseStatusField, value: unknown, token = admin) =>
  t.request('POST', COURSE_PATHS.status(id, field), { token, json: { [field]: value } });

const idOf = async (code: string) =>
  (await db().select({ id: courseHeaders.id }).from(courseHeaders).where(eq(courseHeaders.code, code)))[0].id;
const auditCount = async (id: number) =>
  (
    await db()
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'course_header'), eq(auditLog.entityId, String(id))))
  ).length;

describe('the list', () => {
  it('every course header in code order, with both statuses and how many candidates are indexed', async () => {
    await seedCandidates(t, [
      { first_name: 'Listed', last_name: 'Person', school: 'SHT-IB', course_header: 'A2' },
    ]);
    const response = await list('?per_page=100');
    expect(response.status).toBe(200);
    const page = response.body.data;
    const codes = page.items.map((row: CourseHeaderRow) => row.code);
    expect(codes).toEqual([...codes].sort());
    expect(codes).toEqual(expect.arrayContaining(['A1', 'A4', 'A5', 'B5']));
    expect(page.total).toBe(codes.length);
    const a2 = page.items.find((row: CourseHeaderRow) => row.code === 'A2');
    expect(a2).toEqual({
      id: await idOf('A2'),
      code: 'A2',
      title: 'Junior Community Health Extension Worker (JCHEW)',
      indexing_status: 'open',
      registration_status: 'open',
      indexed_candidates: 1,
    });
  });

  it('searches code and title, any case, and pages', async () => {
    const byTitle = (await list('?search=technician')).body.data;
    expect(byTitle.items.map((row: CourseHeaderRow) => row.code)).toEqual(['A4', 'B1', 'B2', 'B3', 'B4']);
    expect((await list('?search=b5')).body.data.items.map((row: CourseHeaderRow) => row.code)).toEqual([
      'B5',
    ]);
    // The user's % is a character, not a wildcard.
    expect((await list('?search=%25')).body.data.total).toBe(0);
    const second = (await list('?per_page=3&page=2')).body.data;
    expect(second).toMatchObject({ page: 2, per_page: 3 });
    expect(second.items.map((row: CourseHeaderRow) => row.code)).toEqual(['A4', 'A5', 'B1']);
  });

  it('refuses a search that is too long', async () => {
    const response = await list(`?search=${'x'.repeat(101)}`);
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ search: [M.tooLong] });
  });
});

describe('create', () => {
  it('stores the code in capitals, answers the row and audits it', async () => {
    const response = await create({ code: ' c1 ', title: '  Community Midwifery  ' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      message: M.created,
      data: {
        code: 'C1',
        title: 'Community Midwifery',
        indexing_status: 'open',
        registration_status: 'open',
        indexed_candidates: 0,
      },
    });
    const id = response.body.data.id;
    expect(await lastAudit(t, 'course_header.created', id)).toMatchObject({
      actorId: adminId,
      impersonatorId: null,
      entity: 'course_header',
      before: null,
      after: { id, code: 'C1', title: 'Community Midwifery', indexing_status: 'open' },
    });
  });

  it('a code is unique whatever its case', async () => {
    const response = await create({ code: 'a1', title: 'Another CHEW' });
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ code: [M.codeTaken] });
  });

  it.each([
    [{}, { code: [M.codeRequired], title: [M.titleRequired] }],
    [
      { code: '', title: '   ' },
      { code: [M.codeRequired], title: [M.titleRequired] },
    ],
    [{ code: 'AB1', title: 'x' }, { code: [M.codeInvalid] }],
    [{ code: 'A123', title: 'x' }, { code: [M.codeInvalid] }],
    [{ code: '1A', title: 'x' }, { code: [M.codeInvalid] }],
    [{ code: 'C-2', title: 'x' }, { code: [M.codeInvalid] }],
    [{ code: 'C2', title: 'x'.repeat(201) }, { title: [M.tooLong] }],
  ])('%j: %j', async (json, fields) => {
    const before = (await list()).body.data.total;
    const response = await create(json);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message: fields });
    expect((await list()).body.data.total).toBe(before);
  });
});

describe('edit', () => {
  it('changes the title and the code of a course header nobody is indexed under, audited before and after', async () => {
    const id = (await create({ code: 'D1', title: 'Draft course' })).body.data.id;
    const response = await edit(id, { code: 'd2', title: 'Dental Nursing' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      message: M.updated,
      data: { id, code: 'D2', title: 'Dental Nursing' },
    });
    expect(await lastAudit(t, 'course_header.updated', id)).toMatchObject({
      actorId: adminId,
      impersonatorId: null,
      before: { code: 'D1', title: 'Draft course' },
      after: { code: 'D2', title: 'Dental Nursing' },
    });
  });

  it('the same values again change nothing and write no audit entry', async () => {
    const id = (await create({ code: 'D3', title: 'Unchanged' })).body.data.id;
    const entries = await auditCount(id);
    const response = await edit(id, { code: 'd3', title: 'Unchanged' });
    expect(response.status).toBe(200);
    expect(await auditCount(id)).toBe(entries);
  });

  it('refuses a code another course header has', async () => {
    const id = (await create({ code: 'D4', title: 'Fourth' })).body.data.id;
    const response = await edit(id, { code: 'A1', title: 'Fourth' });
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ code: [M.codeTaken] });
  });

  it('once candidates are indexed under it, the code is locked but the title may change', async () => {
    const id = (await create({ code: 'E1', title: 'Eye Care' })).body.data.id;
    await seedCandidates(t, [
      { first_name: 'Locked', last_name: 'Code', school: 'SHT-IB', course_header: 'E1' },
    ]);
    const refused = await edit(id, { code: 'E2', title: 'Eye Care' });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toEqual({ code: [M.codeLocked] });
    expect((await db().select().from(courseHeaders).where(eq(courseHeaders.id, id)))[0].code).toBe('E1');

    const retitled = await edit(id, { code: 'e1', title: 'Ophthalmic Nursing' });
    expect(retitled.status).toBe(200);
    expect(retitled.body.data).toMatchObject({
      code: 'E1',
      title: 'Ophthalmic Nursing',
      indexed_candidates: 1,
    });
  });

  it('the code stays locked after its candidates moved to another course header: their numbers carry it', async () => {
    const id = (await create({ code: 'E3', title: 'Moved away' })).body.data.id;
    const [moved] = await seedCandidates(t, [
      { first_name: 'Moved', last_name: 'Candidate', school: 'SHT-IB', course_header: 'E3' },
    ]);
    await db()
      .update(candidates)
      .set({ courseHeaderId: await idOf('A1') })
      .where(eq(candidates.id, moved));
    const response = await edit(id, { code: 'E4', title: 'Moved away' });
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ code: [M.codeLocked] });
  });

  it('validates as create does, and an unknown id is a 404', async () => {
    const id = await idOf('A3');
    expect((await edit(id, { code: 'x', title: '' })).body.message).toEqual({
      code: [M.codeInvalid],
      title: [M.titleRequired],
    });
    const missing = await edit(999_999, { code: 'Z9', title: 'Nowhere' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, message: M.notFound });
    expect((await edit(0, { code: 'Z9', title: 'Nowhere' })).status).toBe(404);
  });
});

describe('the statuses', () => {
  it.each(['indexing_status', 'registration_status'] as const)(
    '%s: closed and opened again, each change audited with before and after',
    async (field) => {
      const id = (await create({ code: field === 'indexing_status' ? 'F1' : 'F2', title: 'Statuses' })).body
        .data.id;
      const code = field === 'indexing_status' ? 'F1' : 'F2';
      const other = field === 'indexing_status' ? 'registration_status' : 'indexing_status';
      const closed = await setStatus(id, field, 'closed');
      expect(closed.status).toBe(200);
      expect(closed.body).toMatchObject({
        message: statusChangedMessage(code, field, 'closed'),
        data: { id, code, [field]: 'closed', [other]: 'open' },
      });
      expect(await lastAudit(t, `course_header.${field}_changed`, id)).toMatchObject({
        actorId: adminId,
        impersonatorId: null,
        entity: 'course_header',
        before: { code, [field]: 'open' },
        after: { code, [field]: 'closed' },
      });

      // The same value again: nothing changes, nothing is audited.
      const entries = await auditCount(id);
      expect((await setStatus(id, field, 'closed')).body.data[field]).toBe('closed');
      expect(await auditCount(id)).toBe(entries);

      const opened = await setStatus(id, field, 'open');
      expect(opened.body.data[field]).toBe('open');
      expect(await auditCount(id)).toBe(entries + 1);
    },
  );

  it.each(['indexing_status', 'registration_status'] as const)(
    '%s: only open or closed; an unknown id is a 404',
    async (field) => {
      const id = await idOf('A3');
      for (const value of ['shut', '', null, 1]) {
        const response = await setStatus(id, field, value);
        expect(response.status).toBe(422);
        expect(response.body.message).toEqual({ [field]: [M.statusInvalid] });
      }
      const missing = await setStatus(999_999, field, 'closed');
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe(M.notFound);
    },
  );
});

describe('they take effect', () => {
  it('closed indexing: the candidate form refuses the course header with the message beside it', async () => {
    const id = await idOf('B3');
    await setStatus(id, 'indexing_status', 'closed');
    try {
      const refused = await t.request('POST', CANDIDATE_ENDPOINTS.create.path, {
        token: admin,
        form: candidateForm({ first_name: uniqueFirstName('Closed'), course_header: 'B3' }),
      });
      expect(refused.status).toBe(422);
      expect(refused.body.message).toEqual({ course_header: [R.indexingClosed] });
      const options = await t.request('GET', CANDIDATE_ENDPOINTS.formOptions.path, { token: admin });
      expect(options.body.data.course_headers).toContainEqual(
        expect.objectContaining({ code: 'B3', indexing_status: 'closed' }),
      );
    } finally {
      await setStatus(id, 'indexing_status', 'open');
    }
    const accepted = await t.request('POST', CANDIDATE_ENDPOINTS.create.path, {
      token: admin,
      form: candidateForm({ first_name: uniqueFirstName('Open'), course_header: 'B3' }),
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.candidate_index).toMatch(/^WHB\/\d{2}\/B3\/\d{6}$/);
  });

  it("closed registration: a school admin's reg-status change is refused with the reason", async () => {
    const id = await idOf('B4');
    const [candidate] = await seedCandidates(t, [
      { first_name: 'Register', last_name: 'Me', school: 'SHT-IB', course_header: 'B4', verified: true },
    ]);
    const register = () =>
      t.request('POST', fillPath(CANDIDATE_ENDPOINTS.regStatus.school_admin.path, { id: candidate }), {
        token: school,
        json: { reg_status: 'registered' },
      });
    await setStatus(id, 'registration_status', 'closed');
    const refused = await register();
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ success: false, message: R.registrationClosed });
    expect(await regStatusOf(t, candidate)).toBe('unregistered');

    await setStatus(id, 'registration_status', 'open');
    const accepted = await register();
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.reg_status).toBe('registered');
  });
});

describe('who may call them', () => {
  const calls = (id: number) => [
    () => ['GET', COURSE_PATHS.list, undefined] as const,
    () => ['POST', COURSE_PATHS.list, { code: 'Y1', title: 'Refused' }] as const,
    () => ['POST', COURSE_PATHS.one(id), { code: 'A3', title: 'Refused' }] as const,
    () => ['POST', COURSE_PATHS.status(id, 'indexing_status'), { indexing_status: 'closed' }] as const,
    () =>
      ['POST', COURSE_PATHS.status(id, 'registration_status'), { registration_status: 'closed' }] as const,
  ];

  it('a school admin gets 403 and a caller without a session 401 on every endpoint; nothing changes', async () => {
    const id = await idOf('A3');
    const before = await db().select().from(courseHeaders).where(eq(courseHeaders.id, id));
    const entries = await auditCount(id);
    for (const call of calls(id)) {
      const [method, path, json] = call();
      const forbidden = await t.request(method, path, { token: school, json });
      expect(forbidden.status, `${method} ${path}`).toBe(403);
      const anonymous = await t.request(method, path, { json });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(anonymous.body).toEqual({ message: UNAUTHENTICATED_MESSAGE });
    }
    expect(await db().select().from(courseHeaders).where(eq(courseHeaders.id, id))).toEqual(before);
    expect(await auditCount(id)).toBe(entries);
    expect((await list('?search=Y1')).body.data.total).toBe(0);
  });
});
