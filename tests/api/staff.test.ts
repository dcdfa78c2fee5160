import fs from 'node:fs';
import path from 'node:path';
import { and, eq, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../contract/auth';
import { AUTH_ENDPOINTS } from '../../contract/auth.endpoints';
import { fillPath } from '../../contract/endpoint';
import { INPUT_MESSAGES } from '../../contract/input';
import { SCORE_ENDPOINTS } from '../../contract/scores.endpoints';
import { INVITATION_SENDS_PER_DAY, STAFF_MESSAGES as M, type StaffMember } from '../../contract/staff';
import { STAFF_ENDPOINTS as E } from '../../contract/staff.endpoints';
import { issueToken } from '../../server/auth/tokens';
import { staffInvitations, users } from '../../server/db/schema';
import type { Mail, Mailer } from '../../server/mail/mailer';
import { mailWaitingInvitations } from '../../server/staff/invitations';
import type { Logger } from '../../server/log';
import { addUser, demoSignIns, lastAudit, until } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Board staff (issue 26): the board admins listed with their status and sheets, a new one invited by
 * mail (through the job queue's outbox) who sets a password through the reset path and signs in, the
 * invitation re-sent a few times a day, and suspension: tokens end at once, a suspended admin is told
 * so at sign-in, and no admin suspends themselves or leaves the board without an active admin, even
 * with a hundred requests at once. Run on PGlite, and on PostgreSQL with DATABASE_URL.
 */

let t: TestPortal;
const db = () => t.portal.database.db;
let adminId: number;
let tokens: { admin: string; school1: string };
const logLines: string[] = [];
const log: Logger = {
  info: (event, fields) => void logLines.push(JSON.stringify({ event, ...fields })),
  error: (event, fields) => void logLines.push(JSON.stringify({ event, ...fields })),
};

beforeAll(async () => {
  t = await startTestPortal({}, { log });
  ({ adminId, ...tokens } = await demoSignIns(t));
}, 60_000);
afterAll(() => t?.close());

const post = (route: string, json: unknown, token: string | undefined = tokens.admin) =>
  t.request('POST', route, { token, json });
const list = async (token = tokens.admin) => {
  const response = await t.request('GET', E.list.path, { token });
  expect(response.status).toBe(200);
  return response.body.data as StaffMember[];
};
const memberOf = async (id: number) => (await list()).find((m) => m.id === id);
const suspension = (id: number, suspended: unknown, token = tokens.admin) =>
  post(fillPath(E.suspension.path, { id }), { suspended }, token);

/** The invitation mails sent to this address, oldest first. */
function invitationsTo(email: string): string[] {
  const dir = path.join(t.dataDir, 'mail');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(`-${email}.eml`))
    .sort()
    .map((name) => fs.readFileSync(path.join(dir, name), 'utf8'))
    .filter((mail) => /^Subject: You are invited/m.test(mail));
}

/** The link of the newest invitation, as the invitee reads it: its address, and the code it carries. */
function invitationLink(email: string) {
  const mails = invitationsTo(email);
  const mail = mails[mails.length - 1] ?? '';
  // Quoted-printable may fold a long line: unfold it first.
  const body = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const link = /(http\S+\/reset-password#\S+)/.exec(body)?.[1];
  if (!link) throw new Error(`No invitation link mailed to ${email}`);
  const fragment = new URLSearchParams(new URL(link).hash.slice(1));
  return { link, email: fragment.get('email')!, code: fragment.get('code')! };
}

let counter = 0;
async function invite(name = 'Funmilayo Bello') {
  const email = `staff.${++counter}@example.org`;
  const response = await post(E.invite.path, { name, email: email.toUpperCase() });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { id: (response.body.data as StaffMember).id, email, body: response.body };
}

const setPassword = (email: string, code: string, password: string) =>
  post(AUTH_ENDPOINTS.resetPassword.path, { email, code, password, password_confirmation: password }, '');

/** An active board admin beside the demo's, signed in with a token of their own. */
async function activeAdmin(name: string) {
  const email = `active.${++counter}@example.org`;
  const id = await addUser(t, { email, name, role: 'admin' });
  return { id, email, token: (await issueToken(db(), id, 60)).token };
}

describe('who may call it', () => {
  it('answers board admins only: a school admin is refused, and no token is unauthenticated', async () => {
    const calls = [
      () => t.request('GET', E.list.path, { token: tokens.school1 }),
      () => post(E.invite.path, { name: 'X', email: 'x@example.org' }, tokens.school1),
      () => post(fillPath(E.resendInvitation.path, { id: adminId }), {}, tokens.school1),
      () => suspension(adminId, true, tokens.school1),
    ];
    for (const call of calls) expect((await call()).status).toBe(403);
    expect((await t.request('GET', E.list.path)).status).toBe(401);
    expect((await post(E.invite.path, { name: 'X', email: 'y@example.org' }, '')).status).toBe(401);
    const [row] = await db().select().from(users).where(eq(users.email, 'x@example.org'));
    expect(row).toBeUndefined();
  });

  it('lists the board admins, never a school admin, marking the caller', async () => {
    const staff = await list();
    expect(staff.find((m) => m.id === adminId)).toMatchObject({ status: 'active', is_you: true });
    expect(staff.every((m) => !m.email.startsWith('school'))).toBe(true);
  });
});

describe('validation', () => {
  it.each([
    [{ email: 'a@example.org' }, 'name'],
    [{ name: 'A' }, 'email'],
    [{ name: 'A', email: 'not an email' }, 'email'],
    [{ name: 5, email: 'a@example.org' }, 'name'],
    [{ name: 'A', email: ['a@example.org'] }, 'email'],
    [{ name: 'A\u0000B', email: 'a@example.org' }, 'name'],
    [{ name: 'A\uD800', email: 'a@example.org' }, 'name'],
    [{ name: 'x'.repeat(151), email: 'a@example.org' }, 'name'],
  ])('refuses %j with a 422 on %s', async (body, field) => {
    const response = await post(E.invite.path, body);
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.message)).toContain(field);
  });

  it('refuses an email any account already has, whatever its case', async () => {
    const response = await post(E.invite.path, { name: 'Again', email: 'SCHOOL1@example.org' });
    expect(response.status).toBe(422);
    expect(response.body.message.email).toEqual([M.emailTaken]);
  });

  it('refuses a suspension that is not a boolean, and an unknown or out-of-range id', async () => {
    for (const value of ['true', 1, null, [true]]) {
      expect((await suspension(adminId, value)).status).toBe(422);
    }
    const bad = await post(fillPath(E.suspension.path, { id: adminId }), 'not an object');
    expect(bad.status).toBe(422);
    const hostile = await suspension(adminId, '\u0000\uD800');
    expect(hostile.status).toBe(422);
    expect(Object.values(hostile.body.message as Record<string, string[]>).flat()).toContain(
      INPUT_MESSAGES.unreadable,
    );
    expect((await suspension(2_147_483_647, true)).status).toBe(404);
    expect((await suspension(2_147_483_648, true)).status).toBe(404);
    // A school admin's id is as unknown as any other here.
    const [school1] = await db()
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'school1@example.org'));
    expect((await suspension(school1.id, true)).status).toBe(404);
  });
});

describe('an invitation', () => {
  it('is mailed once through the outbox; its link sets a password, and the new admin signs in', async () => {
    const { id, email, body } = await invite('Funmilayo "Funmi" <Bello>');
    expect(body.message).toBe(M.invited);
    expect(body.data).toMatchObject({ status: 'invited', email, last_signed_in_at: null, sheets: [] });
    expect((await lastAudit(t, 'staff.invited', id))?.actorId).toBe(adminId);

    const mails = await until(
      async () => invitationsTo(email),
      (found) => found.length > 0,
    );
    expect(mails).toHaveLength(1);
    // The queue's five-minute run, run again now, finds nothing left to mail.
    await t.portal.jobs.send('staff-invitation', {});
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(invitationsTo(email)).toHaveLength(1);

    const { link, code } = invitationLink(email);
    expect(link).toMatch(/^https?:\/\/[^/]+\/reset-password#invitation=1&/);
    expect(code).toMatch(/^\d{6}$/);
    // The link and its code reach the mailbox and no log line.
    expect(logLines.some((line) => line.includes(code) && line.includes('invitation'))).toBe(false);
    expect(
      logLines.some((line) => line.includes(encodeURIComponent(email)) || line.includes('#invitation')),
    ).toBe(false);

    // Not yet a marker: an invited admin cannot mark.
    const sheets = await t.request('GET', `${SCORE_ENDPOINTS.sheets.path}`, { token: tokens.admin });
    expect(sheets.status).toBe(200);
    expect((sheets.body.data.markers as { id: number }[]).some((m) => m.id === id)).toBe(false);

    const password = 'the invitee chose this';
    const reset = await setPassword(email, code, password);
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect((await memberOf(id))?.status).toBe('active');
    expect(await lastAudit(t, 'staff.joined', id)).toBeTruthy();
    // The code worked once.
    expect((await setPassword(email, code, 'another password here')).status).toBe(422);

    const token = await t.signIn(email, password);
    const me = await t.request('GET', '/api/admin/user-profile-information', { token });
    expect(me.body.data).toMatchObject({ id, email, user_role: 'admin' });
    expect((await memberOf(id))?.last_signed_in_at).not.toBeNull();
    const markers = await t.request('GET', SCORE_ENDPOINTS.sheets.path, { token: tokens.admin });
    expect((markers.body.data.markers as { id: number }[]).some((m) => m.id === id)).toBe(true);
  });

  it('is re-sent a few times a day, each mail voiding the one before; never to one who has joined', async () => {
    const { id, email } = await invite();
    await until(
      async () => invitationsTo(email),
      (found) => found.length === 1,
    );
    const first = invitationLink(email).code;
    const resend = () => post(fillPath(E.resendInvitation.path, { id }), {});
    const again = await resend();
    expect(again.status).toBe(200);
    expect(again.body.message).toBe(M.invitationResent);
    await until(
      async () => invitationsTo(email),
      (found) => found.length === 2,
    );
    expect(invitationsTo(email)).toHaveLength(2);
    for (let sent = 2; sent < INVITATION_SENDS_PER_DAY; sent++) expect((await resend()).status).toBe(200);
    const spent = await resend();
    expect(spent.status).toBe(429);
    expect(spent.body.message).toBe(M.tooManyInvitations);
    await until(
      async () => invitationsTo(email),
      (found) => found.length === INVITATION_SENDS_PER_DAY,
    );
    const newest = invitationLink(email).code;
    if (newest !== first) expect((await setPassword(email, first, 'an older code here')).status).toBe(422);
    expect((await setPassword(email, newest, 'the newest code works')).status).toBe(200);
    const joined = await post(fillPath(E.resendInvitation.path, { id }), {});
    expect(joined.status).toBe(409);
    expect(joined.body.message).toBe(M.notInvited);
  });
});

describe('the outbox', () => {
  /** A mailer that keeps what it is given, failing the first `failures` sends. */
  function keepingMailer(failures = 0): Mailer & { sent: Mail[] } {
    const sent: Mail[] = [];
    let left = failures;
    return {
      sent,
      async send(mail) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (left-- > 0) throw new Error('the mail server is down');
        sent.push(mail);
      },
      describe: () => 'kept',
      close: () => {},
    };
  }

  it('mails a waiting invitation once with two workers at once, and again after a failed send', async () => {
    const { id, email } = await invite('Outbox Test');
    // The route's own job mails it first; wait until its run is over, then queue one more by hand.
    await until(
      () =>
        db()
          .select({ mailedAt: staffInvitations.mailedAt })
          .from(staffInvitations)
          .where(eq(staffInvitations.userId, id)),
      (rows) => rows.every((row) => row.mailedAt !== null),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    await db().insert(staffInvitations).values({ userId: id, invitedBy: adminId });
    const failing = keepingMailer(1);
    await expect(
      mailWaitingInvitations({ db: db(), mailer: failing, publicUrl: 'http://portal.test' }),
    ).rejects.toThrow('the mail server is down');
    expect(failing.sent).toHaveLength(0);
    const mailer = keepingMailer();
    const post = { db: db(), mailer, publicUrl: 'http://portal.test' };
    const runs = await Promise.all([mailWaitingInvitations(post), mailWaitingInvitations(post)]);
    expect(mailer.sent.filter((mail) => mail.to === email)).toHaveLength(1);
    expect(runs.reduce((sum, run) => sum + run.mailed, 0)).toBe(1);
    expect(mailer.sent[0].kind).toBe('board invitation');
    expect(mailer.sent[0].text).toContain('http://portal.test/reset-password#invitation=1&');
    // Nothing is left: a third run mails nothing.
    expect(await mailWaitingInvitations(post)).toEqual({ mailed: 0, dropped: 0 });
  });
});

describe('suspension', () => {
  it("ends the admin's tokens at once, tells them at sign-in, and is undone by reinstating", async () => {
    const other = await activeAdmin('Kelechi Nwosu');
    expect((await t.request('GET', E.list.path, { token: other.token })).status).toBe(200);

    const suspended = await suspension(other.id, true);
    expect(suspended.status).toBe(200);
    expect(suspended.body.message).toBe(M.suspended);
    expect(suspended.body.data.status).toBe('suspended');
    expect((await t.request('GET', E.list.path, { token: other.token })).status).toBe(401);
    expect((await lastAudit(t, 'staff.suspended', other.id))?.actorId).toBe(adminId);

    const wrong = await post(
      '/api/auth/login',
      { email: other.email, password: 'not the password' },
      undefined,
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.message.email).toEqual([AUTH_MESSAGES.credentialsRejected]);
    const right = await post('/api/auth/login', { email: other.email, password: 'demo-password' }, '');
    expect(right.status).toBe(403);
    expect(right.body.message).toBe(AUTH_MESSAGES.accountSuspended);

    // Suspending again changes nothing, and records nothing.
    const audited = (await lastAudit(t, 'staff.suspended', other.id))!.id;
    expect((await suspension(other.id, true)).status).toBe(200);
    expect((await lastAudit(t, 'staff.suspended', other.id))!.id).toBe(audited);

    const sheets = await t.request('GET', SCORE_ENDPOINTS.sheets.path, { token: tokens.admin });
    expect((sheets.body.data.markers as { id: number }[]).some((m) => m.id === other.id)).toBe(false);

    const reinstated = await suspension(other.id, false);
    expect(reinstated.status).toBe(200);
    expect(reinstated.body.data.status).toBe('active');
    expect(await lastAudit(t, 'staff.reinstated', other.id)).toBeTruthy();
    // Their old token stays ended; a new sign-in works.
    expect((await t.request('GET', E.list.path, { token: other.token })).status).toBe(401);
    const token = await t.signIn(other.email);
    expect((await t.request('GET', E.list.path, { token })).status).toBe(200);
  });

  it('refuses suspending oneself', async () => {
    const response = await suspension(adminId, true);
    expect(response.status).toBe(409);
    expect(response.body.message).toBe(M.notSelf);
    expect((await memberOf(adminId))?.status).toBe('active');
  });

  it('leaves one active admin when admins suspend each other a hundred times at once, round after round', async () => {
    for (let round = 0; round < 5; round++) {
      // Four active admins, each suspending the next in a ring; every other admin (the demo's too) is
      // suspended, and the invited ones do not count.
      const ring: Awaited<ReturnType<typeof activeAdmin>>[] = [];
      for (let i = 0; i < 4; i++) ring.push(await activeAdmin(`Ring ${round}.${i}`));
      const ids = ring.map((admin) => admin.id);
      await db()
        .update(users)
        .set({ active: false })
        .where(and(eq(users.role, 'admin'), notInArray(users.id, ids)));
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => suspension(ring[(i + 1) % 4].id, true, ring[i % 4].token)),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(
        statuses.every((status) => [200, 401, 409].includes(status)),
        statuses.join(','),
      ).toBe(true);
      const active = await db()
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.role, 'admin'), eq(users.active, true)));
      // At least one is left, whatever the order: each suspension that went through ended its target's
      // own requests, so two (each other's survivors) or one remain, never none.
      expect(active.length, `round ${round}`).toBeGreaterThanOrEqual(1);
      expect(active.length, `round ${round}`).toBeLessThanOrEqual(2);
      const refused = answers.filter((answer) => answer.status === 409);
      expect(refused.every((answer) => answer.body.message === M.lastAdmin)).toBe(true);

      // The one left cannot suspend themselves either: the board keeps an admin.
      const survivor = ring.find((admin) => admin.id === active[0].id)!;
      const others = active.filter((admin) => admin.id !== survivor.id);
      for (const admin of others) expect((await suspension(admin.id, true, survivor.token)).status).toBe(200);
      // Now alone:
      const last = await suspension(survivor.id, true, survivor.token);
      expect(last.status).toBe(409);
      expect(last.body.message).toBe(M.notSelf);
    }
  });
});
