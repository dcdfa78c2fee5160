import { eq, sql } from 'drizzle-orm';
import { Hono, type Handler } from 'hono';
import vine from '@vinejs/vine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../contract/auth';
import { PASSWORD_MESSAGES } from '../../contract/profile';
import { SCHOOL_ADMIN_MESSAGES, SCHOOL_MESSAGES } from '../../contract/schools';
import { ACCESS_MATRIX } from '../../server/access';
import { answerError, SERVER_FAILURE } from '../../server/app';
import { users } from '../../server/db/schema';
import { Invalid, NotFound, Refused, Unauthenticated } from '../../server/errors';
import type { AppEnv } from '../../server/http/context';
import { describeError, type Logger } from '../../server/log';
import { ADMIN, endpoint, shape } from '../../contract/endpoint';
import { serve, type Route } from '../../server/http/route';
import { form } from '../../server/http/validate';
import { API_ROUTES } from '../../server/routes';
import { DEMO_PASSWORD } from '../../server/demo';
import { demoSignIns, profileForm } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * The route pattern (docs/decisions.md, "Routes and services"): routes written once with their roles,
 * bodies checked by the validation middleware, refusals thrown and answered once by app.onError.
 */

let t: TestPortal;
let tokens: Awaited<ReturnType<typeof demoSignIns>>;

beforeAll(async () => {
  t = await startTestPortal();
  tokens = await demoSignIns(t);
});
afterAll(() => t?.close());

/** A raw body, sent as it is (the test portal's `request` only sends well-formed JSON). */
async function raw(path: string, body: string, contentType: string, token?: string) {
  const response = await fetch(t.url + path, {
    method: 'POST',
    headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  });
  return { status: response.status, body: await response.json() };
}

describe('thrown domain errors become the envelope, over HTTP', () => {
  it('NotFound: 404 with the sentence', async () => {
    const response = await t.request('POST', '/api/admin/training-schools/999999/status', {
      token: tokens.admin,
      json: { status: 'active' },
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, message: SCHOOL_MESSAGES.notFound });
  });

  it('an id that cannot be one is the same 404', async () => {
    const response = await t.request('POST', '/api/admin/training-schools/abc/status', {
      token: tokens.admin,
      json: { status: 'active' },
    });
    expect(response.body).toEqual({ success: false, message: SCHOOL_MESSAGES.notFound });
  });

  it('Invalid with fields: 422 with field messages; with a sentence: the spec’s string', async () => {
    const fields = await t.request('POST', '/api/admin/school-admins/1/active', {
      token: tokens.admin,
      json: { active: 'no' },
    });
    expect(fields.status).toBe(422);
    expect(fields.body).toEqual({ success: false, message: { active: [expect.any(String)] } });

    const sentence = await t.request('POST', '/api/training-school-admin/change-password', {
      token: tokens.school1,
      json: {
        current_password: 'not-it',
        password: 'A-new-password-1',
        password_confirmation: 'A-new-password-1',
      },
    });
    expect(sentence.status).toBe(422);
    expect(sentence.body).toEqual({ success: false, message: PASSWORD_MESSAGES.oldIncorrect });
  });

  it('Refused: its status and sentence (409 here)', async () => {
    const [admin] = await t.portal.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'school2@example.org'));
    await t.portal.database.db.update(users).set({ active: false }).where(eq(users.id, admin.id));
    try {
      const response = await t.request('POST', `/api/admin/school-admins/${admin.id}/password-reset`, {
        token: tokens.admin,
      });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ success: false, message: SCHOOL_ADMIN_MESSAGES.resetInactive });
    } finally {
      await t.portal.database.db.update(users).set({ active: true }).where(eq(users.id, admin.id));
    }
  });
});

describe('the validation middleware', () => {
  const LOGIN_FIELDS = { email: [expect.any(String)], password: [expect.any(String)] };

  it.each([
    ['malformed JSON', '{"email": '],
    ['an array', '[1, 2]'],
    ['null', 'null'],
    ['a string', '"admin@example.org"'],
    ['a number', '42'],
  ])('%s is an empty body: 422 with the fields’ own messages, never a 400 or a 500', async (_name, body) => {
    const response = await raw('/api/auth/login', body, 'application/json');
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message: LOGIN_FIELDS });
  });

  it('wrong types are the fields’ messages', async () => {
    const response = await t.request('POST', '/api/auth/login', { json: { email: 12, password: ['x'] } });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message: LOGIN_FIELDS });
  });

  it('a JSON route reads no other body: a form is an empty body', async () => {
    const response = await raw(
      '/api/auth/login',
      `email=admin%40example.org&password=${DEMO_PASSWORD}`,
      'application/x-www-form-urlencoded',
    );
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message: LOGIN_FIELDS });
  });

  it('a broken multipart body is an empty form: 422 with its fields', async () => {
    const response = await raw(
      '/api/admin/user-profile-update',
      '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nNo end',
      'multipart/form-data; boundary=nothing-like-it',
      tokens.admin,
    );
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.message).sort()).toEqual(['email', 'name']);
  });

  it('a form lists its field and file problems in one 422', async () => {
    const response = await t.request('POST', '/api/admin/user-profile-update', {
      token: tokens.admin,
      form: profileForm(
        { name: 'Adaeze Okafor', email: 'not-an-email' },
        { bytes: new Uint8Array([1, 2, 3]) },
      ),
    });
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.message).sort()).toEqual(['email', 'photo']);
  });

  it('reads a query string, and a JSON body, for any route that declares one', async () => {
    const probe = vine.create(vine.object({ page: vine.number().min(1), name: vine.string().trim() }));
    const probeOf = <const K extends 'query' | 'json'>(method: 'GET' | 'POST', kind: K) =>
      endpoint({
        method,
        path: '/probe',
        roles: ADMIN,
        summary: 'A probe',
        input: { in: kind, validator: probe },
        answer: shape<unknown>(),
      });
    const probeForm = endpoint({
      method: 'POST',
      path: '/probe/form',
      roles: ADMIN,
      summary: 'A probe with a form',
      input: { in: 'form', validator: probe, files: [] },
      answer: shape<unknown>(),
    });
    const routes: Route[] = [
      serve(probeOf('GET', 'query'), (c) => c.json({ success: true, data: c.req.valid('query') })),
      serve(probeOf('POST', 'json'), (c) => c.json({ success: true, data: c.req.valid('json') })),
      serve(probeForm, form(probe), (c) => c.json({ success: true, data: c.req.valid('form') })),
    ];
    const app = new Hono<AppEnv>();
    app.onError(answerError({ info: () => {}, error: () => {} }));
    for (const route of routes) app.on(route.method, route.path, ...(route.handlers as [Handler<AppEnv>]));

    const read = await app.request('/probe?page=2&name=%20Ada%20');
    expect(await read.json()).toEqual({ success: true, data: { page: 2, name: 'Ada' } });
    const refused = await app.request('/probe?page=zero');
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      success: false,
      message: { page: [expect.any(String)], name: [expect.any(String)] },
    });
    const body = await app.request('/probe', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ page: 3, name: 'Bo' }),
    });
    expect(await body.json()).toEqual({ success: true, data: { page: 3, name: 'Bo' } });
    const asJson = await app.request('/probe/form', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ page: 4, name: 'Cy' }),
    });
    expect(await asJson.json()).toEqual({
      success: true,
      data: { input: { page: 4, name: 'Cy' }, files: {} },
    });
  });
});

describe('what is not a domain error', () => {
  const lines: Record<string, unknown>[] = [];
  const log: Logger = { info: () => {}, error: (event, fields) => lines.push({ event, ...fields }) };

  it('is a 500 with the one sentence, and a log line that holds no SQL parameter', async () => {
    const secret = 'reset-code-918273';
    const app = new Hono<AppEnv>();
    app.onError(answerError(log));
    app.post('/fails', async () => {
      await t.portal.database.db
        .select()
        .from(users)
        .where(eq(users.id, sql`${secret}::int`));
      return new Response('unreachable');
    });
    const response = await app.request('/fails', { method: 'POST' });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ success: false, message: SERVER_FAILURE });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ event: 'request.failed', path: '/fails' });
    expect(String(lines[0].error)).toMatch(/Failed query: select/);
    expect((lines[0].cause as { code: string }).code).toBe('22P02');
    expect(JSON.stringify(lines[0])).not.toContain(secret);
  });

  it('describes any thrown value, an Error or not', () => {
    expect(describeError('a string')).toEqual({ error: 'string' });
    expect(describeError(new TypeError('x is not a function'))).toMatchObject({
      error: 'TypeError: x is not a function',
    });
  });

  it("keeps no quoted value of an error's own message (a driver's error not wrapped by Drizzle)", () => {
    const raw = new Error('invalid input syntax for type integer: "reset-code-918273"');
    expect(describeError(raw).error).toBe('Error: invalid input syntax for type integer: "…"');
  });

  it('the domain errors carry their own bodies', () => {
    expect(new NotFound('Gone.').body()).toEqual({ success: false, message: 'Gone.' });
    expect(new Refused(429, AUTH_MESSAGES.tooManyAttempts).status).toBe(429);
    expect(new Invalid({ code: ['Wrong'] }).body()).toEqual({ success: false, message: { code: ['Wrong'] } });
    expect(new Unauthenticated().body()).toEqual({ message: 'Unauthenticated.' });
  });
});

describe('calls are written once: the routes and the matrix both read the definitions', () => {
  it('has one rule a route, with the route’s own method, path and roles', () => {
    const key = (rule: { method: string; path: string }) => `${rule.method} ${rule.path}`;
    const byCall = (a: { method: string; path: string }, b: { method: string; path: string }) =>
      key(a).localeCompare(key(b));
    expect([...ACCESS_MATRIX].sort(byCall)).toEqual(
      API_ROUTES.map(({ method, path, allow }) => ({ method, path, allow })).sort(byCall),
    );
  });

  it('every route says who may call it, and has a handler', () => {
    for (const route of API_ROUTES) {
      expect(route.path, route.path).toMatch(/^\/api\//);
      expect(route.allow === 'public' || route.allow.length > 0, route.path).toBe(true);
      expect(route.handlers.length, route.path).toBeGreaterThan(0);
    }
  });

  it('a route module added to the list is served and in the matrix (the list helper’s routes too)', () => {
    const paths = ACCESS_MATRIX.map((rule) => `${rule.method} ${rule.path}`);
    expect(paths).toContain('GET /api/admin/candidates');
    expect(paths).toContain('POST /api/training-school-admin/message-board');
  });
});
