import http from 'node:http';
import fc from 'fast-check';
import { isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_MESSAGES } from '../../../contract/input';
import { LISTS } from '../../../contract/lists';
import { listQueryValidator } from '../../../contract/lists.validators';
import { NOTIFICATION_MESSAGES } from '../../../contract/notifications';
import { MULTIPART_BODY_LIMIT } from '../../../server/app';
import { issueToken } from '../../../server/auth/tokens';
import { notifications } from '../../../server/db/schema';
import { API_ROUTES } from '../../../server/routes';
import type { Route } from '../../../server/http/route';
import { schoolIdOf, userIdOf } from '../fixtures';
import { startTestPortal, type TestPortal } from '../portal';

/**
 * Attack class: robustness. Hostile input (NUL bytes, unpaired surrogates, numbers out of range or of
 * the wrong type, lists and objects where text is meant, deep nesting, huge bodies) sent to every
 * route of the authorisation matrix, as every kind of caller, is refused in words, never a 500. A
 * deterministic pass puts each hostile value in every field a route's forms know; fast-check then
 * mixes them at random. Runs on PGlite in `npm test` and on PostgreSQL in CI.
 */

let t: TestPortal;
const ids = {} as Record<'admin' | 'school1', number>;

beforeAll(async () => {
  t = await startTestPortal();
  ids.admin = await userIdOf(t, 'admin@example.org');
  ids.school1 = await userIdOf(t, 'school1@example.org');
});
afterAll(() => t?.close());

type Caller = 'nobody' | 'admin' | 'school_admin' | 'impersonated';
const CALLERS: Caller[] = ['nobody', 'admin', 'school_admin', 'impersonated'];

/** A fresh token for each request, so that a route that spends one (logout, impersonate) spoils nothing. */
async function tokenOf(caller: Caller): Promise<string | undefined> {
  const db = t.portal.database.db;
  if (caller === 'nobody') return undefined;
  if (caller === 'admin') return (await issueToken(db, ids.admin, 10)).token;
  return (await issueToken(db, ids.school1, 10, caller === 'impersonated' ? ids.admin : null)).token;
}

/** Every field name the contract's validators know: where hostile values do the most harm. */
const validatorModules = import.meta.glob('../../../contract/*.validators.ts', { eager: true });
function fieldNames(): string[] {
  const names = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const { fieldName } = node as { fieldName?: unknown };
      if (typeof fieldName === 'string' && fieldName && !fieldName.includes('*')) names.add(fieldName);
      Object.values(node).forEach(walk);
    }
  };
  const validators = [
    ...Object.values(validatorModules).flatMap((module) => Object.values(module as object)),
    ...LISTS.map((definition) => listQueryValidator(definition).validator),
  ];
  for (const validator of validators) {
    const toJSON = (validator as { toJSON?: () => unknown } | null)?.toJSON;
    if (typeof toJSON === 'function') walk(toJSON.call(validator));
  }
  return [...names].sort();
}
const FIELDS = fieldNames();

const HOSTILE_VALUES: unknown[] = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\udc00\ud800',
  2147483648,
  -1,
  0,
  1e308,
  -1e308,
  1.5,
  'NaN',
  true,
  [1],
  {},
  [],
  null,
  { nested: { deeper: ['\u0000'] } },
  'x'.repeat(2000),
];
/** In a query string or a path: what a URL can carry (%ED%A0%80 is a surrogate's UTF-8, %C0%80 an overlong NUL). */
const HOSTILE_SEGMENTS = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%C0%80',
  '%FF',
  '2147483648',
  '-1',
  '0',
  '1e308',
  '1.5',
  'abc',
  '1',
];

const pathOf = (route: Route, id: string) => route.path.replace(/:[a-z_]+/g, id);

interface Sent {
  route: Route;
  caller: Caller;
  path: string;
  body?: string;
  contentType?: string;
}

/**
 * One request on a connection of its own (node:http, no keep-alive): the portal closes a connection
 * whose oversized body it refused without reading, which would fail the next request on a shared one.
 * The answer counts as soon as it arrives, even while the body is still being written.
 */
async function send({ route, caller, path, body, contentType = 'application/json' }: Sent) {
  const token = await tokenOf(caller);
  const { hostname, port } = new URL(t.url);
  const payload = route.method === 'GET' || body === undefined ? undefined : Buffer.from(body);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request(
      {
        hostname,
        port,
        path,
        method: route.method,
        agent: false,
        headers: {
          accept: 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload ? { 'content-type': contentType, 'content-length': payload.byteLength } : {}),
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    // Refused before the body was all written: the answer (or its absence) is what counts.
    request.on('error', (error: NodeJS.ErrnoException) =>
      ['EPIPE', 'ECONNRESET'].includes(error.code ?? '')
        ? resolve({ status: 0, text: error.code! })
        : reject(error),
    );
    request.end(payload);
  });
}

/** Sends, and fails naming the route, the caller and the input if the answer is a 500. */
async function expectNo500(sent: Sent) {
  const { status, text } = await send(sent);
  expect(
    status,
    `${sent.route.method} ${sent.path} as ${sent.caller} with ${(sent.body ?? '').slice(0, 200)}: ${text.slice(0, 200)}`,
  ).not.toBe(500);
  return status;
}

const queryWith = (value: string) => FIELDS.map((name) => `${name}=${value}`).join('&');

describe('hostile input is never a 500', () => {
  it(`knows the fields of the contract's forms (${FIELDS.length})`, () => {
    expect(FIELDS).toEqual(expect.arrayContaining(['email', 'password', 'search', 'id', 'user_id', 'name']));
  });

  it('every route, every caller, every hostile value in every field', async () => {
    for (const route of API_ROUTES) {
      for (const caller of CALLERS) {
        for (const value of HOSTILE_VALUES) {
          const body = JSON.stringify(Object.fromEntries(FIELDS.map((name) => [name, value])));
          await expectNo500({ route, caller, path: pathOf(route, '1'), body });
        }
        for (const segment of HOSTILE_SEGMENTS) {
          await expectNo500({
            route,
            caller,
            path: `${pathOf(route, segment)}?${queryWith(segment)}`,
            body: '{}',
          });
        }
      }
    }
  }, 300_000);

  it('bodies that are not objects, not JSON, nested 10,000 deep, or 1 MB long', async () => {
    const shapes = [
      '[1,2,3]',
      '"text"',
      '42',
      'null',
      '{"email":',
      '\u0000',
      '['.repeat(10_000) + ']'.repeat(10_000),
      '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000),
      JSON.stringify({ name: 'x'.repeat(1_000_000) }),
    ];
    for (const route of API_ROUTES.filter((route) => route.method === 'POST')) {
      for (const caller of ['admin', 'school_admin'] as const) {
        for (const body of shapes) await expectNo500({ route, caller, path: pathOf(route, '1'), body });
      }
    }
  }, 300_000);

  it('random mixes of hostile values in known and unknown fields (fast-check)', async () => {
    const value = fc.oneof(
      fc.constantFrom(...HOSTILE_VALUES),
      fc.string({ unit: 'binary' }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }),
    );
    const body = fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ unit: 'binary' })), value, {
      maxKeys: 8,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...API_ROUTES),
        fc.constantFrom(...CALLERS),
        fc.constantFrom(...HOSTILE_SEGMENTS),
        body,
        async (route, caller, segment, json) => {
          const status = await expectNo500({
            route,
            caller,
            path: pathOf(route, segment),
            body: JSON.stringify(json),
          });
          return status !== 500;
        },
      ),
      { numRuns: 400 },
    );
  }, 300_000);
});

describe('what hostile input is answered', () => {
  it('a NUL in a list search: the field and the words', async () => {
    const admin = await tokenOf('admin');
    const response = await t.request('GET', '/api/admin/candidates?search=a%00b', { token: admin });
    expect(response).toMatchObject({
      status: 422,
      body: { message: { search: [INPUT_MESSAGES.unreadable] } },
    });
  });

  it('an unpaired surrogate in a profile name', async () => {
    const response = await t.request(
      'POST',
      '/api/training-school-admin/update-user-training-school-profile',
      {
        token: await tokenOf('school_admin'),
        json: { name: 'x\ud800y', email: 'school1@example.org' },
      },
    );
    expect(response).toMatchObject({ status: 422, body: { message: { name: [INPUT_MESSAGES.unreadable] } } });
  });

  it('a NUL in the message board and in a field name', async () => {
    const token = await tokenOf('school_admin');
    const inText = await t.request('POST', '/api/training-school-admin/message-board', {
      token,
      json: { subject: 'Hello', message: 'a\u0000b' },
    });
    expect(inText).toMatchObject({
      status: 422,
      body: { message: { message: [INPUT_MESSAGES.unreadable] } },
    });
    const inName = await t.request('POST', '/api/training-school-admin/message-board', {
      token,
      json: { subject: 'Hello', message: 'Hi', 'x\u0000': 1 },
    });
    expect(inName.status).toBe(422);
  });

  it('ids out of range or of the wrong type mark nothing read', async () => {
    const db = t.portal.database.db;
    const [notification] = await db
      .insert(notifications)
      .values({
        trainingSchoolId: await schoolIdOf(t, 'SHT-IB'),
        kind: 'message',
        title: 'Robustness',
        body: 'Kept unread',
      })
      .returning({ id: notifications.id, readAt: notifications.readAt });
    expect(notification.readAt).toBeNull();
    // Read before (an answer to a school's conversation reads its notification: the fuzz above answers
    // conversation 1 with every value a message may be).
    const readBefore = await db
      .select({ id: notifications.id })
      .from(notifications)
      .where(isNotNull(notifications.readAt));
    for (const id of [2147483648, 1e308, true, [1], '1', 0, -1, 1.5]) {
      const response = await t.request('POST', '/api/admin/notifications/mark-read', {
        token: await tokenOf('admin'),
        json: { id },
      });
      expect(response, JSON.stringify(id)).toMatchObject({
        status: 422,
        body: { message: { id: [NOTIFICATION_MESSAGES.markWhich] } },
      });
    }
    // Not this one, and not notification 1 either (`true` and `[1]` were once read as 1).
    const read = await db
      .select({ id: notifications.id })
      .from(notifications)
      .where(isNotNull(notifications.readAt));
    expect(read).toEqual(readBefore);
  });

  it('an id out of range on impersonate is refused in words', async () => {
    for (const user_id of [2147483648, 1e308, true, [ids.school1], String(ids.school1)]) {
      const response = await t.request('POST', '/api/admin/impersonate', {
        token: await tokenOf('admin'),
        json: { user_id, reason: 'Checking the robustness of the form' },
      });
      expect(response.status, JSON.stringify(user_id)).toBe(422);
    }
  });
});

describe('the multipart detour', () => {
  const bigJson = JSON.stringify({ subject: 'x', message: 'y'.repeat(3 * 1024 * 1024) });

  it('a 3 MiB JSON body sent as multipart to a route that takes no files is too large', async () => {
    const route = API_ROUTES.find((route) => route.path === '/api/training-school-admin/message-board')!;
    const { status } = await send({
      route,
      caller: 'school_admin',
      path: route.path,
      body: bigJson,
      contentType: 'multipart/form-data; x=application/json',
    });
    expect(status).toBe(413);
  });

  it('a small multipart body to a route that takes no files is not read as a form', async () => {
    const form = new FormData();
    form.append('subject', 'Hello');
    form.append('message', 'Sent as a form');
    const response = await fetch(`${t.url}/api/training-school-admin/message-board`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await tokenOf('school_admin')}` },
      body: form,
    });
    expect(response.status).toBe(422);
  });

  it('a route that takes files keeps its own, larger limit', async () => {
    expect(MULTIPART_BODY_LIMIT).toBeGreaterThan(3 * 1024 * 1024);
    const form = new FormData();
    form.append('name', 'Babatunde Adeyemi');
    form.append('email', 'school1@example.org');
    form.append('padding', 'z'.repeat(3 * 1024 * 1024));
    const response = await fetch(`${t.url}/api/training-school-admin/update-user-training-school-profile`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await tokenOf('school_admin')}` },
      body: form,
    });
    expect(response.status).toBe(200);
  });
});
