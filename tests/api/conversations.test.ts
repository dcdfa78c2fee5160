import fs from 'node:fs';
import path from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONVERSATION_MESSAGES as M, type Conversation } from '../../contract/conversations';
import { CONVERSATION_ENDPOINTS as E } from '../../contract/conversations.endpoints';
import { fillPath } from '../../contract/endpoint';
import { NOTIFICATION_MESSAGES, type BoardNotification } from '../../contract/notifications';
import { NOTIFICATION_ENDPOINTS } from '../../contract/notifications.endpoints';
import { PAYMENT_ENDPOINTS } from '../../contract/payments.endpoints';
import { REGISTRATION_ENDPOINTS } from '../../contract/registration.endpoints';
import { RESIT_ENDPOINTS } from '../../contract/resits.endpoints';
import { issueToken } from '../../server/auth/tokens';
import { mailConversationAnswers } from '../../server/conversations/mail';
import { schoolConversations, unansweredMessages, unreadAnswers } from '../../server/conversations/service';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import {
  auditLog,
  conversationMails,
  conversationMessages,
  conversations,
  notifications,
  throttleHits,
} from '../../server/db/schema';
import type { Mailer } from '../../server/mail/mailer';
import { MESSAGE_LIMIT } from '../../server/notifications/service';
import {
  addFee,
  candidateIndexOf,
  currentDietOf,
  sandboxCheckout,
  seedCandidates,
  seedPayers,
  schoolIdOf,
  until,
  userIdOf,
} from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * A school's messages with the board (issue 26): a message is a conversation the board answers from its
 * notification, the school reads and replies; each school sees only its own; the answer's mail goes
 * through the outbox once however the job is run; and every source of the board's notifications writes
 * its notification with the link to what it is about. PGlite, and PostgreSQL with DATABASE_URL.
 */

let t: TestPortal;
const db = () => t.portal.database.db;
const tokens = {} as Record<'admin' | 'school1' | 'school2', string>;
const quietLog = { info: () => {}, error: () => {} };
const others: DatabaseHandle[] = [];

beforeAll(async () => {
  t = await startTestPortal();
  for (const [name, email] of [
    ['admin', 'admin@example.org'],
    ['school1', 'school1@example.org'],
    ['school2', 'school2@example.org'],
  ] as const) {
    tokens[name] = (await issueToken(db(), await userIdOf(t, email), 60)).token;
  }
});
afterAll(async () => {
  for (const other of others) await other.close();
  await t?.close();
});
beforeEach(async () => {
  await db().delete(throttleHits);
});

const write = (subject: string, message: string, token = tokens.school1) =>
  t.request('POST', NOTIFICATION_ENDPOINTS.messageBoard.path, { token, json: { subject, message } });
const at = (endpoint: { path: string }, id: number | string) => fillPath(endpoint.path, { id: String(id) });
const unread = async (): Promise<BoardNotification[]> =>
  (await t.request('GET', `${NOTIFICATION_ENDPOINTS.unread.path}?per_page=100`, { token: tokens.admin })).body
    .data.items;
const answerMails = (who: string) => {
  const dir = path.join(t.dataDir, 'mail');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(`-${who}.eml`))
    .map((name) => fs.readFileSync(path.join(dir, name), 'utf8'))
    .filter((text) => text.includes('Subject: The board has answered'));
};

async function startOne(subject = 'Late registration', token = tokens.school1): Promise<number> {
  const response = await write(subject, 'Two candidates missed the deadline.', token);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.message).toBe(NOTIFICATION_MESSAGES.messageSent);
  return response.body.data.id as number;
}

describe('a conversation: the school writes, the board answers from Notifications, the school reads and replies', () => {
  it('goes both ways, each step told to the other side and audited', async () => {
    const id = await startOne('Exam <b>hall</b>');
    // The board's notification leads to the conversation.
    const note = (await unread()).find((n) => n.kind === 'school.message' && n.title === 'Exam <b>hall</b>')!;
    expect(note.link).toEqual({ href: `/notifications/conversation/${id}`, label: 'Open the conversation' });
    expect(note.school?.code).toBe('SHT-IB');

    const opened = await t.request('GET', at(E.boardOne, id), { token: tokens.admin });
    expect(opened.status).toBe(200);
    expect(opened.body.data).toMatchObject({
      id,
      subject: 'Exam <b>hall</b>',
      school: { code: 'SHT-IB' },
      messages: [{ from: 'school', body: 'Two candidates missed the deadline.' }],
    });

    const answered = await t.request('POST', at(E.answer, id), {
      token: tokens.admin,
      json: { message: '  We will extend your window.\n<script>x</script>  ' },
    });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(answered.body.message).toBe(M.answered);
    const thread = answered.body.data as Conversation;
    expect(thread.messages.map((m) => [m.from, m.body])).toEqual([
      ['school', 'Two candidates missed the deadline.'],
      ['board', 'We will extend your window.\n<script>x</script>'],
    ]);
    // Answered: its notification is read.
    expect((await unread()).some((n) => n.id === note.id)).toBe(false);

    // The school sees it among its own, with one unread answer, until it opens it.
    const listed = await t.request('GET', E.schoolList.path, { token: tokens.school1 });
    expect(listed.body.data.find((c: { id: number }) => c.id === id)).toMatchObject({
      subject: 'Exam <b>hall</b>',
      last_from: 'board',
      messages: 2,
      unread_answers: 1,
    });
    // The Dashboard's readers agree with the list.
    const schoolId = await schoolIdOf(t, 'SHT-IB');
    const listedUnread = (listed.body.data as { unread_answers: number }[]).reduce(
      (sum, c) => sum + c.unread_answers,
      0,
    );
    expect(await unreadAnswers(db(), schoolId)).toBe(listedUnread);
    expect((await schoolConversations(db(), schoolId, { limit: 1 }))[0].id).toBe(id);
    const waiting = await db()
      .select({ total: count() })
      .from(conversations)
      .where(eq(conversations.lastFromBoard, false));
    expect(await unansweredMessages(db())).toBe(waiting[0].total);
    // Opening it reads it.
    const mine = await t.request('GET', at(E.schoolOne, id), { token: tokens.school1 });
    expect(mine.body.data.messages).toHaveLength(2);
    const after = await t.request('GET', E.schoolList.path, { token: tokens.school1 });
    expect(after.body.data.find((c: { id: number }) => c.id === id).unread_answers).toBe(0);
    expect(await unreadAnswers(db(), schoolId)).toBe(listedUnread - 1);

    // The school replies: the board is told again, with the same link.
    const replied = await t.request('POST', at(E.reply, id), {
      token: tokens.school1,
      json: { message: 'Thank you.' },
    });
    expect(replied.status).toBe(200);
    expect(replied.body.message).toBe(M.replied);
    expect(replied.body.data.messages.map((m: { from: string }) => m.from)).toEqual([
      'school',
      'board',
      'school',
    ]);
    const reply = (await unread()).find((n) => n.title === 'Reply: Exam <b>hall</b>')!;
    expect(reply).toMatchObject({ body: 'Thank you.', link: { href: `/notifications/conversation/${id}` } });

    const actions = await db()
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'conversation'), eq(auditLog.entityId, String(id))));
    expect(actions.map((a) => a.action).sort()).toEqual([
      'conversation.answered',
      'conversation.replied',
      'conversation.started',
    ]);
  });
});

describe('who sees which conversation', () => {
  it("a school sees only its own: another school's id, or one that does not exist, is 404", async () => {
    const id = await startOne('Only ours');
    for (const request of [
      () => t.request('GET', at(E.schoolOne, id), { token: tokens.school2 }),
      () => t.request('POST', at(E.reply, id), { token: tokens.school2, json: { message: 'Hello' } }),
      () => t.request('GET', at(E.schoolOne, 999_999), { token: tokens.school1 }),
      () => t.request('GET', at(E.boardOne, 999_999), { token: tokens.admin }),
      () => t.request('GET', at(E.schoolOne, 'abc'), { token: tokens.school1 }),
    ]) {
      const response = await request();
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, message: M.notFound });
    }
    const theirs = await t.request('GET', E.schoolList.path, { token: tokens.school2 });
    expect(theirs.body.data.some((c: { id: number }) => c.id === id)).toBe(false);
    const [{ total }] = await db()
      .select({ total: count() })
      .from(conversationMessages)
      .where(eq(conversationMessages.conversationId, id));
    expect(total).toBe(1);
  });

  it("each role's calls are its own: 403 for the other role, 401 for nobody", async () => {
    const id = await startOne('Roles');
    expect((await t.request('GET', at(E.boardOne, id), { token: tokens.school1 })).status).toBe(403);
    expect(
      (await t.request('POST', at(E.answer, id), { token: tokens.school1, json: { message: 'x' } })).status,
    ).toBe(403);
    expect((await t.request('GET', E.schoolList.path, { token: tokens.admin })).status).toBe(403);
    expect((await t.request('GET', E.schoolList.path)).status).toBe(401);
  });
});

describe('hostile input', () => {
  it.each([
    ['a NUL byte', { message: 'bad\u0000byte' }],
    ['a lone surrogate', { message: 'half \ud800 a pair' }],
    ['a number', { message: 12 }],
    ['an array', { message: ['a'] }],
    ['nothing', {}],
    ['blank', { message: ' \n ' }],
    ['too long', { message: 'x'.repeat(5001) }],
  ])('%s is 422 for an answer and a reply, and writes nothing', async (_name, json) => {
    const id = await startOne('Hostile');
    const answer = await t.request('POST', at(E.answer, id), { token: tokens.admin, json });
    const reply = await t.request('POST', at(E.reply, id), { token: tokens.school1, json });
    expect(answer.status).toBe(422);
    expect(reply.status).toBe(422);
    const [{ total }] = await db()
      .select({ total: count() })
      .from(conversationMessages)
      .where(eq(conversationMessages.conversationId, id));
    expect(total).toBe(1);
  });
});

describe("the answer's mail, through the outbox", () => {
  it('is mailed once to each active admin of the school, however many workers run at once or again', async () => {
    const id = await startOne('Mail me once', tokens.school2);
    const response = await t.request('POST', at(E.answer, id), {
      token: tokens.admin,
      json: { message: 'Answered.' },
    });
    expect(response.status).toBe(200);
    const [outbox] = await db()
      .select()
      .from(conversationMails)
      .innerJoin(conversationMessages, eq(conversationMessages.id, conversationMails.messageId))
      .where(eq(conversationMessages.conversationId, id));
    expect(outbox.conversation_mails.toEmail).toBe('school2@example.org');

    // The job the answer woke, two more runs at once (another "process" on PostgreSQL), and the job
    // sent again: one mail.
    const second = t.databaseUrl ? await openDatabase({ driver: 'postgres', url: t.databaseUrl }) : null;
    if (second) others.push(second);
    const run = (database = db()) =>
      mailConversationAnswers({ db: database, mailer: t.portal.mailer, log: quietLog, publicUrl: t.url });
    await Promise.all([run(), run(second?.db ?? db()), run()]);
    await t.portal.jobs.send('conversation-mail');
    await run();
    const mails = await until(
      async () => answerMails('school2@example.org'),
      (found) => found.length >= 1,
    );
    expect(mails).toHaveLength(1);
    // It links to the conversation in the portal and carries no answer text and no token.
    expect(mails[0]).toMatch(new RegExp(`Sign in to the portal to read it: http\\S+/messages/${id}\\n`));
    expect(mails[0]).not.toContain('Answered.');
    // The worker that sent it marks it in the same transaction, which may commit a moment after the mail.
    const row = await until(
      async () =>
        (
          await db()
            .select()
            .from(conversationMails)
            .where(eq(conversationMails.id, outbox.conversation_mails.id))
        )[0],
      (found) => found.mailedAt !== null,
    );
    expect(row.mailedAt).not.toBeNull();
  });

  it('a failed send is sent again by the next run, once', async () => {
    const id = await startOne('Retry me', tokens.school2);
    await t.request('POST', at(E.answer, id), { token: tokens.admin, json: { message: 'Again.' } });
    // The answer's own job has mailed it; its outbox row is put back as a new one, written without waking
    // the job, so the runs below are the ones that take it (the test portal's worker polls every 10 s).
    const [message] = await db()
      .select({ id: conversationMessages.id })
      .from(conversationMessages)
      .where(and(eq(conversationMessages.conversationId, id), eq(conversationMessages.fromBoard, true)));
    await until(
      () => db().select().from(conversationMails).where(eq(conversationMails.messageId, message.id)),
      (rows) => rows.every((row) => row.mailedAt !== null),
    );
    await db().delete(conversationMails).where(eq(conversationMails.messageId, message.id));
    await db().insert(conversationMails).values({ messageId: message.id, toEmail: 'school2@example.org' });
    let calls = 0;
    const failing: Mailer = {
      send: async () => {
        calls += 1;
        throw new Error('SMTP is down');
      },
      describe: () => 'failing',
      close: () => {},
    };
    await expect(
      mailConversationAnswers({ db: db(), mailer: failing, log: quietLog, publicUrl: t.url }),
    ).rejects.toThrow('SMTP is down');
    expect(calls).toBe(1);
    const pending = await db()
      .select()
      .from(conversationMails)
      .innerJoin(conversationMessages, eq(conversationMessages.id, conversationMails.messageId))
      .where(eq(conversationMessages.conversationId, id));
    expect(pending[0].conversation_mails.mailedAt).toBeNull();
    const sent: string[] = [];
    const working: Mailer = {
      send: async (mail) => void sent.push(mail.to),
      describe: () => '',
      close: () => {},
    };
    await mailConversationAnswers({ db: db(), mailer: working, log: quietLog, publicUrl: t.url });
    await mailConversationAnswers({ db: db(), mailer: working, log: quietLog, publicUrl: t.url });
    expect(sent).toEqual(['school2@example.org']);
  });
});

describe('the message limit holds under a burst', () => {
  it('100 replies at once with 10 places left: exactly 10 are written, the rest are 429', async () => {
    const id = await startOne('Burst'); // one place taken
    const userId = await userIdOf(t, 'school1@example.org');
    await db()
      .insert(throttleHits)
      .values(
        Array.from({ length: MESSAGE_LIMIT.max - 10 - 1 }, () => ({
          bucket: `message-board:user:${userId}`,
        })),
      );
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.request('POST', at(E.reply, id), { token: tokens.school1, json: { message: `Burst ${i}` } }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(90);
    const [{ total }] = await db()
      .select({ total: count() })
      .from(conversationMessages)
      .where(eq(conversationMessages.conversationId, id));
    expect(total).toBe(11);
  });
});

describe("the board's notification sources, each with its link", () => {
  const ofKind = async (kind: string) => (await unread()).filter((n) => n.kind === kind);

  it('a resit entry added by a school links to the resit list searched for the candidate; the board’s own tells nobody', async () => {
    await db().delete(notifications);
    const [ib, ib2] = await seedCandidates(t, [
      { first_name: 'Resit', last_name: 'One', school: 'SHT-IB', course_header: 'A1', verified: true },
      { first_name: 'Resit', last_name: 'Two', school: 'SHT-IB', course_header: 'A1', verified: true },
    ]);
    const diet = (await currentDietOf(t)).code;
    const index = await candidateIndexOf(t, ib);
    const added = await t.request('POST', RESIT_ENDPOINTS.add.school_admin.path, {
      token: tokens.school1,
      json: { candidate_index: index, diet, papers: ['Paper I'] },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const byBoard = await t.request('POST', RESIT_ENDPOINTS.add.admin.path, {
      token: tokens.admin,
      json: { candidate_index: await candidateIndexOf(t, ib2), diet, papers: ['Oral'] },
    });
    expect(byBoard.status).toBe(200);
    const told = await ofKind('resit.added');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      school: { code: 'SHT-IB' },
      link: { href: `/candidate/resit?search=${encodeURIComponent(index)}`, label: 'See the resit entry' },
    });
    expect(told[0].body).toContain(index);
  });

  it("a school's registrations link to its registered candidates (one notification for the burst)", async () => {
    await db().delete(notifications);
    const ids = await seedCandidates(t, [
      { first_name: 'Reg', last_name: 'One', school: 'SHT-IB', course_header: 'A1', verified: true },
      { first_name: 'Reg', last_name: 'Two', school: 'SHT-IB', course_header: 'A1', verified: true },
    ]);
    const response = await t.request('POST', REGISTRATION_ENDPOINTS.bulk.school_admin.path, {
      token: tokens.school1,
      json: { candidate_ids: ids },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const told = await ofKind('candidates.registered');
    expect(told).toHaveLength(1);
    expect(told[0].link).toEqual({
      href: '/candidate/candidate-registered?school=SHT-IB&reg_status=registered',
      label: 'See the registered candidates',
    });
  });

  it('a payment credited links to its receipt', async () => {
    await db().delete(notifications);
    const [payer] = await seedPayers(t, 1, 'Pays', (i) => `Payer${i}`);
    const fee = await addFee(t, tokens.admin);
    const started = await t.request('POST', PAYMENT_ENDPOINTS.start.path, {
      token: tokens.school1,
      json: { fee_id: fee, candidate_ids: [payer] },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const { reference, access_code } = started.body.data;
    await sandboxCheckout(t, access_code, 'pay');
    const verified = await t.request('POST', `/api/training-school-admin/payments/${reference}/verify`, {
      token: tokens.school1,
    });
    expect(verified.body.data.status).toBe('paid');
    const told = await until(
      () => ofKind('payment.received'),
      (rows) => rows.length > 0,
    );
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      school: { id: await schoolIdOf(t, 'SHT-IB') },
      link: { href: `/payments/receipt/${encodeURIComponent(reference)}`, label: 'See the receipt' },
    });
  });

  it('a conversation row and its notification are never left without the other', async () => {
    const before = (await db().select({ total: count() }).from(conversations))[0].total;
    expect((await write('', 'no subject')).status).toBe(422);
    expect((await db().select({ total: count() }).from(conversations))[0].total).toBe(before);
  });
});
