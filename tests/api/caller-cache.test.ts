import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAUTHENTICATED_MESSAGE } from '../../contract/envelope';
import { AUTH_ENDPOINTS } from '../../contract/auth.endpoints';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';
import { CallerCache, callerCacheOf } from '../../server/auth/callerCache';
import { accessTokens, users } from '../../server/db/schema';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Who a token belongs to, kept in memory (server/auth/callerCache.ts, issue 28): kept only while it is
 * what the database says. A sign-out is refused at once on the next request; a change made elsewhere
 * (another process, a script, straight SQL) reaches the cache through the trigger's notification; a
 * read that began before a change is not kept.
 */

let t: TestPortal;
const db = () => t.portal.database.db;
const cache = () => callerCacheOf(db())!;
const LIST = `${CANDIDATE_ENDPOINTS.list.path}?page=1`;

beforeAll(async () => {
  t = await startTestPortal();
});
afterAll(() => t?.close());

/** A change made outside this process's code: its own connection on PostgreSQL, raw SQL on PGlite. */
async function elsewhere(text: string) {
  if (t.databaseUrl) {
    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    await client.query(text);
    await client.end();
  } else {
    await db().execute(sql.raw(text));
  }
}

/** Until the cache holds nothing (the notification arrived), at most 5 s. */
async function forgotten() {
  const until = Date.now() + 5_000;
  while (cache().size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  return cache().size;
}

const tokenIdOf = (token: string) => Number(token.split('|')[0]);

describe('the caller cache', () => {
  it('keeps a caller after the first request, and answers the same from memory', async () => {
    const token = await t.signIn('admin@example.org');
    expect((await t.request('GET', LIST, { token })).status).toBe(200);
    expect(cache().get(tokenIdOf(token))?.owner.role).toBe('admin');
    expect((await t.request('GET', LIST, { token })).status).toBe(200);
  });

  it('refuses a token whose secret is wrong though its id is kept', async () => {
    const token = await t.signIn('admin@example.org');
    expect((await t.request('GET', LIST, { token })).status).toBe(200);
    const forged = `${tokenIdOf(token)}|${'x'.repeat(43)}`;
    const response = await t.request('GET', LIST, { token: forged });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: UNAUTHENTICATED_MESSAGE });
  });

  it('refuses a token on the very next request after its sign-out', async () => {
    const token = await t.signIn('admin@example.org');
    expect((await t.request('GET', LIST, { token })).status).toBe(200);
    expect(
      (await t.request(AUTH_ENDPOINTS.logout.method, AUTH_ENDPOINTS.logout.path, { token })).status,
    ).toBe(200);
    expect((await t.request('GET', LIST, { token })).status).toBe(401);
  });

  it('forgets when a token is revoked elsewhere (the trigger notifies every process)', async () => {
    const token = await t.signIn('admin@example.org');
    expect((await t.request('GET', LIST, { token })).status).toBe(200);
    expect(cache().size).toBeGreaterThan(0);
    await elsewhere(`update access_tokens set revoked_at = now() where id = ${tokenIdOf(token)}`);
    expect(await forgotten()).toBe(0);
    expect((await t.request('GET', LIST, { token })).status).toBe(401);
  });

  it("forgets when a user's role changes or they are deactivated elsewhere", async () => {
    const token = await t.signIn('school1@example.org');
    const [{ id }] = await db()
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'school1@example.org'));
    expect((await t.request('GET', LIST, { token })).status).toBe(403);
    expect(cache().get(tokenIdOf(token))?.owner.role).toBe('school_admin');
    await elsewhere(`update users set active = false where id = ${id}`);
    expect(await forgotten()).toBe(0);
    expect((await t.request('GET', LIST, { token })).status).toBe(401);
    await elsewhere(`update users set active = true where id = ${id}`);
    expect((await t.request('GET', LIST, { token })).status).toBe(403);
    await elsewhere(`update users set role = 'admin' where id = ${id}`);
    expect(await forgotten()).toBe(0);
    expect((await t.request('GET', LIST, { token })).status).toBe(200);
    await elsewhere(`update users set role = 'school_admin' where id = ${id}`);
    expect(await forgotten()).toBe(0);
    expect((await t.request('GET', LIST, { token })).status).toBe(403);
  });

  it('forgets when an expiry is moved into the past elsewhere', async () => {
    const token = await t.signIn('admin@example.org');
    expect((await t.request('GET', LIST, { token })).status).toBe(200);
    await elsewhere(
      `update access_tokens set expires_at = now() - interval '1 minute' where id = ${tokenIdOf(token)}`,
    );
    expect(await forgotten()).toBe(0);
    expect((await t.request('GET', LIST, { token })).status).toBe(401);
  });

  it('does not hear of a last use written (one write a minute, no notification)', async () => {
    const token = await t.signIn('admin@example.org');
    expect((await t.request('GET', LIST, { token })).status).toBe(200);
    const before = cache().generation;
    await db()
      .update(accessTokens)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(accessTokens.id, tokenIdOf(token)));
    await new Promise((r) => setTimeout(r, 100));
    expect(cache().generation).toBe(before);
  });
});

describe('CallerCache', () => {
  const owner = { tokenId: 1, userId: 2, impersonatorId: null, role: 'admin', trainingSchoolId: null };
  // An hour ahead: made when the file is collected, it must outlast a slow run of the tests before.
  const entry = { hash: 'h', owner, expiresAt: Date.now() + 3_600_000, lastUsedAt: Date.now() };

  it('keeps nothing while it does not listen', () => {
    const kept = new CallerCache();
    kept.keep(kept.generation, 1, entry);
    expect(kept.get(1)).toBeUndefined();
  });

  it('does not keep a read that began before a forget', () => {
    const kept = new CallerCache();
    kept.setListening(true);
    const began = kept.generation;
    kept.forget();
    kept.keep(began, 1, entry);
    expect(kept.get(1)).toBeUndefined();
    kept.keep(kept.generation, 1, entry);
    expect(kept.get(1)?.owner).toEqual(owner);
  });

  it("lets a kept caller go at its token's expiry and after the keeping time", () => {
    const kept = new CallerCache();
    kept.setListening(true);
    const now = Date.now();
    kept.keep(kept.generation, 1, { ...entry, expiresAt: now + 1_000 }, now);
    expect(kept.get(1, now + 999)).toBeDefined();
    expect(kept.get(1, now + 1_000)).toBeUndefined();
    kept.keep(kept.generation, 2, entry, now);
    expect(kept.get(2, now + 30_000)).toBeUndefined();
  });

  it('forgets everything when it stops listening', () => {
    const kept = new CallerCache();
    kept.setListening(true);
    kept.keep(kept.generation, 1, entry);
    kept.setListening(false);
    kept.setListening(true);
    expect(kept.get(1)).toBeUndefined();
  });
});
