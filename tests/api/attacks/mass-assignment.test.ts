import { eq } from 'drizzle-orm';
import { CANDIDATE_ENDPOINTS } from '../../../contract/candidates.endpoints';
import { fillPath } from '../../../contract/endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidates, users } from '../../../server/db/schema';
import { demoSignIns, schoolIdOf, userIdOf } from '../fixtures';
import { startTestPortal, type TestPortal } from '../portal';

/**
 * Attack class: mass assignment. Fields a form does not have (a role, a school, an id, a password
 * hash, a flag only the board sets) are dropped by the validator before any service sees the input:
 * the services build their changes from named, validated fields only.
 */

let t: TestPortal;
let tokens: Awaited<ReturnType<typeof demoSignIns>>;
const db = () => t.portal.database.db;

beforeAll(async () => {
  t = await startTestPortal({}, { livingDemo: true });
  tokens = await demoSignIns(t);
});
afterAll(() => t?.close());

const userRow = async (email: string) => (await db().select().from(users).where(eq(users.email, email)))[0];

describe('mass assignment', () => {
  it("a school admin's profile update cannot make them an admin, move their school, or set a password", async () => {
    const before = await userRow('school1@example.org');
    const response = await t.request(
      'POST',
      '/api/training-school-admin/update-user-training-school-profile',
      {
        token: tokens.school1,
        json: {
          name: 'Babatunde Adeyemi',
          email: 'school1@example.org',
          user_role: 'admin',
          role: 'admin',
          training_school_id: await schoolIdOf(t, 'CHT-CA'),
          trainingSchoolId: await schoolIdOf(t, 'CHT-CA'),
          id: tokens.adminId,
          password_hash: 'x',
          passwordHash: 'x',
          active: false,
        },
      },
    );
    expect(response.status).toBe(200);
    const after = await userRow('school1@example.org');
    expect(after).toMatchObject({
      id: before.id,
      role: 'school_admin',
      trainingSchoolId: before.trainingSchoolId,
      passwordHash: before.passwordHash,
      active: true,
      name: 'Babatunde Adeyemi',
    });
    // Nobody else was touched.
    expect((await userRow('admin@example.org')).name).not.toBe('Babatunde Adeyemi');
    expect(await userIdOf(t, 'admin@example.org')).toBe(tokens.adminId);
  });

  it('a registration cannot verify a candidate, give it an index number or move it to another school', async () => {
    const ownSchool = await schoolIdOf(t, 'SHT-IB');
    const [row] = await db()
      .select()
      .from(candidates)
      .where(eq(candidates.trainingSchoolId, ownSchool))
      .limit(1);
    const response = await t.request(
      'POST',
      fillPath(CANDIDATE_ENDPOINTS.regStatus.admin.path, { id: row.id }),
      {
        token: tokens.admin,
        json: {
          reg_status: 'unregistered',
          verified: !row.verified,
          candidate_index: 'FAKE/0001',
          training_school_id: await schoolIdOf(t, 'CHT-CA'),
        },
      },
    );
    expect(response.status).toBe(200);
    const [after] = await db().select().from(candidates).where(eq(candidates.id, row.id));
    expect(after).toMatchObject({
      verified: row.verified,
      candidateIndex: row.candidateIndex,
      trainingSchoolId: ownSchool,
    });
  });
});
