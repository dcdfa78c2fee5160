import { and, desc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGE_LIMITS, NOTIFICATION_MESSAGES, type BoardNotification } from '../../contract/notifications';
import { issueToken } from '../../server/auth/tokens';
import { auditLog, notifications, throttleHits, trainingSchools } from '../../server/db/schema';
import { userIdOf, emptyPage } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * The board's notifications (spec sections 2, 3 and 7): the unread count, the two lists with paging,
 * marking one or all as read, and the first source, a school admin's message to the board.
 */

const COUNT = '/api/admin/count-unread-notification';
const UNREAD = '/api/admin/training-school-notification-unread';
const READ = '/api/admin/training-school-notification-read';
const MARK = '/api/admin/notifications/mark-read';
const MESSAGE = '/api/training-school-admin/message-board';

let t: TestPortal;
const db = () => t.portal.database.db;
let admin: string;
let school1: string;
let school2: string;
let schoolIds: { ib: number; ca: number };

beforeAll(async () => {
  t = await startTestPortal();
  admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
  school1 = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
  school2 = (await issueToken(db(), await userIdOf(t, 'school2@example.org'), 60)).token;
  const schools = await db().select().from(trainingSchools);
  schoolIds = {
    ib: schools.find((s) => s.code === 'SHT-IB')!.id,
    ca: schools.find((s) => s.code === 'CHT-CA')!.id,
  };
});
afterAll(() => t?.close());
beforeEach(async () => {
  await db().delete(notifications);
  await db().delete(throttleHits);
});

const send = (token: string, subject: string, message: string) =>
  t.request('POST', MESSAGE, { token, json: { subject, message } });
const count = async () => (await t.request('GET', COUNT, { token: admin })).body;
const unread = async (query = '') => (await t.request('GET', `${UNREAD}${query}`, { token: admin })).body;
const read = async (query = '') => (await t.request('GET', `${READ}${query}`, { token: admin })).body;
const mark = (json: unknown, token = admin) => t.request('POST', MARK, { token, json });

describe("a school admin's message to the board", () => {
  it('becomes one unread notification of the school, with the subject as title and the message as body', async () => {
    const response = await send(school1, '  Late registration ', 'Two candidates missed the deadline.');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: { id: expect.any(Number) },
      message: NOTIFICATION_MESSAGES.messageSent,
    });

    expect(await count()).toEqual({ success: true, data: 1 });
    const page = await unread();
    expect(page).toEqual({
      success: true,
      data: {
        items: [
          {
            id: expect.any(Number),
            kind: 'school.message',
            title: 'Late registration',
            body: 'Two candidates missed the deadline.',
            school: { id: schoolIds.ib, code: 'SHT-IB', name: 'School of Health Technology, Ibadan' },
            created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
            read_at: null,
            link: {
              href: expect.stringMatching(/^\/notifications\/conversation\/\d+$/),
              label: 'Open the conversation',
            },
          },
        ],
        page: 1,
        per_page: 20,
        total: 1,
        total_exact: true,
        has_more: false,
        next_cursor: null,
        prev_cursor: null,
      },
    });
    const [row] = await db().select().from(notifications);
    expect(row).toMatchObject({ createdBy: await userIdOf(t, 'school1@example.org'), readBy: null });
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'notification.created'), eq(auditLog.entityId, String(row.id))));
    expect(entry.actorId).toBe(await userIdOf(t, 'school1@example.org'));
  });

  it('keeps markup as plain text, exactly as sent', async () => {
    const body = '<script>alert("x")</script> & <b>bold</b>\nsecond line';
    await send(school2, '<img src=x onerror=alert(1)>', body);
    const [item] = (await unread()).data.items as BoardNotification[];
    expect(item.title).toBe('<img src=x onerror=alert(1)>');
    expect(item.body).toBe(body);
    expect(item.school?.code).toBe('CHT-CA');
  });

  it.each([
    [
      'an empty body',
      {},
      { subject: [NOTIFICATION_MESSAGES.subjectRequired], message: [NOTIFICATION_MESSAGES.bodyRequired] },
    ],
    [
      'blank fields',
      { subject: '  ', message: '\n' },
      { subject: [NOTIFICATION_MESSAGES.subjectRequired], message: [NOTIFICATION_MESSAGES.bodyRequired] },
    ],
    [
      'a subject too long',
      { subject: 'x'.repeat(MESSAGE_LIMITS.subjectMax + 1), message: 'ok' },
      { subject: [NOTIFICATION_MESSAGES.tooLong] },
    ],
    [
      'a message too long',
      { subject: 'ok', message: 'x'.repeat(MESSAGE_LIMITS.bodyMax + 1) },
      { message: [NOTIFICATION_MESSAGES.tooLong] },
    ],
  ])('refuses %s with 422 and creates nothing', async (_name, json, message) => {
    const response = await t.request('POST', MESSAGE, { token: school1, json });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message });
    expect(await count()).toEqual({ success: true, data: 0 });
  });

  it('takes the longest subject and message allowed', async () => {
    const response = await send(
      school1,
      's'.repeat(MESSAGE_LIMITS.subjectMax),
      'm'.repeat(MESSAGE_LIMITS.bodyMax),
    );
    expect(response.status).toBe(200);
  });

  it('is limited generously: 200 an hour per school admin, then 429', async () => {
    const id = await userIdOf(t, 'school1@example.org');
    await db()
      .insert(throttleHits)
      .values(Array.from({ length: 199 }, () => ({ bucket: `message-board:user:${id}` })));
    expect((await send(school1, 'The 200th', 'still fine')).status).toBe(200);
    const limited = await send(school1, 'The 201st', 'too many');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ success: false, message: NOTIFICATION_MESSAGES.tooManyMessages });
    expect((await send(school2, 'Another school', 'not limited')).status).toBe(200);
  });

  it('is for school admins: an admin gets 403, nobody 401', async () => {
    expect((await send(admin, 'Subject', 'Message')).status).toBe(403);
    expect((await t.request('POST', MESSAGE, { json: { subject: 'S', message: 'M' } })).status).toBe(401);
  });
});

describe('the count and the lists', () => {
  beforeEach(async () => {
    for (let i = 1; i <= 25; i++) await send(i % 2 ? school1 : school2, `Message ${i}`, `Body ${i}`);
  });

  it('counts the unread as a number', async () => {
    expect(await count()).toEqual({ success: true, data: 25 });
  });

  it('lists the unread newest first, 20 a page by default, and pages on', async () => {
    const first = (await unread()).data;
    expect(first).toMatchObject({ page: 1, per_page: 20, total: 25 });
    expect(first.items.map((n: BoardNotification) => n.title)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Message ${25 - i}`),
    );
    const third = (await unread('?page=3&per_page=10')).data;
    expect(third).toMatchObject({ page: 3, per_page: 10, total: 25 });
    expect(third.items.map((n: BoardNotification) => n.title)).toEqual([
      'Message 5',
      'Message 4',
      'Message 3',
      'Message 2',
      'Message 1',
    ]);
    expect((await unread('?per_page=1000')).data).toMatchObject({ per_page: 100, total: 25 });
    expect((await read()).data).toEqual(emptyPage());
  });

  it('marks one read: it moves to the read list with the time, and the count drops', async () => {
    const [newest] = (await unread()).data.items as BoardNotification[];
    const response = await mark({ id: newest.id });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: NOTIFICATION_MESSAGES.markedRead });

    expect(await count()).toEqual({ success: true, data: 24 });
    const readPage = (await read()).data;
    expect(readPage.total).toBe(1);
    expect(readPage.items[0]).toMatchObject({
      id: newest.id,
      title: 'Message 25',
      read_at: expect.any(String),
    });
    expect((await unread()).data.items[0].title).toBe('Message 24');

    const [row] = await db().select().from(notifications).where(eq(notifications.id, newest.id));
    expect(row.readBy).toBe(await userIdOf(t, 'admin@example.org'));
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'notification.marked_read'), eq(auditLog.entityId, String(newest.id))));
    expect(entry).toBeTruthy();

    // Again: still fine, and the first reading is kept.
    const again = await mark({ id: newest.id });
    expect(again.body).toEqual({ success: true, message: NOTIFICATION_MESSAGES.markedRead });
    const [same] = await db().select().from(notifications).where(eq(notifications.id, newest.id));
    expect(same.readAt).toEqual(row.readAt);
  });

  it('marks all read at once', async () => {
    await mark({ id: (await unread()).data.items[3].id });
    const response = await mark({ all: true });
    expect(response.body).toEqual({ success: true, message: NOTIFICATION_MESSAGES.allMarkedRead });
    expect(await count()).toEqual({ success: true, data: 0 });
    expect((await read('?per_page=100')).data.total).toBe(25);
    expect(await db().select().from(notifications).where(isNull(notifications.readAt))).toEqual([]);
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'notification.all_marked_read'))
      .orderBy(desc(auditLog.id));
    expect(entry.after).toEqual({ count: 24 });
    // With nothing left unread it still answers the same.
    expect((await mark({ all: true })).body).toEqual({
      success: true,
      message: NOTIFICATION_MESSAGES.allMarkedRead,
    });
  });

  it('answers an unknown id with 404', async () => {
    const response = await mark({ id: 999_999 });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, message: NOTIFICATION_MESSAGES.notFound });
    expect(await count()).toEqual({ success: true, data: 25 });
  });

  it.each([
    ['an empty body', {}],
    ['both at once', { id: 1, all: true }],
    ['all: false', { all: false }],
    ['an id of text', { id: 'abc' }],
    ['a negative id', { id: -1 }],
  ])('refuses %s with 422 and marks nothing', async (_name, json) => {
    const response = await mark(json);
    expect(response.status).toBe(422);
    expect(response.body.success).toBe(false);
    expect(Object.keys(response.body.message)).toEqual([expect.stringMatching(/^(id|all)$/)]);
    expect(await count()).toEqual({ success: true, data: 25 });
  });

  it("are the board admins': a school admin gets 403 on each, nobody 401", async () => {
    for (const [method, path] of [
      ['GET', COUNT],
      ['GET', UNREAD],
      ['GET', READ],
      ['POST', MARK],
    ] as const) {
      const json = method === 'POST' ? { all: true } : undefined;
      expect((await t.request(method, path, { token: school1, json })).status, path).toBe(403);
      expect((await t.request(method, path, { json })).status, path).toBe(401);
    }
    expect(await count()).toEqual({ success: true, data: 25 });
  });
});

describe('the badge case of the e2e run', () => {
  it('100 messages make a count of 100 (the SPA shows 99+)', async () => {
    for (let i = 0; i < 100; i++) expect((await send(school1, `Bulk ${i}`, 'body')).status).toBe(200);
    expect(await count()).toEqual({ success: true, data: 100 });
  });
});
