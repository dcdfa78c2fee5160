import { count } from 'drizzle-orm';
import { CANDIDATE_ENDPOINTS } from '../../../contract/candidates.endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidates, users } from '../../../server/db/schema';
import { demoSignIns } from '../fixtures';
import { startTestPortal, type TestPortal } from '../portal';

/**
 * Attack class: SQL injection. Every value reaches the database as a bound parameter (Drizzle), and
 * what cannot be a parameter (a sort column, a direction) is chosen from the list definition's own
 * names, so text shaped like SQL is only ever searched for.
 */

let t: TestPortal;
let tokens: Awaited<ReturnType<typeof demoSignIns>>;
const db = () => t.portal.database.db;

beforeAll(async () => {
  t = await startTestPortal({}, { livingDemo: true });
  tokens = await demoSignIns(t);
});
afterAll(() => t?.close());

const PAYLOADS = [
  "' or '1'='1",
  "x'; drop table candidates; --",
  '1) or (1=1',
  "%' union select email, password_hash from users --",
];

describe('SQL injection', () => {
  it('a search shaped like SQL finds nothing and changes nothing', async () => {
    const [before] = await db().select({ total: count() }).from(candidates);
    for (const search of PAYLOADS) {
      const response = await t.request(
        'GET',
        `${CANDIDATE_ENDPOINTS.list.path}?search=${encodeURIComponent(search)}`,
        {
          token: tokens.admin,
        },
      );
      expect(response.status, search).toBe(200);
      expect(response.body.data.items, search).toEqual([]);
    }
    const [after] = await db().select({ total: count() }).from(candidates);
    expect(after.total).toBe(before.total);
  });

  it("a sort or direction that is not one of the list's own is refused, never spliced into SQL", async () => {
    for (const query of ['sort=id;drop table users', 'sort=name&direction=asc;select 1', 'sort=(select 1)']) {
      const response = await t.request('GET', `${CANDIDATE_ENDPOINTS.list.path}?${query}`, {
        token: tokens.admin,
      });
      expect(response.status, query).toBe(422);
    }
    expect((await db().select({ total: count() }).from(users))[0].total).toBeGreaterThan(0);
  });

  it('sign-in with SQL for an email or password is an ordinary refusal', async () => {
    const response = await t.request('POST', '/api/auth/login', {
      json: { email: "admin@example.org' --", password: "' or '1'='1" },
    });
    expect(response.status).toBe(422);
  });
});
