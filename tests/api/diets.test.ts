import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DIET_MESSAGES as M,
  windowClosedMessage,
  windowNotYetOpenMessage,
  type DietRow,
  type RegistrationWindow,
} from '../../contract/diets';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';
import { DIET_ENDPOINTS } from '../../contract/diets.endpoints';
import { REGISTRATION_ENDPOINTS } from '../../contract/registration.endpoints';
import { fillPath } from '../../contract/endpoint';
import { issueToken } from '../../server/auth/tokens';
import { diets, dietExtensions, registrations, schoolNotices, trainingSchools } from '../../server/db/schema';
import { lastAudit, regStatusOf, seedCandidates, userIdOf, writeRegStatus } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Exam diets over HTTP: the board's create, edit, make current, close and extensions; the registration
 * window decided by the server's clock to the second, with and without an extension; registration per
 * diet (verification first), the registered list's diet filter, and the countdown's window.
 */

let t: TestPortal;
/** The server's clock: each test sets it. */
let now = new Date();
const db = () => t.portal.database.db;
const tokens = {} as Record<'admin' | 'school1' | 'school2', string>;
let ib: number[] = [];
let ca: number[] = [];
let unverified: number;

beforeAll(async () => {
  t = await startTestPortal({}, { clock: () => now });
  for (const who of ['admin', 'school1', 'school2'] as const) {
    tokens[who] = (await issueToken(db(), await userIdOf(t, `${who}@example.org`), 60)).token;
  }
  ib = await seedCandidates(
    t,
    ['One', 'Two', 'Three'].map((last) => ({
      first_name: 'Window',
      last_name: last,
      school: 'SHT-IB',
      course_header: 'A1',
      verified: true,
    })),
  );
  ca = await seedCandidates(t, [
    { first_name: 'Calabar', last_name: 'Window', school: 'CHT-CA', course_header: 'A1', verified: true },
  ]);
  [unverified] = await seedCandidates(t, [
    { first_name: 'Not', last_name: 'Checked', school: 'SHT-IB', course_header: 'A1' },
  ]);
});
afterAll(() => t?.close());

beforeEach(() => {
  now = new Date();
});

const post = (path: string, json: unknown = undefined, token = tokens.admin) =>
  t.request('POST', path, { token, json });
const get = (path: string, token = tokens.admin) => t.request('GET', path, { token });

let codes = 0;
/** A diet's form: its window from 2027-03-01 08:00 to 2027-03-31 17:00 Lagos time unless told. */
const dietForm = (overrides: Record<string, unknown> = {}) => ({
  code: `TEST-${++codes}`,
  name: `Test diet ${codes}`,
  first_paper_on: '2027-05-04',
  last_paper_on: '2027-05-15',
  registration_opens_at: '2027-03-01T08:00',
  registration_closes_at: '2027-03-31T17:00',
  ...overrides,
});
/** 2027-03-31 17:00 in Lagos (UTC+1) is 16:00 UTC. */
const CLOSES = new Date('2027-03-31T16:00:00.000Z');
const OPENS = new Date('2027-03-01T07:00:00.000Z');
const second = 1000;

async function createCurrentDiet(overrides: Record<string, unknown> = {}) {
  const created = await post(DIET_ENDPOINTS.create.path, dietForm(overrides));
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const row = created.body.data as DietRow;
  expect((await post(fillPath(DIET_ENDPOINTS.current.path, { id: row.id }))).status).toBe(200);
  return row;
}

const register = (id: number, token = tokens.school1, role: 'admin' | 'school_admin' = 'school_admin') =>
  post(fillPath(CANDIDATE_ENDPOINTS.regStatus[role].path, { id }), { reg_status: 'registered' }, token);

describe('the board keeps the diets', () => {
  it('creates a diet from Lagos times, audited; refuses a taken code and says what is wrong', async () => {
    const form = dietForm({ code: ' may-2099 ' });
    const created = await post(DIET_ENDPOINTS.create.path, form);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      message: M.created,
      data: {
        code: 'MAY-2099',
        registration_opens_at: OPENS.toISOString(),
        registration_closes_at: CLOSES.toISOString(),
        current: false,
        closed_at: null,
        registered: 0,
      },
    });
    expect(await lastAudit(t, 'diet.created', created.body.data.id)).toMatchObject({
      entity: 'diet',
      after: { code: 'MAY-2099' },
    });
    expect((await post(DIET_ENDPOINTS.create.path, { ...form, code: 'MAY-2099' })).body.message).toEqual({
      code: [M.codeTaken],
    });
    const wrong = await post(DIET_ENDPOINTS.create.path, {
      code: 'a',
      name: '',
      first_paper_on: '2027-02-30',
      last_paper_on: '2027-05-15',
      registration_opens_at: '2027-03-31T17:00',
      registration_closes_at: '2027-03-01T08:00',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.message).toMatchObject({
      code: [M.codeInvalid],
      name: [M.nameRequired],
      first_paper_on: [M.dateInvalid],
      registration_closes_at: [M.closesBeforeOpens],
    });
    const afterPapers = await post(
      DIET_ENDPOINTS.create.path,
      dietForm({ registration_closes_at: '2027-05-05T17:00' }),
    );
    expect(afterPapers.body.message).toEqual({ registration_closes_at: [M.closesAfterPapers] });
    for (const hostile of [
      { code: 42 },
      { name: 'a\u0000b' },
      { registration_opens_at: '2027-13-01T08:00' },
    ]) {
      expect(
        (await post(DIET_ENDPOINTS.create.path, dietForm(hostile))).status,
        JSON.stringify(hostile),
      ).toBe(422);
    }
  });

  it('one diet is current at a time, even when twenty are made current at once', async () => {
    const made = await Promise.all(
      Array.from(
        { length: 20 },
        async () => (await post(DIET_ENDPOINTS.create.path, dietForm())).body.data as DietRow,
      ),
    );
    const answers = await Promise.all(
      made.map((row) => post(fillPath(DIET_ENDPOINTS.current.path, { id: row.id }))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const current = await db().select().from(diets).where(eq(diets.current, true));
    expect(current).toHaveLength(1);
  });

  it('a closed diet stops being current and cannot be edited, made current or closed again', async () => {
    const row = await createCurrentDiet();
    const closed = await post(fillPath(DIET_ENDPOINTS.close.path, { id: row.id }));
    expect(closed.body).toMatchObject({ message: M.closedNow, data: { current: false } });
    expect(closed.body.data.closed_at).not.toBeNull();
    for (const again of [
      post(fillPath(DIET_ENDPOINTS.update.path, { id: row.id }), dietForm({ code: row.code })),
      post(fillPath(DIET_ENDPOINTS.current.path, { id: row.id })),
      post(fillPath(DIET_ENDPOINTS.close.path, { id: row.id })),
    ]) {
      expect(await again).toMatchObject({ status: 409, body: { message: M.closed } });
    }
    // With no diet current, registration says so, for the board as for a school.
    expect(await register(ib[0], tokens.admin, 'admin')).toMatchObject({
      status: 409,
      body: { message: M.noCurrentDiet },
    });
    expect(
      (await get(REGISTRATION_ENDPOINTS.window.school_admin.path, tokens.school1)).body.data,
    ).toMatchObject({
      diet: null,
      open: false,
    });
    expect((await post(fillPath(DIET_ENDPOINTS.update.path, { id: 999_999 }), dietForm())).status).toBe(404);
  });

  it('the diets as choices, newest first, for both roles; a school admin may not change them', async () => {
    const admin = (await get(DIET_ENDPOINTS.choices.admin.path)).body.data;
    const school = (await get(DIET_ENDPOINTS.choices.school_admin.path, tokens.school1)).body.data;
    expect(school).toEqual(admin);
    expect(admin.length).toBeGreaterThan(2);
    expect((await post(DIET_ENDPOINTS.create.path, dietForm(), tokens.school1)).status).toBe(403);
    expect((await get(DIET_ENDPOINTS.list.path, tokens.school1)).status).toBe(403);
  });
});

describe('the window, decided by the server to the second', () => {
  let diet: DietRow;
  beforeAll(async () => {
    diet = await createCurrentDiet();
  });
  beforeEach(async () => {
    await db().delete(registrations);
    await db().delete(dietExtensions).where(eq(dietExtensions.dietId, diet.id));
  });

  it('open from its opening moment; closed at its closing moment, not a second before', async () => {
    now = new Date(OPENS.getTime() - second);
    expect(await register(ib[0])).toMatchObject({
      status: 403,
      body: { message: windowNotYetOpenMessage(diet.name, OPENS.toISOString()) },
    });
    now = OPENS;
    expect((await register(ib[0])).status).toBe(200);
    now = new Date(CLOSES.getTime() - second);
    expect((await register(ib[1])).status).toBe(200);
    now = CLOSES;
    expect(await register(ib[2])).toMatchObject({
      status: 403,
      body: { message: windowClosedMessage(diet.name, CLOSES.toISOString()) },
    });
    expect(await regStatusOf(t, ib[2])).toBe('unregistered');
    // The board is not held to the window.
    expect((await register(ib[2], tokens.admin, 'admin')).status).toBe(200);
  });

  it("an extension keeps one school's window open to its second, and only that school's", async () => {
    const until = '2027-04-03T12:00';
    const untilInstant = new Date('2027-04-03T11:00:00.000Z');
    const granted = await post(fillPath(DIET_ENDPOINTS.grantExtension.path, { id: diet.id }), {
      training_school: 'sht-ib',
      until,
      reason: 'Flooded records office',
    });
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({
      message: M.extensionGranted,
      data: [
        { school: { code: 'SHT-IB' }, until: untilInstant.toISOString(), reason: 'Flooded records office' },
      ],
    });
    expect(await lastAudit(t, 'diet.extension_granted', diet.id)).toMatchObject({
      after: { school: 'SHT-IB', until: untilInstant.toISOString(), reason: 'Flooded records office' },
    });
    const [notice] = await db()
      .select()
      .from(schoolNotices)
      .innerJoin(trainingSchools, eq(trainingSchools.id, schoolNotices.trainingSchoolId))
      .where(and(eq(trainingSchools.code, 'SHT-IB'), eq(schoolNotices.kind, 'registration.extension')));
    expect(notice.school_notices.title).toContain(diet.name);

    now = CLOSES;
    expect((await register(ib[0])).status).toBe(200);
    expect(await register(ca[0], tokens.school2)).toMatchObject({
      status: 403,
      body: { message: windowClosedMessage(diet.name, CLOSES.toISOString()) },
    });
    now = new Date(untilInstant.getTime() - second);
    expect((await register(ib[1])).status).toBe(200);
    now = untilInstant;
    expect(await register(ib[2])).toMatchObject({
      status: 403,
      body: { message: windowClosedMessage(diet.name, untilInstant.toISOString()) },
    });

    // Each school's window, as its countdown asks for it.
    now = CLOSES;
    const own = (await get(REGISTRATION_ENDPOINTS.window.school_admin.path, tokens.school1)).body
      .data as RegistrationWindow;
    expect(own).toMatchObject({
      diet: { code: diet.code },
      open: true,
      closes_at: CLOSES.toISOString(),
      extension: { until: untilInstant.toISOString(), reason: 'Flooded records office' },
      next_change_at: untilInstant.toISOString(),
      server_now: CLOSES.toISOString(),
    });
    const other = (await get(REGISTRATION_ENDPOINTS.window.school_admin.path, tokens.school2)).body
      .data as RegistrationWindow;
    expect(other).toMatchObject({ open: false, extension: null, next_change_at: null });

    // Withdrawn: the school is back on the diet's window.
    const withdrawn = await post(
      fillPath(DIET_ENDPOINTS.withdrawExtension.path, { id: diet.id, school: 'SHT-IB' }),
    );
    expect(withdrawn.body).toMatchObject({ message: M.extensionWithdrawn, data: [] });
    await writeRegStatus(t, ib[2], 'unregistered');
    now = CLOSES;
    expect((await register(ib[2])).status).toBe(403);
    expect(
      (await post(fillPath(DIET_ENDPOINTS.withdrawExtension.path, { id: diet.id, school: 'SHT-IB' }))).status,
    ).toBe(404);
  });

  it('an extension must run past the close, for a real school, with a reason', async () => {
    const refused = await post(fillPath(DIET_ENDPOINTS.grantExtension.path, { id: diet.id }), {
      training_school: 'NOPE',
      until: '2027-03-31T17:00',
      reason: '',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toEqual({ reason: [M.reasonRequired] });
    expect(
      (
        await post(fillPath(DIET_ENDPOINTS.grantExtension.path, { id: diet.id }), {
          training_school: 'NOPE',
          until: '2027-04-02T10:00',
          reason: 'x',
        })
      ).body.message,
    ).toEqual({ training_school: [M.schoolUnknown] });
    expect(
      (
        await post(fillPath(DIET_ENDPOINTS.grantExtension.path, { id: diet.id }), {
          training_school: 'SHT-IB',
          until: '2027-03-31T17:00',
          reason: 'x',
        })
      ).body.message,
    ).toEqual({ until: [M.untilNotAfterClose] });
  });

  it("registration needs the board's verification of the documents, for the board as for a school", async () => {
    now = new Date(CLOSES.getTime() - 3600_000);
    for (const [token, role] of [
      [tokens.school1, 'school_admin'],
      [tokens.admin, 'admin'],
    ] as const) {
      expect(await register(unverified, token, role)).toMatchObject({
        status: 403,
        body: { message: M.notVerified },
      });
    }
    expect(await regStatusOf(t, unverified)).toBe('unregistered');
  });

  it("registration is per diet: the registered list shows the current diet's, and another diet's when asked", async () => {
    now = new Date(CLOSES.getTime() - 3600_000);
    const [past] = await db()
      .select()
      .from(diets)
      .where(eq(diets.code, await pastDietCode()));
    await writeRegStatus(t, ib[0], 'registered', past.id);
    await writeRegStatus(t, ib[1], 'registered');
    const list = async (query: string) =>
      (
        (
          await get(
            `${REGISTRATION_ENDPOINTS.registered.school_admin.path}?reg_status=registered${query}`,
            tokens.school1,
          )
        ).body.data.items as { id: number }[]
      ).map((row) => row.id);
    expect(await list('')).toEqual([ib[1]]);
    expect(await list(`&diet=${past.code}`)).toEqual([ib[0]]);
    expect(await list(`&diet=NO-SUCH-DIET`)).toEqual([]);
    expect(
      (await get(`${REGISTRATION_ENDPOINTS.registered.school_admin.path}?diet=lower`, tokens.school1)).status,
    ).toBe(422);
    // Unregistering keeps the row: the diet's history stays.
    expect(
      (
        await post(
          fillPath(CANDIDATE_ENDPOINTS.regStatus.school_admin.path, { id: ib[1] }),
          { reg_status: 'unregistered' },
          tokens.school1,
        )
      ).status,
    ).toBe(200);
    const [kept] = await db()
      .select()
      .from(registrations)
      .where(and(eq(registrations.candidateId, ib[1]), eq(registrations.dietId, diet.id)));
    expect(kept.regStatus).toBe('unregistered');
  });
});

async function pastDietCode() {
  const rows = await db().select({ code: diets.code, closedAt: diets.closedAt }).from(diets);
  return rows.find((row) => row.closedAt && !row.code.startsWith('TEST-') && row.code !== 'MAY-2099')!.code;
}
