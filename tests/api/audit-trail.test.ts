import { parse } from 'csv-parse/sync';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_TRAIL_MESSAGES as M, auditChanges, type AuditEntryRow } from '../../contract/auditTrail';
import { DATE_MESSAGES } from '../../contract/dates';
import { formatDateTime } from '../../contract/format';
import { AUDIT_TRAIL_LIST } from '../../contract/lists';
import type { Page } from '../../contract/pagination';
import { audit, type Actor } from '../../server/audit';
import { boardToday } from '../../server/boardDate';
import { candidates, scoreSheets } from '../../server/db/schema';
import { demoSignIns, fetchRaw, schoolIdOf, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * The audit trail (issue 27 item 1) over HTTP on the living demo: who may read it, each filter on its
 * own and together, keyset pages in (at, id) order, the CSV of the same filters, the school each entry
 * is filed under, and hostile filters answered 422. The demo's impersonated session is the example an
 * auditor looks for: the board admin's actions as SHT-IB's school admin.
 */

const PATH = AUDIT_TRAIL_LIST.path;
const ADMIN = 'admin@example.org';
const SCHOOL1 = 'school1@example.org';

let t: TestPortal;
let tokens: Awaited<ReturnType<typeof demoSignIns>>;

beforeAll(async () => {
  t = await startTestPortal({}, { livingDemo: true });
  tokens = await demoSignIns(t);
});
afterAll(() => t?.close());

const get = (query: string, token = tokens.admin) =>
  t.request('GET', `${PATH}${query ? `?${query}` : ''}`, { token });
const page = async (query: string): Promise<Page<AuditEntryRow>> => {
  const response = await get(query);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
};

/** Newest first: by time, then by entry number, both descending. */
const inOrder = (items: AuditEntryRow[]) =>
  items.every(
    (item, i) =>
      i === 0 || items[i - 1].at > item.at || (items[i - 1].at === item.at && items[i - 1].id > item.id),
  );

describe('who may read it', () => {
  it('is the board admins’: a school admin is refused, a stranger is asked to sign in', async () => {
    expect((await get('', tokens.school1)).status).toBe(403);
    expect((await get('format=csv', tokens.school1)).status).toBe(403);
    expect((await t.request('GET', PATH)).status).toBe(401);
  });
});

describe('the demo’s impersonated session', () => {
  it('shows the admin’s actions as the school admin, with the phone number before and after', async () => {
    const found = await page(`impersonator=${encodeURIComponent(ADMIN)}`);
    const adminId = await userIdOf(t, ADMIN);
    const schoolAdminId = await userIdOf(t, SCHOOL1);
    expect(found.items.length).toBeGreaterThan(0);
    expect(found.items.every((item) => item.impersonator?.id === adminId)).toBe(true);
    const profile = found.items.find((item) => item.action === 'user.profile_updated');
    expect(profile).toMatchObject({
      actor: { id: schoolAdminId, email: SCHOOL1, role: 'school_admin' },
      impersonator: { id: adminId, email: ADMIN, name: 'Adaeze Okafor', role: 'admin' },
      school: { code: 'SHT-IB' },
      entity: 'user',
      entity_id: String(schoolAdminId),
      ip: '127.0.0.1',
      request_id: 'demo-impersonation-profile',
    });
    expect(auditChanges(profile!.before, profile!.after)).toEqual([
      { field: 'phone_number', kind: 'changed', was: '+234 803 000 0200', now: '+234 803 000 0002' },
    ]);

    // Its start and end are in the log too: the start by the admin, with the reason.
    const started = await page('action=impersonation.started');
    expect(started.items[0]).toMatchObject({
      actor: { id: adminId },
      impersonator: null,
      entity_id: String(schoolAdminId),
      school: { code: 'SHT-IB' },
      after: expect.objectContaining({ reason: expect.stringContaining('sign-in codes') }),
    });
    expect((await page('action=impersonation.ended')).items.length).toBeGreaterThan(0);
  });
});

describe('filters', () => {
  it('by actor: only that user’s entries; an unknown address finds none', async () => {
    const schoolAdminId = await userIdOf(t, SCHOOL1);
    const found = await page(`actor=${encodeURIComponent(SCHOOL1.toUpperCase())}`);
    expect(found.items.length).toBeGreaterThan(0);
    expect(found.items.every((item) => item.actor?.id === schoolAdminId)).toBe(true);
    expect((await page('actor=nobody%40example.org')).items).toEqual([]);
  });

  it('by action, and by record and its number (a record’s History)', async () => {
    const one = (await page('per_page=100')).items.find((item) => item.entity_id !== null)!;
    const same = await page(`action=${one.action}&per_page=100`);
    expect(same.items.length).toBeGreaterThan(0);
    expect(same.items.every((item) => item.action === one.action && item.entity === one.entity)).toBe(true);
    const history = await page(`entity=${one.entity}&entity_id=${one.entity_id}&per_page=100`);
    expect(
      history.items.every((item) => item.entity === one.entity && item.entity_id === one.entity_id),
    ).toBe(true);
    expect(history.items.map((item) => item.id)).toContain(one.id);
    expect((await page(`entity=diet&entity_id=${one.entity_id}x`)).items).toEqual([]);
  });

  it('by school: each entry is filed under the school it is about, whoever acted', async () => {
    const ib = await schoolIdOf(t, 'SHT-IB');
    const found = await page('school=sht-ib&per_page=100');
    expect(found.items.length).toBeGreaterThan(0);
    expect(found.items.every((item) => item.school?.id === ib)).toBe(true);
    // An entry the board admin writes about a SHT-IB candidate is SHT-IB's; one about a diet is nobody's.
    const db = t.portal.database.db;
    const [candidate] = await db
      .select({ id: candidates.id })
      .from(candidates)
      .where(eq(candidates.trainingSchoolId, ib))
      .limit(1);
    const actor: Actor = { userId: tokens.adminId, impersonatorId: null, ip: null, requestId: 'test-school' };
    await audit(db, actor, { action: 'candidate.verification_changed', entityId: candidate.id, after: {} });
    await audit(db, actor, { action: 'diet.updated', entityId: 1, after: {} });
    const mine = await page('school=SHT-IB&per_page=5');
    expect(mine.items[0]).toMatchObject({ request_id: 'test-school', entity: 'candidate' });
    const both = await page(`actor=${encodeURIComponent(ADMIN)}&per_page=2`);
    expect(both.items.map((item) => [item.entity, item.school?.code ?? null])).toEqual([
      ['diet', null],
      ['candidate', 'SHT-IB'],
    ]);
    expect((await page('school=NO-SUCH')).items).toEqual([]);
  });

  it('by days in Lagos, both ends included', async () => {
    const today = boardToday();
    const todays = await page(`from=${today}&to=${today}`);
    expect(todays.items.length).toBeGreaterThan(0);
    expect((await page('to=2000-01-01')).items).toEqual([]);
    expect((await page('from=2999-01-01')).items).toEqual([]);
    // Filters together: all must hold.
    const together = await page(
      `impersonator=${encodeURIComponent(ADMIN)}&action=user.profile_updated&from=${today}`,
    );
    expect(together.items.map((item) => item.action)).toEqual(['user.profile_updated']);
  });
});

describe('paging', () => {
  it('walks newest first by keyset cursors, forwards and back, without a gap or an overlap', async () => {
    // Entries whose times are not in the order of their numbers (a long transaction commits after a
    // short one), several at the same moment: the order is by time, then by number.
    // Written with their times (the log is append-only: no entry's time can be changed afterwards).
    await t.portal.database.db.execute(
      sql`insert into audit_log (at, actor_id, action, entity, entity_id, after, request_id)
        select now() - ((g % 7) * interval '1 minute'), ${tokens.adminId}, 'diet.updated', 'diet', g::text,
          jsonb_build_object('i', g), 'test-paging'
        from generate_series(0, 29) g`,
    );
    const first = await page('per_page=7');
    expect(first.next_cursor).toBe(first.items[6].id);
    const second = await page(`per_page=7&page=2&after=${first.next_cursor}`);
    const third = await page(`per_page=7&page=3&after=${second.next_cursor}`);
    const all = [...first.items, ...second.items, ...third.items];
    expect(inOrder(all)).toBe(true);
    expect(new Set(all.map((item) => item.id)).size).toBe(21);
    // The same rows as one page of 21.
    expect((await page('per_page=21')).items.map((item) => item.id)).toEqual(all.map((item) => item.id));
    const back = await page(`per_page=7&page=2&before=${third.prev_cursor}`);
    expect(back.items.map((item) => item.id)).toEqual(second.items.map((item) => item.id));
  });
});

describe('the CSV', () => {
  it('holds the filtered entries, in the page’s order, with the readable difference', async () => {
    const query = `impersonator=${encodeURIComponent(ADMIN)}`;
    const json = await page(`${query}&per_page=100`);
    const raw = await fetchRaw(t, `${PATH}?${query}&format=csv`, { authorization: `Bearer ${tokens.admin}` });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(raw.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-trail-\d{4}-/);
    const [header, ...rows] = parse(Buffer.from(raw.bytes), { bom: true }) as string[][];
    expect(header).toEqual(AUDIT_TRAIL_LIST.columns.map((column) => column.header));
    expect(rows.map((row) => Number(row[header.indexOf('Entry number')]))).toEqual(
      json.items.map((item) => item.id),
    );
    const profile = rows.find((row) => row[header.indexOf('Action code')] === 'user.profile_updated')!;
    expect(profile[header.indexOf('Changes')]).toBe('Phone number: +234 803 000 0200 → +234 803 000 0002');
    expect(profile[header.indexOf('As whom (impersonated by)')]).toBe(`Adaeze Okafor <${ADMIN}>`);
    expect(profile[header.indexOf('Time')]).toBe(
      formatDateTime(json.items.find((i) => i.action === 'user.profile_updated')!.at),
    );
  });

  it('refuses a bad filter in JSON, as the list does', async () => {
    const response = await get('from=2027-02-30&format=csv');
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ from: [DATE_MESSAGES.invalid] });
  });
});

describe('hostile filters', () => {
  const refused = async (query: string, field: string, message: string) => {
    const response = await get(query);
    expect(response.status, query).toBe(422);
    expect(response.body.message[field], query).toEqual([message]);
  };

  it('answers 422 with the field’s sentence, never 500', async () => {
    await refused('from=2027-02-31', 'from', DATE_MESSAGES.invalid);
    await refused('to=yesterday', 'to', DATE_MESSAGES.invalid);
    await refused('to=99999-01-01', 'to', DATE_MESSAGES.invalid);
    await refused('from=2027-1-5', 'from', DATE_MESSAGES.invalid);
    await refused('action=user.became_root', 'action', M.chooseAction);
    await refused('entity=spaceship', 'entity', M.chooseEntity);
    await refused(`entity_id=${'9'.repeat(41)}`, 'entity_id', M.entityId);
    await refused('entity_id=1%3Bdrop', 'entity_id', M.entityId);
    await refused(`actor=${'a'.repeat(255)}`, 'actor', M.email);
    await refused(`school=${'X'.repeat(21)}`, 'school', M.school);
    // Wrong types: a filter given twice arrives as a list.
    await refused('action=auth.signed_in&action=auth.signed_out', 'action', M.chooseAction);
    await refused('from=2027-01-01&from=2027-01-02', 'from', DATE_MESSAGES.invalid);
  });

  it('answers NUL bytes as unreadable, never 500', async () => {
    for (const query of ['actor=a%00b', 'impersonator=%00', 'entity_id=1%00', 'school=%00']) {
      const response = await get(query);
      expect(response.status, query).toBe(422);
    }
  });

  it('takes huge numbers where they are text, and finds nothing; page numbers stay lenient', async () => {
    expect((await page(`entity=candidate&entity_id=${'9'.repeat(40)}`)).items).toEqual([]);
    const huge = await get('page=99999999999999999999&after=99999999999999999999&per_page=1e9');
    expect(huge.status).toBe(200);
  });
});

describe('blind double marking', () => {
  it('withholds the marks of a mark entry while its sheet is blind, and shows them once both submitted', async () => {
    const db = t.portal.database.db;
    const [blind] = await db
      .select({ id: scoreSheets.id })
      .from(scoreSheets)
      .where(and(eq(scoreSheets.kind, 'exam'), isNull(scoreSheets.markerTwoSubmittedAt)))
      .limit(1);
    const [open] = await db
      .select({ id: scoreSheets.id })
      .from(scoreSheets)
      .where(
        and(
          eq(scoreSheets.kind, 'exam'),
          isNotNull(scoreSheets.markerOneSubmittedAt),
          isNotNull(scoreSheets.markerTwoSubmittedAt),
        ),
      )
      .limit(1);
    const actor: Actor = { userId: tokens.adminId, impersonatorId: null, ip: null, requestId: 'test-blind' };
    const marks = { candidate_id: 1, grid: 'two', marks: ['7.5', '8'], total_score: '15.5' };
    for (const sheet of [blind, open]) {
      await audit(db, actor, { action: 'mark.changed', entityId: sheet.id, before: null, after: marks });
    }
    const shown = await page(`action=mark.changed&per_page=100`);
    const of = (id: number) =>
      shown.items.find((item) => item.entity_id === String(id) && item.request_id === 'test-blind')!;
    expect(of(blind.id)).toMatchObject({ before: null, after: null, withheld: M.marksWithheld });
    expect(of(open.id)).toMatchObject({ after: marks, withheld: null });
    const raw = await fetchRaw(t, `${PATH}?action=mark.changed&format=csv`, {
      authorization: `Bearer ${tokens.admin}`,
    });
    const [header, ...rows] = parse(Buffer.from(raw.bytes), { bom: true }) as string[][];
    const line = rows.find((row) => row[header.indexOf('Entry number')] === String(of(blind.id).id))!;
    expect(line[header.indexOf('Changes')]).toBe(M.marksWithheld);
    expect(line[header.indexOf('After')]).toBe('');
    expect(line.join(' ')).not.toContain('7.5');
  });
});
