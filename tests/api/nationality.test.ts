import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NIGERIA_CODE } from '../../contract/constants';
import { UNAUTHENTICATED_MESSAGE } from '../../contract/envelope';
import { issueToken } from '../../server/auth/tokens';
import { nationalities } from '../../server/db/schema';
import { userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/** GET /api/{admin|training-school-admin}/nationality (spec sections 3, 7 and 9). */

let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal();
});
afterAll(() => t?.close());

describe('the nationality list', () => {
  it.each([
    ['admin', 'admin@example.org', '/api/admin/nationality'],
    ['school admin', 'school1@example.org', '/api/training-school-admin/nationality'],
  ])(
    'as %s: status 200, every entry with its code, Nigeria first, in the stored order',
    async (_role, email, path) => {
      const { token } = await issueToken(t.portal.database.db, await userIdOf(t, email), 10);
      const response = await t.request('GET', path, { token });
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
      const entries = response.body.data as { code: string; name: string }[];
      expect(entries).toHaveLength(249);
      expect(entries[0]).toEqual({ code: NIGERIA_CODE, name: 'Nigeria' });
      for (const entry of entries) {
        expect(Object.keys(entry).sort()).toEqual(['code', 'name']);
        expect(entry.code).toMatch(/^[A-Z]{2}$/);
      }
      const stored = await t.portal.database.db
        .select({ code: nationalities.code, name: nationalities.name })
        .from(nationalities)
        .orderBy(asc(nationalities.position));
      expect(entries).toEqual(stored);
      expect(entries.slice(1, 4).map((e) => e.name)).toEqual(['Afghanistan', 'Åland Islands', 'Albania']);
    },
  );

  it("is refused without a token (401), and on the other role's path (403)", async () => {
    const anonymous = await t.request('GET', '/api/admin/nationality');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: UNAUTHENTICATED_MESSAGE });
    const { token } = await issueToken(t.portal.database.db, await userIdOf(t, 'school1@example.org'), 10);
    expect((await t.request('GET', '/api/admin/nationality', { token })).status).toBe(403);
  });
});
