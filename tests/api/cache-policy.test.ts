import { samplePath } from '../../contract/endpoint';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../contract/roles';
import { issueToken } from '../../server/auth/tokens';
import { API_ROUTES } from '../../server/routes';
import { fetchRaw, pngOfSize, profileForm, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * What a browser or a shared cache may keep (issue 22, server/http/cache.ts), over HTTP: every route
 * of the route table, as every kind of caller, answers `Cache-Control: no-store` (JSON, CSV, refusals,
 * 401s alike); a stored document goes to a signed-in user as `private, no-cache` with an ETag that
 * makes asking again cheap; the SPA's hashed assets keep their year and index.html its revalidation.
 */

const EMAIL: Record<Role, string> = { admin: 'admin@example.org', school_admin: 'school1@example.org' };
type CallerKind = 'anonymous' | Role;

let t: TestPortal;
const userIds = {} as Record<Role, number>;
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-dist-'));

beforeAll(async () => {
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'assets', 'app-Ab12Cd34.js'), 'export const x = 1;\n');
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Portal</title>');
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
  t = await startTestPortal({ DIST_DIR: dist });
  for (const role of ['admin', 'school_admin'] as const) userIds[role] = await userIdOf(t, EMAIL[role]);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

/** A fresh token for each call, since some calls (logout, impersonation) spend theirs. */
async function tokenFor(caller: CallerKind) {
  if (caller === 'anonymous') return undefined;
  return (await issueToken(t.portal.database.db, userIds[caller], 10)).token;
}

/** A concrete address for a route's path: every `:param` becomes 1. */
const concrete = samplePath;

describe('every API answer is kept nowhere (no-store)', () => {
  it('for every route of the route table, as every kind of caller, whatever the answer', async () => {
    const seen = { json: 0, csv: 0, ok: 0, refused: 0, unauthenticated: 0, invalid: 0 };
    const wrong: string[] = [];
    // Reads first, so the changes after (logging out, deactivating) cannot turn them all into refusals.
    const routes = [...API_ROUTES].sort((a, b) => Number(b.method === 'GET') - Number(a.method === 'GET'));
    for (const route of routes) {
      for (const caller of ['anonymous', 'admin', 'school_admin'] as const) {
        const addresses = [concrete(route.path)];
        // A list's CSV download is the same route with ?format=csv.
        if (route.method === 'GET' && caller !== 'anonymous') addresses.push(`${addresses[0]}?format=csv`);
        for (const address of addresses) {
          const json = route.method === 'GET' ? undefined : {};
          const response = await t.request(route.method, address, { token: await tokenFor(caller), json });
          const cacheControl = response.headers.get('cache-control');
          if (cacheControl !== 'no-store')
            wrong.push(`${route.method} ${address} as ${caller}: ${cacheControl}`);
          const type = response.headers.get('content-type') ?? '';
          if (type.startsWith('application/json')) seen.json++;
          if (type.startsWith('text/csv')) seen.csv++;
          if (response.status === 200) seen.ok++;
          if (response.status === 403 || response.status === 404) seen.refused++;
          if (response.status === 401) seen.unauthenticated++;
          if (response.status === 422) seen.invalid++;
        }
      }
    }
    expect(wrong).toEqual([]);
    // Every kind of answer was among them.
    expect(seen.json).toBeGreaterThan(API_ROUTES.length);
    expect(seen.csv).toBeGreaterThan(5);
    for (const kind of ['ok', 'refused', 'unauthenticated', 'invalid'] as const) {
      expect(seen[kind], kind).toBeGreaterThan(10);
    }
  }, 240_000);

  it('for an address no route has, and hostile input', async () => {
    const token = await tokenFor('admin');
    const answers = [
      await t.request('GET', '/api/no-such-thing', { token }),
      await t.request('POST', '/api/auth/login', { json: { email: 'a\u0000b@example.org', password: 'p' } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([404, 422]);
    for (const answer of answers) expect(answer.headers.get('cache-control')).toBe('no-store');
  });
});

describe('a stored document', () => {
  let photo: string;
  let admin: string;
  beforeAll(async () => {
    admin = (await tokenFor('admin'))!;
    const saved = await t.request('POST', '/api/admin/user-profile-update', {
      token: admin,
      form: profileForm(
        { name: 'Board Admin', email: EMAIL.admin, phone_number: '' },
        { bytes: pngOfSize(5_000) },
      ),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    photo = (await t.request('GET', '/api/admin/user-profile-information', { token: admin })).body.data
      .photo as string;
  });

  it('goes to a signed-in user as private, no-cache, with an ETag; asked again, a 304 without the bytes', async () => {
    const served = await fetchRaw(t, photo, { authorization: `Bearer ${admin}` });
    expect(served.status).toBe(200);
    expect(served.bytes.byteLength).toBe(5_000);
    expect(served.headers.get('cache-control')).toBe('private, no-cache');
    const etag = served.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);

    const again = await fetchRaw(t, photo, { authorization: `Bearer ${admin}`, 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(again.bytes.byteLength).toBe(0);
    expect(again.headers.get('cache-control')).toBe('private, no-cache');
    // The tag is no key to the file: without a live session it is a 401, kept nowhere.
    const signedOut = await fetchRaw(t, photo, { 'if-none-match': etag! });
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get('cache-control')).toBe('no-store');
  });

  it('a file that is not there, or not the caller’s, is a refusal kept nowhere', async () => {
    const missing = await fetchRaw(t, '/files/profile-photos/AAAAAAAAAAAAAAAAAAAAAAAA.png', {
      authorization: `Bearer ${admin}`,
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-store');
  });
});

describe("the SPA's files keep their own policy", () => {
  it('hashed assets a year, index.html revalidated, fixed names a day', async () => {
    const asset = await fetchRaw(t, '/assets/app-Ab12Cd34.js');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const route of ['/', '/login']) {
      const index = await fetchRaw(t, route);
      expect(index.status, route).toBe(200);
      expect(index.headers.get('cache-control'), route).toBe('no-cache');
    }
    expect((await fetchRaw(t, '/favicon.svg')).headers.get('cache-control')).toBe('public, max-age=86400');
  });
});
