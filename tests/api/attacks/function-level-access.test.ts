import { endpointsOf, samplePath } from '../../../contract/endpoint';
import { ENDPOINTS } from '../../../contract/endpoints';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAUTHENTICATED_MESSAGE } from '../../../contract/envelope';
import type { Role } from '../../../contract/roles';
import { ACCESS_MATRIX, findRule, type AccessRule } from '../../../server/access';
import { createApp } from '../../../server/app';
import { API_ROUTES } from '../../../server/routes';
import { issueToken } from '../../../server/auth/tokens';
import { loadConfig } from '../../../server/config';
import { createLogger } from '../../../server/log';
import { users } from '../../../server/db/schema';
import { startTestPortal, type TestPortal } from '../portal';

/**
 * The authorisation matrix (server/access.ts) is data; this file walks it. For every rule and every
 * kind of caller the outcome follows from the table alone, and the table names exactly the API routes
 * the app serves, so a route cannot be added without deciding who may call it.
 */

type CallerKind = 'anonymous' | Role;
const CALLERS: readonly CallerKind[] = ['anonymous', 'admin', 'school_admin'];
const CALLER_EMAIL: Record<Role, string> = {
  admin: 'admin@example.org',
  school_admin: 'school1@example.org',
};

let t: TestPortal;
const userIds = {} as Record<Role, number>;

beforeAll(async () => {
  t = await startTestPortal();
  for (const role of ['admin', 'school_admin'] as const) {
    const [row] = await t.portal.database.db
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(eq(users.email, CALLER_EMAIL[role]));
    expect(row.role).toBe(role);
    userIds[role] = row.id;
  }
});
afterAll(() => t?.close());

/** A fresh token for each call, since some calls (logout) spend theirs. */
async function tokenFor(caller: CallerKind): Promise<string | undefined> {
  if (caller === 'anonymous') return undefined;
  const { token } = await issueToken(t.portal.database.db, userIds[caller], 10);
  return token;
}

/** A concrete address for a rule's path: every `:param` becomes 1. */
const concrete = samplePath;

/** The endpoints whose answer is JSON as it is, without the envelope (the OpenAPI document). */
const RAW_ANSWERS = new Set(
  Object.values(ENDPOINTS)
    .flatMap(endpointsOf)
    .flatMap((endpoint) => ('answer' in endpoint && endpoint.answer.kind === 'raw' ? [endpoint] : []))
    .map((endpoint) => `${endpoint.method} ${endpoint.path}`),
);

const expected = (rule: AccessRule, caller: CallerKind): 'allowed' | 401 | 403 => {
  if (rule.allow === 'public') return 'allowed';
  if (caller === 'anonymous') return 401;
  return rule.allow.includes(caller) ? 'allowed' : 403;
};

const cases = ACCESS_MATRIX.flatMap((rule) =>
  CALLERS.map((caller) => ({
    name: `${rule.method} ${rule.path} as ${caller}: ${expected(rule, caller)}`,
    rule,
    caller,
    outcome: expected(rule, caller),
  })),
);

describe('every rule of the access matrix, for every kind of caller', () => {
  it('covers every rule, and each kind of outcome at least once', () => {
    expect(cases).toHaveLength(ACCESS_MATRIX.length * CALLERS.length);
    const outcomes = new Set(cases.map((c) => c.outcome));
    expect(outcomes).toEqual(new Set(['allowed', 401, 403]));
  });

  it.each(cases)('$name', async ({ rule, caller, outcome }) => {
    const token = await tokenFor(caller);
    // An empty JSON object: enough to reach the handler, which may then refuse it as invalid (422).
    const json = rule.method === 'GET' ? undefined : {};
    const response = await t.request(rule.method, concrete(rule.path), { token, json });
    if (outcome === 'allowed') {
      expect(response.status).not.toBe(401);
      expect(response.status).not.toBe(403);
      // Reached a handler of the API: not the matrix's 404, nor the SPA's fallback.
      expect(response.status).toBeLessThan(500);
      // A download (a CSV template) is an answer of its handler too; anything else is the envelope.
      if ((response.headers.get('content-type') ?? '').startsWith('text/csv')) {
        expect(response.status).toBe(200);
        return;
      }
      // So is a raw answer, its JSON as its definition says, without the envelope.
      if (RAW_ANSWERS.has(`${rule.method} ${rule.path}`)) {
        expect(response.body.message).not.toBe('There is nothing at this address.');
        return;
      }
      expect(response.body).toEqual(expect.objectContaining({ success: expect.any(Boolean) }));
      expect(response.body.message).not.toBe('There is nothing at this address.');
    } else if (outcome === 401) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: UNAUTHENTICATED_MESSAGE });
    } else {
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ success: false, message: 'This is not available for your role.' });
    }
  });
});

describe('the matrix and the app agree', () => {
  /** The routes of the whole app under /api/, as Hono lists them; middleware is registered as ALL. */
  const served = () =>
    createApp({
      config: loadConfig({ DATA_DIR: t.dataDir, QUIET: '1' }),
      database: t.portal.database,
      mailer: t.portal.mailer,
      storage: t.portal.storage,
      log: createLogger(false),
      payments: t.portal.payments,
    })
      .routes.filter((route) => route.method !== 'ALL' && route.path.startsWith('/api/'))
      .map((route) => `${route.method} ${route.path}`);
  const listed = ACCESS_MATRIX.map((rule) => `${rule.method} ${rule.path}`);

  // The matrix is the endpoint definitions (server/access.ts); the app serves the routes. Walked both ways.
  it('serves no route without a definition', () => {
    expect(served().length).toBeGreaterThan(100);
    expect([...new Set(served())].filter((route) => !listed.includes(route)).sort()).toEqual([]);
  });

  it('leaves no definition unserved', () => {
    const routes = new Set(served());
    expect(listed.filter((route) => !routes.has(route)).sort()).toEqual([]);
  });

  it('serves each definition with the roles it names, through the same path', () => {
    for (const route of API_ROUTES) {
      const rule = ACCESS_MATRIX.find((r) => r.method === route.method && r.path === route.path);
      expect(rule?.allow, `${route.method} ${route.path}`).toEqual(route.allow);
    }
  });

  it('names each route once', () => {
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('finds the rule of every served route, and none for a method it does not list', () => {
    for (const rule of ACCESS_MATRIX) {
      expect(findRule(rule.method, concrete(rule.path))).toBe(rule);
      expect(findRule('DELETE', concrete(rule.path))).toBeNull();
    }
  });
});

describe('what the matrix does not name is a 404', () => {
  it.each([
    ['GET', '/api/no-such-thing'],
    ['GET', '/api/admin/no-such-thing'],
    ['GET', '/api/admin/user-profile-information/extra'],
    ['GET', '/api/admin/user-profile-information/'],
    ['GET', '/api/health/'],
    ['GET', '/api/HEALTH'],
    ['POST', '/api/auth/login/'],
    ['DELETE', '/api/auth/login'],
    ['POST', '/api/admin/user-profile-information'],
    ['GET', '/api/auth/logout'],
  ])('%s %s, for anyone', async (method, path) => {
    for (const caller of CALLERS) {
      const token = await tokenFor(caller);
      const response = await t.request(method, path, {
        token,
        json: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      expect(response.status, `${caller}`).toBe(404);
      expect(response.body, `${caller}`).toEqual({
        success: false,
        message: 'There is nothing at this address.',
      });
    }
  });
});
