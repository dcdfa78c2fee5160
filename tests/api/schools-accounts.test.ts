import fs from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../contract/auth';
import { AUTH_ENDPOINTS } from '../../contract/auth.endpoints';
import { fillPath } from '../../contract/endpoint';
import { UNAUTHENTICATED_MESSAGE } from '../../contract/envelope';
import { PASSWORD_MESSAGES } from '../../contract/profile';
import {
  RESET_MAX_ATTEMPTS,
  RESET_MESSAGES,
  SCHOOL_ADMIN_MESSAGES as A,
  SCHOOL_MESSAGES as S,
} from '../../contract/schools';
import { SCHOOL_ENDPOINTS } from '../../contract/schools.endpoints';
import { issueToken } from '../../server/auth/tokens';
import { accessTokens, passwordResets, throttleHits, users } from '../../server/db/schema';
import { demoSignIns, lastAudit, schoolIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * A school's admin accounts: adding one (who is mailed a reset code, never a password), deactivating and
 * reactivating, sending a reset code; and the public reset-password call that spends the code.
 */

let t: TestPortal;
const db = () => t.portal.database.db;
let adminId: number;
let calabar: number;
let tokens: { admin: string; school1: string };
const NEW_PASSWORD = 'a-brand-new-password';

beforeAll(async () => {
  t = await startTestPortal();
  ({ adminId, ...tokens } = await demoSignIns(t));
  calabar = await schoolIdOf(t, 'CHT-CA');
});
afterAll(() => t?.close());

const post = (route: string, json: unknown, token: string | undefined = tokens.admin) =>
  t.request('POST', route, { token, json });

/** The mail files sent to this address, oldest first. */
function mailsTo(email: string): string[] {
  const dir = path.join(t.dataDir, 'mail');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(`-${email}.eml`))
    .sort()
    .map((name) => fs.readFileSync(path.join(dir, name), 'utf8'));
}

/** The newest reset code mailed to this address. */
function resetCode(email: string): string {
  const codes = mailsTo(email)
    .map((mail) => /^Subject: Your password reset code: (\d{6})$/m.exec(mail)?.[1])
    .filter(Boolean);
  if (!codes.length) throw new Error(`No reset code mailed to ${email}`);
  return codes[codes.length - 1]!;
}

const reset = (email: string, code: string, password = NEW_PASSWORD) =>
  post(
    AUTH_ENDPOINTS.resetPassword.path,
    { email, code, password, password_confirmation: password },
    undefined,
  );

let counter = 0;
async function newAdmin(prefix = 'new') {
  const email = `${prefix}.${++counter}@example.org`;
  const response = await post(fillPath(SCHOOL_ENDPOINTS.addAdmin.path, { id: calabar }), {
    name: 'Ngozi Okafor',
    email: email.toUpperCase(),
    phone_number: '+234 803 111 2222',
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { id: response.body.data.id as number, email, body: response.body };
}

describe('adding a school admin', () => {
  it('makes an active account of the school, mails a reset code (no password), and audits it', async () => {
    const { id, email, body } = await newAdmin();
    expect(body.message).toBe(A.created);
    expect(body.data).toEqual({
      id,
      name: 'Ngozi Okafor',
      email,
      phone_number: '+234 803 111 2222',
      active: true,
    });
    const [user] = await db().select().from(users).where(eq(users.id, id));
    expect(user).toMatchObject({ role: 'school_admin', trainingSchoolId: calabar, active: true });

    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('/reset-password');
    // The code goes to the new admin only, never to the board admin who made the account.
    expect(JSON.stringify(body)).not.toContain(resetCode(email));
    const [stored] = await db().select().from(passwordResets).where(eq(passwordResets.userId, id));
    // Kept only as a hash.
    expect(stored.codeHash).not.toContain(resetCode(email));
    expect(stored.createdBy).toBe(adminId);

    const listed = await t.request('GET', `${SCHOOL_ENDPOINTS.list.path}?search=CHT-CA`, {
      token: tokens.admin,
    });
    expect(listed.body.data.items[0].admins.map((a: { email: string }) => a.email)).toContain(email);

    const audit = await lastAudit(t, 'user.created', id);
    expect(audit).toMatchObject({ actorId: adminId, impersonatorId: null, entity: 'user', before: null });
    expect(audit.after).toMatchObject({ email, role: 'school_admin', training_school_id: calabar });
  });

  it('cannot sign in until the code has set a password, then can', async () => {
    const { email } = await newAdmin();
    const before = await post('/api/auth/login', { email, password: NEW_PASSWORD }, undefined);
    expect(before.status).toBe(422);
    expect((await reset(email, resetCode(email))).status).toBe(200);
    await expect(t.signIn(email, NEW_PASSWORD)).resolves.toMatch(/^\d+\|/);
  });

  it('says what is missing or wrong, and refuses an email already used (in any case)', async () => {
    const empty = await post(fillPath(SCHOOL_ENDPOINTS.addAdmin.path, { id: calabar }), {
      name: '',
      email: '',
    });
    expect(empty.status).toBe(422);
    expect(empty.body.message).toEqual({ name: [A.nameRequired], email: [A.emailRequired] });
    const wrong = await post(fillPath(SCHOOL_ENDPOINTS.addAdmin.path, { id: calabar }), {
      name: 'X',
      email: 'nope',
      phone_number: 'call me',
    });
    expect(wrong.body.message).toEqual({ email: [A.emailInvalid], phone_number: [A.phoneInvalid] });
    const taken = await post(fillPath(SCHOOL_ENDPOINTS.addAdmin.path, { id: calabar }), {
      name: 'Copy',
      email: 'School1@Example.org',
    });
    expect(taken.status).toBe(422);
    expect(taken.body.message).toEqual({ email: [A.emailTaken] });
  });

  it('answers 404 for a school that does not exist', async () => {
    const response = await post(fillPath(SCHOOL_ENDPOINTS.addAdmin.path, { id: 999_999 }), {
      name: 'Someone',
      email: 'x@example.org',
    });
    expect(response.status).toBe(404);
    expect(response.body.message).toBe(S.notFound);
  });
});

describe('deactivating and reactivating', () => {
  it('a deactivated account is signed out at once and cannot sign in; reactivated, it can', async () => {
    const { id, email } = await newAdmin('deact');
    await reset(email, resetCode(email));
    const session = await t.signIn(email, NEW_PASSWORD);
    expect(
      (await t.request('GET', '/api/training-school-admin/user-profile-information', { token: session }))
        .status,
    ).toBe(200);

    const off = await post(fillPath(SCHOOL_ENDPOINTS.adminActive.path, { id }), { active: false });
    expect(off.status).toBe(200);
    expect(off.body.message).toBe(A.deactivated);
    expect(off.body.data).toMatchObject({ id, active: false });
    const profile = await t.request('GET', '/api/training-school-admin/user-profile-information', {
      token: session,
    });
    expect(profile.status).toBe(401);
    expect(profile.body).toEqual({ message: UNAUTHENTICATED_MESSAGE });
    const live = await db()
      .select()
      .from(accessTokens)
      .where(and(eq(accessTokens.userId, id), sql`${accessTokens.revokedAt} is null`));
    expect(live).toEqual([]);
    const login = await post('/api/auth/login', { email, password: NEW_PASSWORD }, undefined);
    expect(login.status).toBe(422);
    expect(login.body.message).toEqual({ email: [AUTH_MESSAGES.credentialsRejected] });

    const audit = await lastAudit(t, 'user.deactivated', id);
    expect(audit).toMatchObject({ actorId: adminId, before: { active: true } });
    expect(audit.after).toMatchObject({ active: false, revoked_tokens: [expect.any(Number)] });

    const on = await post(fillPath(SCHOOL_ENDPOINTS.adminActive.path, { id }), { active: true });
    expect(on.body.message).toBe(A.reactivated);
    expect((await lastAudit(t, 'user.reactivated', id)).after).toEqual({ active: true });
    await expect(t.signIn(email, NEW_PASSWORD)).resolves.toMatch(/^\d+\|/);
  });

  it('refuses a value that is not true or false, and anyone who is not a school admin (404)', async () => {
    const { id } = await newAdmin();
    const bad = await post(fillPath(SCHOOL_ENDPOINTS.adminActive.path, { id }), { active: 'no' });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toEqual({ active: [A.activeInvalid] });
    const board = await post(fillPath(SCHOOL_ENDPOINTS.adminActive.path, { id: adminId }), { active: false });
    expect(board.status).toBe(404);
    expect(board.body.message).toBe(A.notFound);
    expect((await post(fillPath(SCHOOL_ENDPOINTS.adminPasswordReset.path, { id: adminId }), {})).status).toBe(
      404,
    );
    expect(
      (await post(fillPath(SCHOOL_ENDPOINTS.adminActive.path, { id: 999_999 }), { active: false })).status,
    ).toBe(404);
  });
});

describe('reset codes', () => {
  // Each test starts under the per-address limit: they all come from 127.0.0.1.
  beforeEach(() => db().delete(throttleHits));

  it('a code sent by the board sets the password once, signs out old sessions, and is audited', async () => {
    const { id, email } = await newAdmin('once');
    const sent = await post(fillPath(SCHOOL_ENDPOINTS.adminPasswordReset.path, { id }), {});
    expect(sent.status).toBe(200);
    expect(sent.body.message).toBe(A.resetSent);
    expect(mailsTo(email)).toHaveLength(2);
    const audit = await lastAudit(t, 'user.password_reset_sent', id);
    expect(audit).toMatchObject({ actorId: adminId, entity: 'user' });

    const code = resetCode(email);
    const old = (await issueToken(db(), id, 60)).token;
    const done = await reset(email, code);
    expect(done.status).toBe(200);
    expect(done.body.message).toBe(RESET_MESSAGES.done);
    expect(
      (await t.request('GET', '/api/training-school-admin/user-profile-information', { token: old })).status,
    ).toBe(401);
    expect((await lastAudit(t, 'user.password_reset', id)).actorId).toBe(id);

    const again = await reset(email, code, 'yet-another-password');
    expect(again.status).toBe(422);
    expect(again.body.message).toEqual({ code: [RESET_MESSAGES.codeRejected] });
    await expect(t.signIn(email, NEW_PASSWORD)).resolves.toMatch(/^\d+\|/);
  });

  it('only the newest code works', async () => {
    const { id, email } = await newAdmin();
    const first = resetCode(email);
    await post(fillPath(SCHOOL_ENDPOINTS.adminPasswordReset.path, { id }), {});
    const second = resetCode(email);
    if (first !== second) expect((await reset(email, first)).status).toBe(422);
    expect((await reset(email, second)).status).toBe(200);
  });

  it('expires', async () => {
    const { id, email } = await newAdmin();
    await db()
      .update(passwordResets)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(passwordResets.userId, id));
    const response = await reset(email, resetCode(email));
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ code: [RESET_MESSAGES.codeRejected] });
  });

  it(`stops working after ${RESET_MAX_ATTEMPTS} wrong codes, even for the right one`, async () => {
    const { email } = await newAdmin();
    const code = resetCode(email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < RESET_MAX_ATTEMPTS; i++) {
      const response = await reset(email, wrong);
      expect(response.status).toBe(422);
      expect(response.body.message).toEqual({ code: [RESET_MESSAGES.codeRejected] });
    }
    expect((await reset(email, code)).status).toBe(422);
  });

  it(`counts guesses sent all at once: no more than ${RESET_MAX_ATTEMPTS} are ever checked`, async () => {
    const { id, email } = await newAdmin();
    const code = resetCode(email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const answers = await Promise.all(Array.from({ length: 20 }, () => reset(email, wrong)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(422));
    const [row] = await db()
      .select({ attempts: passwordResets.attempts })
      .from(passwordResets)
      .where(eq(passwordResets.userId, id));
    expect(row.attempts).toBe(RESET_MAX_ATTEMPTS);
    expect((await reset(email, code)).status).toBe(422);
  });

  it('answers an unknown email as it answers a wrong code', async () => {
    const response = await reset('nobody@example.org', '123456');
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ code: [RESET_MESSAGES.codeRejected] });
  });

  it("a deactivated account's code does not work, and none is sent to it", async () => {
    const { id, email } = await newAdmin();
    const code = resetCode(email);
    await post(fillPath(SCHOOL_ENDPOINTS.adminActive.path, { id }), { active: false });
    expect((await reset(email, code)).status).toBe(422);
    const send = await post(fillPath(SCHOOL_ENDPOINTS.adminPasswordReset.path, { id }), {});
    expect(send.status).toBe(409);
    expect(send.body.message).toBe(A.resetInactive);
  });

  it('a code mailed before a deactivation does not come back with the reactivation', async () => {
    const { id, email } = await newAdmin();
    const code = resetCode(email);
    await post(fillPath(SCHOOL_ENDPOINTS.adminActive.path, { id }), { active: false });
    await post(fillPath(SCHOOL_ENDPOINTS.adminActive.path, { id }), { active: true });
    expect((await reset(email, code)).status).toBe(422);
  });

  it('says what is wrong with the form', async () => {
    const response = await post(
      AUTH_ENDPOINTS.resetPassword.path,
      { email: 'x', code: '12', password: 'short', password_confirmation: 'other' },
      undefined,
    );
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({
      email: [RESET_MESSAGES.emailInvalid],
      code: [RESET_MESSAGES.codeRequired],
      password: [PASSWORD_MESSAGES.tooShort],
    });
    const mismatch = await post(
      AUTH_ENDPOINTS.resetPassword.path,
      { email: 'x@example.org', code: '123456', password: NEW_PASSWORD, password_confirmation: 'other' },
      undefined,
    );
    expect(mismatch.body.message).toEqual({ password_confirmation: [PASSWORD_MESSAGES.mismatch] });
  });
});

describe('who may', () => {
  it('a school admin is refused (403) every account call; nobody signed in gets 401', async () => {
    const { id } = await newAdmin();
    const calls: [string, unknown][] = [
      [
        fillPath(SCHOOL_ENDPOINTS.addAdmin.path, { id: calabar }),
        { name: 'Someone', email: 'someone@example.org' },
      ],
      [fillPath(SCHOOL_ENDPOINTS.adminActive.path, { id }), { active: false }],
      [fillPath(SCHOOL_ENDPOINTS.adminPasswordReset.path, { id }), {}],
    ];
    for (const [route, json] of calls) {
      expect((await post(route, json, tokens.school1)).status, route).toBe(403);
      const anonymous = await t.request('POST', route, { json });
      expect(anonymous.status, route).toBe(401);
    }
    const [user] = await db().select().from(users).where(eq(users.id, id));
    expect(user.active).toBe(true);
  });

  it('the reset call is public, and limited per address', async () => {
    let status = 0;
    for (let i = 0; i < 40 && status !== 429; i++)
      status = (await reset('nobody@example.org', '000000')).status;
    expect(status).toBe(429);
  });
});
