import fs from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROADCAST_LIMITS, BROADCAST_MESSAGES as M } from '../../contract/broadcasts';
import { UPLOAD_LIMIT_BYTES } from '../../contract/constants';
import { INPUT_MESSAGES } from '../../contract/input';
import { issueToken } from '../../server/auth/tokens';
import { sendBroadcastMails } from '../../server/broadcasts/outbox';
import { acknowledgementsOutstanding, broadcastsToAcknowledge } from '../../server/broadcasts/service';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import {
  broadcastMails,
  broadcasts,
  files,
  notifications,
  trainingSchools,
  users,
} from '../../server/db/schema';
import { startJobs, type Jobs } from '../../server/jobs/queue';
import type { Mail, Mailer } from '../../server/mail/mailer';
import {
  addUser,
  fetchRaw,
  lastAudit,
  PDF,
  PNG,
  pngOfSize,
  schoolIdOf,
  seedCandidates,
  text,
  until,
  userIdOf,
} from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Broadcasts over HTTP, on the database under test (PGlite, or PostgreSQL with DATABASE_URL): who may
 * send and read, the audience resolved and fixed at sending, a school's scope (another school's
 * broadcast or attachment is a 404), attachments by content and size, hostile input, the outbox mailing
 * each admin once with two workers and after a failed send, and the reminders' limit.
 */

const SEND = '/api/admin/broadcasts';
const SCHOOL = '/api/training-school-admin/broadcasts';
const quietLog = { info: () => {}, error: () => {} };

let t: TestPortal;
const db = () => t.portal.database.db;
let admin: string;
let ib: string; // school1, SHT-IB (Oyo)
let ca: string; // school2, CHT-CA (Cross River)
let ids: { ib: number; ca: number; kn: number };
const others: DatabaseHandle[] = [];
const queues: Jobs[] = [];

/** Another "API process": its own queue (and its own connections on PostgreSQL), mailing through `mailer`. */
async function process(mailer: Mailer): Promise<Jobs> {
  const url = t.databaseUrl;
  const database = url ? await openDatabase({ driver: 'postgres', url }) : t.portal.database;
  if (url) others.push(database);
  const pglite = (t.portal.database as DatabaseHandle & { pglite?: PGlite }).pglite!;
  const jobs = await startJobs(
    url ? { driver: 'postgres', url } : { driver: 'pglite', pglite },
    {
      database,
      storage: t.portal.storage,
      mailer,
      log: quietLog,
      clock: () => new Date(),
      payments: t.portal.payments,
      selfUrl: () => t.url,
      publicUrl: t.url,
    },
    { pollingIntervalSeconds: 0.5, schedule: false },
  );
  queues.push(jobs);
  return jobs;
}

beforeAll(async () => {
  t = await startTestPortal({}, { log: quietLog });
  // The portal's own worker would take every job the sends queue: stopped, so each test says who mails.
  await t.portal.jobs.stop();
  admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
  ib = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
  ca = (await issueToken(db(), await userIdOf(t, 'school2@example.org'), 60)).token;
  ids = {
    ib: await schoolIdOf(t, 'SHT-IB'),
    ca: await schoolIdOf(t, 'CHT-CA'),
    kn: await schoolIdOf(t, 'SHT-KN'),
  };
  // A second admin of SHT-IB: the outbox mails each admin of an addressed school.
  await addUser(t, {
    email: 'school1b@example.org',
    name: 'Second Admin',
    role: 'school_admin',
    trainingSchoolId: ids.ib,
  });
});
afterAll(async () => {
  for (const jobs of queues) await jobs.stop();
  for (const other of others) await other.close();
  await t?.close();
});

interface FileSpec {
  bytes: Uint8Array;
  name?: string;
  type?: string;
}

function broadcastForm(fields: Record<string, string>, files: FileSpec[] = []): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries({
    title: 'Exam timetable',
    body: 'Please read.',
    audience: 'all',
    ...fields,
  })) {
    form.append(name, value);
  }
  for (const file of files) {
    form.append(
      'attachments',
      new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type ?? 'application/pdf' }),
      file.name ?? 'timetable.pdf',
    );
  }
  return form;
}

const send = (fields: Record<string, string>, files: FileSpec[] = [], token = admin) =>
  t.request('POST', SEND, { token, form: broadcastForm(fields, files) });

async function sent(fields: Record<string, string>, files: FileSpec[] = []): Promise<number> {
  const response = await send(fields, files);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.id as number;
}

const mailsTo = (email: string) =>
  fs.existsSync(path.join(t.dataDir, 'mail'))
    ? fs
        .readdirSync(path.join(t.dataDir, 'mail'))
        .filter((name) => name.endsWith(`-${email}.eml`))
        .map((name) => fs.readFileSync(path.join(t.dataDir, 'mail', name), 'utf8'))
        // Quoted-printable, as nodemailer writes long lines.
        .map((mail) => mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='))
    : [];

/** The stored broadcast files' names (the storage may keep more beside each file). */
const storedKeys = () => {
  const dir = path.join(t.dataDir, 'uploads', 'broadcasts');
  return fs.existsSync(dir)
    ? [...new Set(fs.readdirSync(dir).filter((name) => /^[\w-]+\.\w+$/.test(name)))].sort()
    : [];
};

const runOutbox = (database = db(), mailer: Mailer = t.portal.mailer) =>
  sendBroadcastMails({ db: database, mailer, log: quietLog, publicUrl: 'https://portal.example.org' });

describe('sending', () => {
  it('only board admins send; a school admin is refused', async () => {
    expect((await send({}, [], ib)).status).toBe(403);
    expect((await t.request('POST', SEND, { form: broadcastForm({}) })).status).toBe(401);
    expect((await t.request('GET', SEND, { token: ca })).status).toBe(403);
  });

  it('resolves each kind of audience to the schools it names when sent, and keeps them', async () => {
    const schoolsOf = async (id: number) =>
      (await t.request('GET', `${SEND}/${id}`, { token: admin })).body.data.recipients
        .map((r: { school: { code: string } }) => r.school.code)
        .sort();
    const all = await db().select({ code: trainingSchools.code }).from(trainingSchools);
    expect(await schoolsOf(await sent({ audience: 'all' }))).toEqual(all.map((s) => s.code).sort());
    expect(await schoolsOf(await sent({ audience: 'schools', school_ids: `${ids.ib}\n${ids.kn}` }))).toEqual([
      'SHT-IB',
      'SHT-KN',
    ]);
    const byState = await sent({ audience: 'state', state: 'oyo' });
    expect(await schoolsOf(byState)).toEqual(['SHT-IB']);
    await seedCandidates(t, [
      { first_name: 'Bola', last_name: 'Ade', school: 'CHT-CA', course_header: 'A1' },
    ]);
    const [{ id: a1 }] = (
      await t.request('GET', '/api/admin/broadcasts/audiences', { token: admin })
    ).body.data.course_headers.filter((h: { code: string }) => h.code === 'A1');
    expect(await schoolsOf(await sent({ audience: 'course_header', course_header_id: String(a1) }))).toEqual([
      'CHT-CA',
    ]);
    await db().update(trainingSchools).set({ status: 'suspended' }).where(eq(trainingSchools.id, ids.kn));
    expect(await schoolsOf(await sent({ audience: 'status', status: 'suspended' }))).toEqual(['SHT-KN']);
    await db().update(trainingSchools).set({ status: 'active' }).where(eq(trainingSchools.id, ids.kn));

    // Fixed when sent: a school that moves into Oyo afterwards does not join the earlier broadcast.
    await db().update(trainingSchools).set({ state: 'Oyo' }).where(eq(trainingSchools.id, ids.kn));
    expect(await schoolsOf(byState)).toEqual(['SHT-IB']);
    await db().update(trainingSchools).set({ state: 'Kano' }).where(eq(trainingSchools.id, ids.kn));

    const entry = await lastAudit(t, 'broadcast.sent', byState);
    expect(entry.after).toMatchObject({ audience: { kind: 'state', state: 'oyo' }, schools: 1 });
  });

  it('refuses an audience that names no school, or schools and course headers that do not exist', async () => {
    expect((await send({ audience: 'state', state: 'Atlantis' })).body.message).toEqual({
      audience: [M.emptyAudience],
    });
    expect((await send({ audience: 'schools', school_ids: `${ids.ib},999999` })).body.message).toEqual({
      school_ids: [M.unknownSchool],
    });
    expect((await send({ audience: 'course_header', course_header_id: '999999' })).body.message).toEqual({
      course_header_id: [M.unknownCourseHeader],
    });
    const missing = await send({ audience: 'schools', title: '', body: '' });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toEqual({
      title: [M.titleRequired],
      body: [M.bodyRequired],
      school_ids: [M.chooseSchools],
    });
  });

  it('answers hostile input with 422, never 500', async () => {
    const before = (await db().select().from(broadcasts)).length;
    const cases: Record<string, string>[] = [
      { title: 'a\u0000b' },
      { audience: 'everyone' },
      { audience: 'schools', school_ids: '99999999999' },
      { audience: 'schools', school_ids: '9999999999' },
      { audience: 'course_header', course_header_id: '9999999999' },
      { audience: 'course_header', course_header_id: '2147483648' },
      { audience: 'schools', school_ids: '1; drop table broadcasts' },
      { audience: 'course_header', course_header_id: '1e308' },
      { audience: 'status', status: 'deleted' },
      { requires_acknowledgement: 'maybe' },
      { title: 'x'.repeat(BROADCAST_LIMITS.titleMax + 1) },
    ];
    for (const fields of cases) {
      const response = await send(fields);
      expect(response.status, JSON.stringify(fields)).toBe(422);
    }
    // A lone surrogate cannot travel in multipart (the client encodes it as U+FFFD); the form takes JSON too.
    const surrogate = await t.request('POST', SEND, {
      token: admin,
      json: { title: 'T', body: 'x\uD800y', audience: 'all' },
    });
    expect(surrogate.body.message).toEqual({ body: [INPUT_MESSAGES.unreadable] });
    const json = await t.request('POST', SEND, {
      token: admin,
      json: { title: ['x'], body: 5, audience: null },
    });
    expect(json.status).toBe(422);
    expect(await db().select().from(broadcasts)).toHaveLength(before);
  });
});

describe('attachments', () => {
  it('takes up to five PDFs or images, checked by content and size, and names them as sent', async () => {
    const five = [
      { bytes: PDF, name: '<b>Timetable</b>.pdf' },
      { bytes: PNG, name: 'map.png', type: 'image/png' },
      { bytes: PDF },
      { bytes: PDF },
      { bytes: pngOfSize(UPLOAD_LIMIT_BYTES), name: 'exactly-at-limit.png', type: 'image/png' },
    ];
    const ok = await send({ audience: 'schools', school_ids: String(ids.ib) }, five);
    expect(ok.status).toBe(200);
    expect(ok.body.data.attachments).toBe(5);

    const six = await send({}, [...five, { bytes: PDF }]);
    expect(six.status).toBe(422);
    expect(six.body.message).toEqual({ attachments: [M.tooManyFiles] });

    const large = await send({}, [
      { bytes: PDF },
      { bytes: pngOfSize(UPLOAD_LIMIT_BYTES + 1), type: 'image/png' },
    ]);
    expect(large.body.message).toEqual({ 'attachments.1': [M.fileTooLarge] });
    expect(M.fileTooLarge).toBe('File is too large');

    // Content-type spoofing: HTML named .pdf and sent as application/pdf; an SVG sent as an image.
    const spoofed = await send({}, [
      { bytes: text('<html><script>alert(1)</script></html>'), name: 'notes.pdf', type: 'application/pdf' },
      {
        bytes: text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        name: 'a.png',
        type: 'image/png',
      },
    ]);
    expect(spoofed.body.message).toEqual({
      'attachments.0': [M.fileNotAccepted],
      'attachments.1': [M.fileNotAccepted],
    });
    // Nothing of the refused sends was stored or recorded.
    const recorded = await db().select().from(files).where(eq(files.kind, 'broadcast_attachment'));
    expect(recorded).toHaveLength(5);
    expect(storedKeys()).toEqual(recorded.map((file) => file.key.split('/')[1]).sort());
  });

  it('serves a file only to admins and the addressed schools; another school, or a withdrawn one, is 404', async () => {
    const id = await sent({ audience: 'schools', school_ids: String(ids.ib) }, [
      { bytes: PDF, name: 'Ünïcode "plan".pdf' },
    ]);
    const detail = (await t.request('GET', `${SEND}/${id}`, { token: admin })).body.data;
    const [file] = detail.attachment_list;
    expect(file).toEqual({
      id: expect.any(Number),
      name: 'Ünïcode "plan".pdf',
      content_type: 'application/pdf',
      size: PDF.byteLength,
    });

    const adminGet = await fetchRaw(t, `${SEND}/${id}/attachments/${file.id}`, {
      authorization: `Bearer ${admin}`,
    });
    expect(adminGet.status).toBe(200);
    expect(adminGet.bytes).toEqual(PDF);
    expect(adminGet.headers.get('content-type')).toBe('application/octet-stream');
    expect(adminGet.headers.get('x-content-type-options')).toBe('nosniff');
    expect(adminGet.headers.get('content-disposition')).toBe(
      `attachment; filename="_n_code _plan_.pdf"; filename*=UTF-8''${encodeURIComponent('Ünïcode "plan".pdf')}`,
    );

    const schoolPath = `${SCHOOL}/${id}/attachments/${file.id}`;
    expect((await fetchRaw(t, schoolPath, { authorization: `Bearer ${ib}` })).status).toBe(200);
    expect((await fetchRaw(t, schoolPath, { authorization: `Bearer ${ca}` })).status).toBe(404);
    // Another broadcast's id with this attachment's id, and ids that are not ids.
    const other = await sent({ audience: 'all' });
    expect(
      (await fetchRaw(t, `${SCHOOL}/${other}/attachments/${file.id}`, { authorization: `Bearer ${ib}` }))
        .status,
    ).toBe(404);
    expect(
      (await fetchRaw(t, `${SCHOOL}/${id}/attachments/99999999999`, { authorization: `Bearer ${ib}` }))
        .status,
    ).toBe(404);
    // A school admin never reaches the board's path, nor an unsigned caller either.
    expect(
      (await fetchRaw(t, `${SEND}/${id}/attachments/${file.id}`, { authorization: `Bearer ${ib}` })).status,
    ).toBe(403);
    expect((await fetchRaw(t, schoolPath)).status).toBe(401);

    expect((await t.request('POST', `${SEND}/${id}/withdraw`, { token: admin })).status).toBe(200);
    expect((await fetchRaw(t, schoolPath, { authorization: `Bearer ${ib}` })).status).toBe(404);
    expect(
      (await fetchRaw(t, `${SEND}/${id}/attachments/${file.id}`, { authorization: `Bearer ${admin}` }))
        .status,
    ).toBe(200);
  });
});

describe("a school's side", () => {
  it('sees only what was addressed to it; opening reads it; acknowledging tells the board once', async () => {
    const id = await sent({
      audience: 'state',
      state: 'Oyo',
      title: '<img src=x onerror=alert(1)>',
      requires_acknowledgement: 'true',
    });
    const mine = (await t.request('GET', SCHOOL, { token: ib })).body.data;
    expect(mine.find((b: { id: number }) => b.id === id)).toMatchObject({
      title: '<img src=x onerror=alert(1)>',
      read_at: null,
      acknowledged_at: null,
      requires_acknowledgement: true,
    });
    const theirs = (await t.request('GET', SCHOOL, { token: ca })).body.data;
    expect(theirs.some((b: { id: number }) => b.id === id)).toBe(false);
    expect((await t.request('GET', `${SCHOOL}/${id}`, { token: ca })).status).toBe(404);
    expect((await t.request('POST', `${SCHOOL}/${id}/acknowledge`, { token: ca })).status).toBe(404);
    expect((await t.request('GET', `${SEND}/${id}`, { token: ib })).status).toBe(403);

    const before = await broadcastsToAcknowledge(db(), ids.ib);
    const outstanding = await acknowledgementsOutstanding(db());
    const opened = await t.request('GET', `${SCHOOL}/${id}`, { token: ib });
    expect(opened.body.data.read_at).not.toBeNull();
    expect((await lastAudit(t, 'broadcast.read', id)).after).toEqual({ training_school_id: ids.ib });

    const acknowledged = await t.request('POST', `${SCHOOL}/${id}/acknowledge`, { token: ib });
    expect(acknowledged.body).toMatchObject({ success: true, message: M.acknowledged });
    expect(acknowledged.body.data.acknowledged_at).not.toBeNull();
    await t.request('POST', `${SCHOOL}/${id}/acknowledge`, { token: ib });
    expect(await broadcastsToAcknowledge(db(), ids.ib)).toBe(before - 1);
    expect(await acknowledgementsOutstanding(db())).toBe(outstanding - 1);
    const told = await db()
      .select()
      .from(notifications)
      .where(
        and(eq(notifications.kind, 'broadcast.acknowledged'), eq(notifications.trainingSchoolId, ids.ib)),
      );
    expect(told.filter((n) => n.subject === String(id))).toHaveLength(1);

    const detail = (await t.request('GET', `${SEND}/${id}`, { token: admin })).body.data;
    expect(detail).toMatchObject({ schools: 1, read: 1, acknowledged: 1, can_remind: false });
    expect(detail.recipients[0]).toMatchObject({ school: { code: 'SHT-IB' } });

    const plain = await sent({ audience: 'schools', school_ids: String(ids.ib) });
    expect((await t.request('POST', `${SCHOOL}/${plain}/acknowledge`, { token: ib })).status).toBe(409);
  });

  it('a withdrawn broadcast leaves the schools’ lists, and is audited', async () => {
    const id = await sent({
      audience: 'schools',
      school_ids: String(ids.ca),
      requires_acknowledgement: 'on',
    });
    const toAck = await broadcastsToAcknowledge(db(), ids.ca);
    expect((await t.request('POST', `${SEND}/${id}/withdraw`, { token: ca })).status).toBe(403);
    const withdrawn = await t.request('POST', `${SEND}/${id}/withdraw`, { token: admin });
    expect(withdrawn.body).toEqual({ success: true, message: M.withdrawn });
    expect((await t.request('POST', `${SEND}/${id}/withdraw`, { token: admin })).status).toBe(409);
    expect(
      (await t.request('GET', SCHOOL, { token: ca })).body.data.some((b: { id: number }) => b.id === id),
    ).toBe(false);
    expect((await t.request('GET', `${SCHOOL}/${id}`, { token: ca })).status).toBe(404);
    expect(await broadcastsToAcknowledge(db(), ids.ca)).toBe(toAck - 1);
    expect((await lastAudit(t, 'broadcast.withdrawn', id)).after).toEqual({
      withdrawn_at: expect.any(String),
    });
  });
});

describe('the outbox', () => {
  it("mails each addressed school's admins once, with two workers at once, and links back without files", async () => {
    await runOutbox(); // what earlier tests queued
    const id = await sent({ audience: 'schools', school_ids: `${ids.ib},${ids.ca}`, title: 'Outbox once' }, [
      { bytes: PDF },
    ]);
    const second = t.databaseUrl
      ? await openDatabase({ driver: 'postgres', url: t.databaseUrl })
      : t.portal.database;
    if (second !== t.portal.database) others.push(second);
    const runs = await Promise.all([runOutbox(), runOutbox(second.db), runOutbox()]);
    expect(runs.reduce((sum, run) => sum + run.sent, 0)).toBe(3);
    for (const email of ['school1@example.org', 'school1b@example.org', 'school2@example.org']) {
      const mails = mailsTo(email).filter((mail) => mail.includes('Outbox once'));
      expect(mails, email).toHaveLength(1);
      expect(mails[0]).toContain(`https://portal.example.org/broadcasts/${id}`);
      expect(mails[0]).not.toMatch(/Content-Disposition: attachment/i);
    }
    const rows = await db().select().from(broadcastMails).where(eq(broadcastMails.broadcastId, id));
    expect(rows.every((row) => row.sentAt !== null)).toBe(true);
    expect((await runOutbox()).sent).toBe(0);
  });

  it('the job sent by two processes mails once; a failed send is retried by the queue and then mailed once', async () => {
    const id = await sent({ audience: 'schools', school_ids: String(ids.ca), title: 'Retried mail' });
    let calls = 0;
    const flaky: Mailer = {
      ...t.portal.mailer,
      async send(mail: Mail) {
        calls += 1;
        if (calls === 1) throw new Error('SMTP 451 try later');
        await t.portal.mailer.send(mail);
      },
    };
    // Two more "API processes", each with its queue, on the same database, mailing through the flaky mailer.
    const queues = await Promise.all([process(flaky), process(flaky)]);
    await Promise.all(
      queues.map((jobs) => jobs.send('broadcast-mail', {}, { singletonKey: 'broadcast-mail' })),
    );
    const delivered = () => mailsTo('school2@example.org').filter((mail) => mail.includes('Retried mail'));
    await until(
      async () => delivered().length,
      (n) => n > 0,
      45_000,
    );
    const [row] = await db().select().from(broadcastMails).where(eq(broadcastMails.broadcastId, id));
    expect(row).toMatchObject({ attempts: 1, lastError: 'Error: SMTP 451 try later' });
    expect(row.sentAt).not.toBeNull();
    expect(calls).toBe(2);
    // Nothing more arrives from either worker.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(delivered()).toHaveLength(1);
  }, 60_000);

  it('leaves a withdrawn broadcast’s mail unsent, and an inactive admin unmailed', async () => {
    await runOutbox();
    const id = await sent({
      audience: 'schools',
      school_ids: String(ids.ca),
      title: 'Withdrawn before mailing',
    });
    await t.request('POST', `${SEND}/${id}/withdraw`, { token: admin });
    await runOutbox();
    // What was mailed, not what this run sent: the portal's own worker, woken by the send, may run the
    // outbox before the withdrawal. Whatever it mailed then is all there is: nothing after.
    const mailed = (email: string, title: string) => mailsTo(email).filter((mail) => mail.includes(title));
    const [{ withdrawnAt }] = await db()
      .select({ withdrawnAt: broadcasts.withdrawnAt })
      .from(broadcasts)
      .where(eq(broadcasts.id, id));
    const outbox = await db()
      .select({ sentAt: broadcastMails.sentAt })
      .from(broadcastMails)
      .where(eq(broadcastMails.broadcastId, id));
    const sentBefore = outbox.filter((row) => row.sentAt !== null);
    expect(sentBefore.every((row) => row.sentAt! <= withdrawnAt!)).toBe(true);
    expect(mailed('school2@example.org', 'Withdrawn before mailing')).toHaveLength(sentBefore.length);
    await db().update(users).set({ active: false }).where(eq(users.email, 'school1b@example.org'));
    await sent({ audience: 'schools', school_ids: String(ids.ib), title: 'Inactive left out' });
    await runOutbox();
    expect(mailed('school1@example.org', 'Inactive left out')).toHaveLength(1);
    expect(mailed('school1b@example.org', 'Inactive left out')).toHaveLength(0);
    await db().update(users).set({ active: true }).where(eq(users.email, 'school1b@example.org'));
  });
});

describe('reminders', () => {
  it('remind only those that have not acknowledged, once however many ask at once, then wait', async () => {
    await runOutbox();
    const id = await sent({
      audience: 'schools',
      school_ids: `${ids.ib},${ids.ca}`,
      title: 'Please acknowledge',
      requires_acknowledgement: '1',
    });
    await t.request('POST', `${SCHOOL}/${id}/acknowledge`, { token: ib });
    expect((await t.request('POST', `${SEND}/${id}/remind`, { token: ib })).status).toBe(403);

    const burst = await Promise.all(
      Array.from({ length: 100 }, () => t.request('POST', `${SEND}/${id}/remind`, { token: admin })),
    );
    const statuses = burst.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(99);
    expect(burst.find((response) => response.status === 200)!.body).toEqual({
      success: true,
      message: M.reminded(1),
      data: { schools: 1 },
    });
    expect(burst.find((response) => response.status === 429)!.body.message).toBe(M.remindLimit);
    expect((await lastAudit(t, 'broadcast.reminded', id)).after).toMatchObject({ round: 1, schools: 1 });

    await runOutbox();
    expect(
      mailsTo('school2@example.org').filter((mail) => mail.includes('is still waiting for')),
    ).toHaveLength(1);
    expect(
      mailsTo('school1@example.org').filter((mail) => mail.includes('is still waiting for')),
    ).toHaveLength(0);

    // A day later the limit allows another, up to three in all.
    for (let round = 2; round <= 4; round++) {
      await db()
        .update(broadcasts)
        .set({ lastRemindedAt: new Date(Date.now() - 25 * 3600_000) })
        .where(eq(broadcasts.id, id));
      const response = await t.request('POST', `${SEND}/${id}/remind`, { token: admin });
      expect(response.status, `round ${round}`).toBe(round <= BROADCAST_LIMITS.remindersMax ? 200 : 429);
    }
    const plain = await sent({ audience: 'schools', school_ids: String(ids.ib) });
    expect((await t.request('POST', `${SEND}/${plain}/remind`, { token: admin })).status).toBe(409);
  });
});
