import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPERSONATION_MESSAGES } from '../../../contract/impersonation';
import { PASSWORD_MESSAGES, PROFILE_MESSAGES } from '../../../contract/profile';
import { issueToken } from '../../../server/auth/tokens';
import { auditLog, users } from '../../../server/db/schema';
import { DEMO_PASSWORD } from '../../../server/demo';
import { userIdOf } from '../fixtures';
import { startTestPortal, type TestPortal } from '../portal';

/**
 * Attack class: impersonation. Only a board admin may sign in as a school admin, only as an active
 * school admin, never one impersonation inside another; the impersonated session cannot take the
 * account over (its password and its email, where sign-in codes go, are refused); and everything it
 * does is audited with the admin as impersonator.
 */

let t: TestPortal;
const ids = {} as Record<'admin' | 'school1', number>;
const db = () => t.portal.database.db;
const REASON = 'Helping them with a stuck registration';

beforeAll(async () => {
  t = await startTestPortal();
  ids.admin = await userIdOf(t, 'admin@example.org');
  ids.school1 = await userIdOf(t, 'school1@example.org');
});
afterAll(() => t?.close());

const token = async (userId: number, impersonatorId: number | null = null) =>
  (await issueToken(db(), userId, 60, impersonatorId)).token;

describe('impersonation', () => {
  it('is refused to a school admin, and for an admin as the target', async () => {
    const bySchool = await t.request('POST', '/api/admin/impersonate', {
      token: await token(ids.school1),
      json: { user_id: ids.admin, reason: REASON },
    });
    expect(bySchool.status).toBe(403);
    const ofAdmin = await t.request('POST', '/api/admin/impersonate', {
      token: await token(ids.admin),
      json: { user_id: ids.admin, reason: REASON },
    });
    expect(ofAdmin.status).toBe(422);
    expect(JSON.stringify(ofAdmin.body)).toContain(IMPERSONATION_MESSAGES.notSchoolAdmin);
  });

  it('an impersonated session cannot change the password', async () => {
    const impersonated = await token(ids.school1, ids.admin);
    const [before] = await db().select().from(users).where(eq(users.id, ids.school1));
    const response = await t.request('POST', '/api/training-school-admin/change-password', {
      token: impersonated,
      json: {
        current_password: DEMO_PASSWORD,
        password: 'taken-over-1',
        password_confirmation: 'taken-over-1',
      },
    });
    expect(response).toMatchObject({
      status: 403,
      body: { message: PASSWORD_MESSAGES.notWhileImpersonating },
    });
    const [after] = await db().select().from(users).where(eq(users.id, ids.school1));
    expect(after.passwordHash).toBe(before.passwordHash);
  });

  it("an impersonated session cannot change the email address, where the account's codes go (403)", async () => {
    const impersonated = await token(ids.school1, ids.admin);
    const response = await t.request(
      'POST',
      '/api/training-school-admin/update-user-training-school-profile',
      {
        token: impersonated,
        json: { name: 'Babatunde Adeyemi', email: 'taken-over@example.org' },
      },
    );
    expect(response).toMatchObject({
      status: 403,
      body: { success: false, message: PROFILE_MESSAGES.emailNotWhileImpersonating },
    });
    const [after] = await db().select().from(users).where(eq(users.id, ids.school1));
    expect(after.email).toBe('school1@example.org');
    // The school admin themself still can (and back again).
    const own = await token(ids.school1);
    for (const email of ['school1.new@example.org', 'school1@example.org']) {
      const changed = await t.request(
        'POST',
        '/api/training-school-admin/update-user-training-school-profile',
        {
          token: own,
          json: { name: 'Babatunde Adeyemi', email },
        },
      );
      expect(changed.status).toBe(200);
    }
  });

  it("what an impersonated session changes is audited as the school admin's, with the admin as impersonator", async () => {
    const impersonated = await token(ids.school1, ids.admin);
    const saved = await t.request('POST', '/api/training-school-admin/update-user-training-school-profile', {
      token: impersonated,
      json: { name: 'Babatunde Adeyemi', email: 'school1@example.org' },
    });
    expect(saved.status).toBe(200);
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.profile_updated'), eq(auditLog.entityId, String(ids.school1))))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(entry).toMatchObject({ actorId: ids.school1, impersonatorId: ids.admin });
  });
});
