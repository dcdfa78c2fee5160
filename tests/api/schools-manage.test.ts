import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CANDIDATE_RULE_MESSAGES as R } from '../../contract/candidates';
import { UNAUTHENTICATED_MESSAGE } from '../../contract/envelope';
import { SCHOOL_MESSAGES as S, type SchoolRow } from '../../contract/schools';
import { SCHOOL_ENDPOINTS } from '../../contract/schools.endpoints';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';
import { REGISTRATION_ENDPOINTS } from '../../contract/registration.endpoints';
import { fillPath } from '../../contract/endpoint';
import { trainingSchools } from '../../server/db/schema';
import { demoSignIns, lastAudit, schoolIdOf, seedCandidates } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/** Creating and editing a training school, and its status: what a suspension does and does not stop. */

let t: TestPortal;
const db = () => t.portal.database.db;
let adminId: number;
let tokens: { admin: string; school1: string };
let ibadan: number;
let ibCandidate: number;

const VALID = {
  code: 'son-ab',
  name: 'School of Nursing, Abeokuta',
  state: 'Ogun',
  country: 'NG',
  address: 'Idi-Aba, Abeokuta',
  contact_email: 'Registry@SON-Abeokuta.example.org',
  contact_phone: '+234 803 555 0101',
};

beforeAll(async () => {
  t = await startTestPortal();
  ({ adminId, ...tokens } = await demoSignIns(t));
  ibadan = await schoolIdOf(t, 'SHT-IB');
  [ibCandidate] = await seedCandidates(t, [
    {
      first_name: 'Suspended',
      last_name: 'Candidate',
      school: 'SHT-IB',
      course_header: 'A1',
      verified: true,
    },
  ]);
});
afterAll(() => t?.close());
beforeEach(async () => {
  await db().update(trainingSchools).set({ status: 'active' }).where(eq(trainingSchools.id, ibadan));
});

const post = (path: string, json: unknown, token: string | undefined = tokens.admin) =>
  t.request('POST', path, { token, json });

describe('creating a school', () => {
  it('stores it with its code upper-cased and its email lower-cased, answers the row, and audits it', async () => {
    const response = await post(SCHOOL_ENDPOINTS.create.path, VALID);
    expect(response.status).toBe(200);
    expect(response.body.message).toBe(S.created);
    const row = response.body.data as SchoolRow;
    expect(row).toEqual({
      id: expect.any(Number),
      code: 'SON-AB',
      name: VALID.name,
      state: 'Ogun',
      country: 'NG',
      address: VALID.address,
      contact_email: 'registry@son-abeokuta.example.org',
      contact_phone: VALID.contact_phone,
      status: 'active',
      admins: [],
    });
    const listed = await t.request('GET', `${SCHOOL_ENDPOINTS.list.path}?search=son-ab`, {
      token: tokens.admin,
    });
    expect(listed.body.data.items).toEqual([row]);

    const audit = await lastAudit(t, 'school.created', row.id);
    expect(audit).toMatchObject({ actorId: adminId, impersonatorId: null, entity: 'training_school' });
    expect(audit.before).toBeNull();
    expect(audit.after).toMatchObject({ code: 'SON-AB', name: VALID.name, status: 'active' });
  });

  it('takes only the required fields, leaving address and contact empty', async () => {
    const response = await post(SCHOOL_ENDPOINTS.create.path, {
      code: 'MIN-1',
      name: 'Minimal School',
      state: 'Oyo',
      country: 'gh',
      address: '',
      contact_email: '',
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      country: 'GH',
      address: '',
      contact_email: null,
      contact_phone: null,
    });
  });

  it('says what is missing, field by field', async () => {
    const response = await post(SCHOOL_ENDPOINTS.create.path, { code: '', name: '  ', state: '' });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      success: false,
      message: {
        code: [S.codeRequired],
        name: [S.nameRequired],
        state: [S.stateRequired],
        country: [S.countryRequired],
      },
    });
  });

  it('says what is wrong with a code, an email, a phone number and a country', async () => {
    const bad = await post(SCHOOL_ENDPOINTS.create.path, {
      ...VALID,
      code: 'SON AB!',
      contact_email: 'not-an-email',
      contact_phone: '12ab',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toEqual({
      code: [S.codeInvalid],
      contact_email: [S.emailInvalid],
      contact_phone: [S.phoneInvalid],
    });
    const country = await post(SCHOOL_ENDPOINTS.create.path, { ...VALID, code: 'NEW-1', country: 'XX' });
    expect(country.status).toBe(422);
    expect(country.body.message).toEqual({ country: [S.countryInvalid] });
  });

  it('refuses a code another school has, in any case', async () => {
    const response = await post(SCHOOL_ENDPOINTS.create.path, { ...VALID, code: 'sht-ib' });
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ code: [S.codeTaken] });
  });
});

describe('editing a school', () => {
  it('replaces its fields and audits before and after', async () => {
    const created = (await post(SCHOOL_ENDPOINTS.create.path, { ...VALID, code: 'EDIT-1', name: 'Before' }))
      .body.data as SchoolRow;
    const response = await post(fillPath(SCHOOL_ENDPOINTS.update.path, { id: created.id }), {
      ...VALID,
      code: 'edit-2',
      name: 'After',
      contact_phone: '',
    });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe(S.updated);
    expect(response.body.data).toMatchObject({
      id: created.id,
      code: 'EDIT-2',
      name: 'After',
      contact_phone: null,
    });
    const audit = await lastAudit(t, 'school.updated', created.id);
    expect(audit.actorId).toBe(adminId);
    expect(audit.before).toMatchObject({
      code: 'EDIT-1',
      name: 'Before',
      contact_phone: VALID.contact_phone,
    });
    expect(audit.after).toMatchObject({ code: 'EDIT-2', name: 'After', contact_phone: null });
  });

  it('keeps its own code, but not another school’s', async () => {
    const created = (await post(SCHOOL_ENDPOINTS.create.path, { ...VALID, code: 'KEEP-1' })).body
      .data as SchoolRow;
    expect(
      (await post(fillPath(SCHOOL_ENDPOINTS.update.path, { id: created.id }), { ...VALID, code: 'keep-1' }))
        .status,
    ).toBe(200);
    const taken = await post(fillPath(SCHOOL_ENDPOINTS.update.path, { id: created.id }), {
      ...VALID,
      code: 'CHT-CA',
    });
    expect(taken.status).toBe(422);
    expect(taken.body.message).toEqual({ code: [S.codeTaken] });
  });

  it('answers 404 for a school that does not exist', async () => {
    const response = await post(fillPath(SCHOOL_ENDPOINTS.update.path, { id: 999_999 }), VALID);
    expect(response.status).toBe(404);
    expect(response.body.message).toBe(S.notFound);
    expect((await post('/api/admin/training-schools/abc', VALID)).status).toBe(404);
  });
});

describe('the status', () => {
  it('suspends and reactivates, each change audited once', async () => {
    const suspend = await post(fillPath(SCHOOL_ENDPOINTS.status.path, { id: ibadan }), {
      status: 'suspended',
    });
    expect(suspend.status).toBe(200);
    expect(suspend.body.message).toBe(S.suspended);
    expect(suspend.body.data).toMatchObject({ id: ibadan, status: 'suspended' });
    const audit = await lastAudit(t, 'school.status_changed', ibadan);
    expect(audit).toMatchObject({
      actorId: adminId,
      impersonatorId: null,
      before: { status: 'active' },
      after: { status: 'suspended' },
    });

    // The same status again is no change, and no new entry.
    expect(
      (await post(fillPath(SCHOOL_ENDPOINTS.status.path, { id: ibadan }), { status: 'suspended' })).status,
    ).toBe(200);
    expect((await lastAudit(t, 'school.status_changed', ibadan)).id).toBe(audit.id);

    const activate = await post(fillPath(SCHOOL_ENDPOINTS.status.path, { id: ibadan }), { status: 'active' });
    expect(activate.body.message).toBe(S.activated);
    expect((await lastAudit(t, 'school.status_changed', ibadan)).after).toEqual({ status: 'active' });
  });

  it('refuses an unknown status (422) and an unknown school (404)', async () => {
    const bad = await post(fillPath(SCHOOL_ENDPOINTS.status.path, { id: ibadan }), { status: 'closed' });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toEqual({ status: [S.statusInvalid] });
    expect(
      (await post(fillPath(SCHOOL_ENDPOINTS.status.path, { id: 999_999 }), { status: 'active' })).status,
    ).toBe(404);
  });

  it("a suspended school's admin still signs in and sees their records, but cannot register", async () => {
    await post(fillPath(SCHOOL_ENDPOINTS.status.path, { id: ibadan }), { status: 'suspended' });
    const token = await t.signIn('school1@example.org');
    // Their profile says so, so the portal can tell them before they try.
    const profile = await t.request('GET', '/api/training-school-admin/user-profile-information', { token });
    expect(profile.body.data.training_school).toMatchObject({ code: 'SHT-IB', status: 'suspended' });
    const list = await t.request('GET', REGISTRATION_ENDPOINTS.registered.school_admin.path, { token });
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((row: { id: number }) => row.id)).toContain(ibCandidate);
    const register = await post(
      fillPath(CANDIDATE_ENDPOINTS.regStatus.school_admin.path, { id: ibCandidate }),
      { reg_status: 'registered' },
      token,
    );
    expect(register.status).toBe(403);
    expect(register.body.message).toBe(R.registrationSchoolSuspended);

    await post(fillPath(SCHOOL_ENDPOINTS.status.path, { id: ibadan }), { status: 'active' });
    const active = await t.request('GET', '/api/training-school-admin/user-profile-information', { token });
    expect(active.body.data.training_school).toMatchObject({ code: 'SHT-IB', status: 'active' });
    const again = await post(
      fillPath(CANDIDATE_ENDPOINTS.regStatus.school_admin.path, { id: ibCandidate }),
      { reg_status: 'registered' },
      token,
    );
    expect(again.status).toBe(200);
  });
});

describe('who may', () => {
  const calls = () =>
    [
      [SCHOOL_ENDPOINTS.create.path, VALID],
      [fillPath(SCHOOL_ENDPOINTS.update.path, { id: ibadan }), VALID],
      [fillPath(SCHOOL_ENDPOINTS.status.path, { id: ibadan }), { status: 'suspended' }],
    ] as const;

  it('a school admin is refused (403) and nothing changes', async () => {
    for (const [path, json] of calls()) {
      const response = await post(path, json, tokens.school1);
      expect(response.status, path).toBe(403);
    }
    const [row] = await db().select().from(trainingSchools).where(eq(trainingSchools.id, ibadan));
    expect(row.status).toBe('active');
  });

  it('nobody signed in gets 401', async () => {
    for (const [path, json] of calls()) {
      const response = await t.request('POST', path, { json });
      expect(response.status, path).toBe(401);
      expect(response.body).toEqual({ message: UNAUTHENTICATED_MESSAGE });
    }
  });
});
