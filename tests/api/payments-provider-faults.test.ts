import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  PROVIDER_ALERT_MINUTES,
  PROVIDER_FAILURE_MESSAGES as SAID,
  type ProviderFailureKind,
} from '../../contract/payments';
import { PAYMENT_ENDPOINTS } from '../../contract/payments.endpoints';
import { systemActor } from '../../server/audit';
import { issueToken } from '../../server/auth/tokens';
import { auditLog, notifications, paymentItems, payments } from '../../server/db/schema';
import { RunLater } from '../../server/jobs/handle';
import { PROVIDER_NOTIFICATION_KIND } from '../../server/payments/health';
import { ProviderFailure } from '../../server/errors';
import { paystackClient, signBody } from '../../server/payments/provider';
import { requeryDue } from '../../server/payments/settle';
import { settleJob, settleKey } from '../../server/payments/settleJob';
import { addFee, schoolVerifies, seedPayers, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * The provider failing, by cause (issue 23), against a local fake of Paystack: a real HTTP server on the
 * loopback that answers as Paystack does, or, on cue, 401 (a revoked key), 429 with Retry-After, 500, an
 * HTML page, nothing at all (past the client's timeout, 1 s here), or a dropped connection. The
 * portal runs with Paystack keys and its real client pointed at the fake; everything is driven over
 * HTTP through the portal's routes: the school's sentence for each cause, the cause in the log without
 * a secret, the board's banner and notification after a refused key or minutes of failure (and cleared
 * by the next answer), and the jobs' retries. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */

const SECRET = 'sk_test_faults_0123456789abcdef';
const TIMEOUT_MS = 1000;
type Mode = 'ok' | '401' | '429' | '500' | 'html' | 'hang' | 'drop';

let mode: Mode = 'ok';
const calls: { method: string; path: string; authorization: string | undefined }[] = [];
const hanging = new Set<http.ServerResponse>();
const fake = http.createServer((req, res) => {
  calls.push({ method: req.method!, path: req.url!, authorization: req.headers.authorization });
  const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  req.resume();
  req.on('end', () => {
    switch (mode) {
      case '401':
        return send(401, { status: false, message: 'Invalid key' });
      case '429':
        return send(429, { status: false, message: 'Too many requests' }, { 'retry-after': '30' });
      case '500':
        return send(500, { status: false, message: 'Internal server error' });
      case 'html':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<!doctype html><html><body><h1>Down for maintenance</h1></body></html>');
      case 'hang':
        hanging.add(res);
        return;
      case 'drop':
        return req.socket.destroy();
    }
    if (req.url === '/transaction/initialize') {
      const code = `AC${calls.length}`;
      return send(200, {
        status: true,
        message: 'Authorization URL created',
        data: {
          authorization_url: `https://checkout.paystack.com/${code}`,
          access_code: code,
          reference: 'x',
        },
      });
    }
    const reference = decodeURIComponent(req.url!.split('/').pop()!);
    send(200, {
      status: true,
      message: 'Verification successful',
      data: {
        reference,
        status: 'ongoing',
        amount: 100000,
        currency: 'NGN',
        gateway_response: 'Transfer awaiting confirmation',
        paid_at: null,
        channel: 'bank_transfer',
      },
    });
  });
});

let t: TestPortal;
let now = Date.now();
const lines: { level: string; event: string; fields?: Record<string, unknown> }[] = [];
const log = {
  info: (event: string, fields?: Record<string, unknown>) => lines.push({ level: 'info', event, fields }),
  error: (event: string, fields?: Record<string, unknown>) => lines.push({ level: 'error', event, fields }),
};
const db = () => t.portal.database.db;
const tokens = {} as Record<'admin' | 'school1', string>;
let people: number[] = [];
let fee: number;
let reference: string;

const verify = () => schoolVerifies(t, tokens.school1, reference);
const health = async () =>
  (await t.request('GET', PAYMENT_ENDPOINTS.providerHealth.path, { token: tokens.admin })).body.data;
const providerNotices = () =>
  db().select().from(notifications).where(eq(notifications.kind, PROVIDER_NOTIFICATION_KIND));
const failures = () => lines.filter((line) => line.event === 'payment.provider_failed');

async function start(candidate: number) {
  return t.request('POST', PAYMENT_ENDPOINTS.start.path, {
    token: tokens.school1,
    json: { fee_id: fee, candidate_ids: [candidate] },
  });
}

beforeAll(async () => {
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const { port } = fake.address() as AddressInfo;
  t = await startTestPortal(
    { PAYSTACK_SECRET_KEY: SECRET, PAYSTACK_PUBLIC_KEY: 'pk_test_faults' },
    {
      clock: () => new Date(now),
      log,
      paystack: { url: `http://127.0.0.1:${port}`, timeoutMs: TIMEOUT_MS },
      jobs: { pollingIntervalSeconds: 0.5, schedule: false, supervise: false },
    },
  );
  tokens.admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
  tokens.school1 = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
  people = await seedPayers(t, 4, 'Fault', (i) => `Payer${i}`);
  fee = await addFee(t, tokens.admin, { title: 'Registration', amount: '1,000' });
  mode = 'ok';
  const started = await start(people[0]);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  reference = started.body.data.reference;
}, 120_000);

afterAll(async () => {
  for (const res of hanging) res.destroy();
  await t?.close();
  await new Promise((resolve) => fake.close(resolve));
});

beforeEach(() => {
  mode = 'ok';
  now = Date.now();
});

describe('each failure by its cause', () => {
  const causes: [Mode, ProviderFailureKind, number | null][] = [
    ['401', 'key_refused', 401],
    ['429', 'rate_limited', 429],
    ['500', 'server_error', 500],
    ['html', 'not_json', 200],
    ['hang', 'timeout', null],
    ['drop', 'unreachable', null],
  ];

  it.each(causes)('%s: the school is told what to do, the log says why', async (cue, kind, status) => {
    mode = cue;
    const before = lines.length;
    const asked = performance.now();
    const answer = await verify();
    expect(performance.now() - asked).toBeLessThan(TIMEOUT_MS + 3000);
    expect(answer.status).toBe(502);
    expect(answer.body).toEqual({ success: false, message: SAID.verify[kind] });
    const logged = lines.slice(before).filter((line) => line.event === 'payment.provider_failed');
    expect(logged).toHaveLength(1);
    expect(logged[0].fields).toMatchObject({
      provider: 'paystack',
      cause: kind,
      status,
      method: 'GET',
      path: '/transaction/verify/:reference',
    });
    if (kind === 'rate_limited') expect(logged[0].fields).toMatchObject({ retry_after: 30 });
    // Nothing changed: the payment is as it was.
    const [row] = await db().select().from(payments).where(eq(payments.reference, reference));
    expect(row.status).toBe('initialised');
  });

  it('a refused connection is told as unreachable (the real client, at a port nobody listens on)', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const logged: Record<string, unknown>[] = [];
    const client = paystackClient({
      baseUrl: () => `http://127.0.0.1:${port}`,
      secretKey: SECRET,
      info: { name: 'paystack', script_url: '' },
      log: { error: (_event, fields) => logged.push(fields ?? {}) },
    });
    const failure = await client.verify(reference).catch((error) => error);
    expect(failure).toBeInstanceOf(ProviderFailure);
    expect(failure).toMatchObject({ kind: 'unreachable', message: SAID.verify.unreachable, status: 502 });
    expect(logged).toEqual([expect.objectContaining({ cause: 'unreachable', status: null })]);
  });

  it('a start the provider refuses is told to try later, a busy one in a minute; it holds nobody', async () => {
    mode = '429';
    const busy = await start(people[1]);
    expect(busy.status).toBe(502);
    expect(busy.body.message).toBe(SAID.start.rate_limited);
    expect(busy.body.message).toContain('try again in a minute');
    mode = '401';
    const refused = await start(people[1]);
    expect(refused.body.message).toBe(SAID.start.key_refused);
    expect(refused.body.message).toContain('the board has been told');
    expect(failures().at(-1)?.fields).toMatchObject({ path: '/transaction/initialize', method: 'POST' });
    // Recorded before the provider was asked (a webhook may come first), then let go when it refused:
    // only the earlier payment is still in progress, and the refused starts hold no candidate.
    const rows = await db()
      .select({ status: payments.status, n: sql<number>`count(*)::int` })
      .from(payments)
      .where(eq(payments.feeId, fee))
      .groupBy(payments.status);
    expect(Object.fromEntries(rows.map((r) => [r.status, r.n]))).toEqual({ initialised: 1, abandoned: 2 });
    const [held] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(paymentItems)
      .innerJoin(payments, eq(payments.id, paymentItems.paymentId))
      .where(and(eq(payments.feeId, fee), eq(payments.status, 'abandoned'), eq(paymentItems.live, true)));
    expect(held.n).toBe(0);
  });

  it('never logs the key, the Authorization header, a body or the reference', async () => {
    // The fake was sent the key (so it was there to leak); the log has none of it.
    expect(calls.some((call) => call.authorization === `Bearer ${SECRET}`)).toBe(true);
    const text = JSON.stringify(lines);
    expect(failures().length).toBeGreaterThanOrEqual(6);
    for (const secret of [SECRET, 'Bearer', reference, 'Invalid key', 'maintenance', 'Too many requests']) {
      expect(text).not.toContain(secret);
    }
  });
});

describe("the board's banner", () => {
  it('a refused key tells the board at once, and the next answer clears it', async () => {
    // The failures above left the provider failing; an answer clears it first.
    expect((await verify()).status).toBe(200);
    expect(await health()).toEqual({ provider: 'paystack', failing: null, alert: false });
    const told = (await providerNotices()).length;

    mode = '401';
    expect((await verify()).status).toBe(502);
    const failing = await health();
    expect(failing).toMatchObject({
      alert: true,
      failing: { kind: 'key_refused', http_status: 401, since: new Date(now).toISOString() },
    });
    expect(failing.failing.label).toContain('PAYSTACK_SECRET_KEY');
    const notices = await providerNotices();
    expect(notices).toHaveLength(told + 1);
    expect(notices.at(-1)!.title).toBe('Payments stopped: the provider refuses our key');
    // Told once, however many calls fail.
    expect((await verify()).status).toBe(502);
    expect(await providerNotices()).toHaveLength(told + 1);
    const audited = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payment.provider_failing'), eq(auditLog.entityId, 'paystack')));
    expect(audited.length).toBeGreaterThanOrEqual(1);
    // A school admin cannot read it.
    const school = await t.request('GET', PAYMENT_ENDPOINTS.providerHealth.path, { token: tokens.school1 });
    expect(school.status).toBe(403);

    mode = 'ok';
    expect((await verify()).status).toBe(200);
    expect(await health()).toEqual({ provider: 'paystack', failing: null, alert: false });
    expect((await providerNotices()).at(-1)!.title).toBe('Payments: the provider answers again');
  });

  it(`a provider down for ${PROVIDER_ALERT_MINUTES} minutes tells the board; a blip does not`, async () => {
    const told = (await providerNotices()).length;
    mode = '500';
    expect((await verify()).status).toBe(502);
    expect(await health()).toMatchObject({
      alert: false,
      failing: { kind: 'server_error', http_status: 500 },
    });
    now += (PROVIDER_ALERT_MINUTES - 1) * 60_000;
    mode = 'hang';
    expect((await verify()).status).toBe(502);
    expect(await health()).toMatchObject({ alert: false, failing: { kind: 'timeout', http_status: null } });
    expect(await providerNotices()).toHaveLength(told);

    now += 2 * 60_000;
    mode = '500';
    expect((await verify()).status).toBe(502);
    const down = await health();
    expect(down.alert).toBe(true);
    expect(down.failing.since).toBe(new Date(now - (PROVIDER_ALERT_MINUTES + 1) * 60_000).toISOString());
    expect((await providerNotices()).at(-1)!.title).toBe('Payments: the provider is failing');

    mode = 'ok';
    expect((await verify()).status).toBe(200);
    expect((await health()).failing).toBeNull();
  });
});

describe('the jobs retry where it helps', () => {
  const parts = () => ({ db: db(), provider: t.portal.payments, log });

  it("the webhook's settle, rate limited, is queued again after the provider's Retry-After", async () => {
    mode = '429';
    const body = JSON.stringify({ event: 'charge.success', data: { reference } });
    const delivered = await fetch(`${t.url}${PAYMENT_ENDPOINTS.webhook.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paystack-signature': signBody(SECRET, body) },
      body,
    });
    expect(delivered.status).toBe(200);
    const jobs = async () => {
      const result = await db().execute(
        sql`select state, data, extract(epoch from start_after - now())::float as due_in from pgboss.job where name = 'payment-settle' and singleton_key = ${settleKey(reference)} order by created_on`,
      );
      return (result as unknown as { rows: { state: string; data: { attempt?: number }; due_in: number }[] })
        .rows;
    };
    const end = Date.now() + 15_000;
    while (Date.now() < end && !(await jobs()).some((job) => job.state === 'completed')) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const [done, later] = await jobs();
    expect(done.state).toBe('completed');
    expect(later).toMatchObject({ state: 'created', data: { reference, attempt: 1 } });
    expect(later.due_in).toBeGreaterThan(25);
    expect(later.due_in).toBeLessThanOrEqual(31);
  });

  it('a server error is put off with a backoff; a refused key is left to the re-query', async () => {
    mode = '500';
    const deferred = await settleJob(parts(), { reference, attempt: 2 }).catch((error) => error);
    expect(deferred).toBeInstanceOf(RunLater);
    expect(deferred).toMatchObject({ seconds: 120, data: { reference, attempt: 3 } });
    mode = '401';
    const asked = calls.length;
    await expect(settleJob(parts(), { reference })).resolves.toBeUndefined();
    expect(calls.length).toBe(asked + 1);
    expect(lines.at(-1)).toMatchObject({
      event: 'payment.settle_left_to_requery',
      fields: { cause: 'key_refused' },
    });
  });

  it('the re-query stops at the first provider failure instead of asking about every payment', async () => {
    mode = 'ok';
    for (const person of people.slice(2, 4)) expect((await start(person)).status).toBe(200);
    await db()
      .update(payments)
      .set({ nextCheckAt: new Date(Date.now() - 60_000) })
      .where(eq(payments.feeId, fee));
    mode = '500';
    const asked = calls.length;
    expect(await requeryDue({ ...parts(), now: () => new Date() }, systemActor())).toBe(0);
    expect(calls.length).toBe(asked + 1);
    expect(lines.find((line) => line.event === 'payment.requery_stopped')).toMatchObject({
      fields: { cause: 'server_error' },
    });
  });
});
