import type { PGlite } from '@electric-sql/pglite';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_ENDPOINTS } from '../../contract/payments.endpoints';
import { issueToken } from '../../server/auth/tokens';
import type { DatabaseHandle } from '../../server/db/client';
import { auditLog, payments, sandboxTransactions } from '../../server/db/schema';
import { startJobs, type Jobs } from '../../server/jobs/queue';
import { settleKey } from '../../server/payments/settleJob';
import { addFee, seedPayers, until, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * One settle queued per reference (issue 23): the webhook queues the settle job with the reference as its
 * `singletonKey` on a queue whose pg-boss policy ('short') really keeps one queued job per key, so ten
 * deliveries at once make one job row, and the payment is credited once. The policy reaches a database
 * whose queue was made before (with pg-boss's 'standard' policy), and a settle running for one reference
 * holds up nobody else's. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */

let t: TestPortal;
const db = () => t.portal.database.db;
const tokens = {} as Record<'admin' | 'school1', string>;
let people: number[] = [];
let fee: number;
const others: Jobs[] = [];

async function start(candidate: number) {
  const response = await t.request('POST', PAYMENT_ENDPOINTS.start.path, {
    token: tokens.school1,
    json: { fee_id: fee, candidate_ids: [candidate] },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data as { reference: string };
}

/** The payer paid at the provider (the sandbox's book says so), without its own webhook. */
const paidAtProvider = (reference: string) =>
  db()
    .update(sandboxTransactions)
    .set({ status: 'success', gatewayResponse: 'Approved', paidAt: new Date() })
    .where(eq(sandboxTransactions.reference, reference));

function webhook(reference: string) {
  const body = JSON.stringify({ event: 'charge.success', data: { reference } });
  return fetch(`${t.url}${PAYMENT_ENDPOINTS.webhook.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-paystack-signature': t.portal.payments.sign(body) },
    body,
  });
}

/** The settle jobs of a reference, in any state, with their policy. */
async function settleJobs(reference: string) {
  const result = await db().execute(
    sql`select state, policy from pgboss.job where name = 'payment-settle' and singleton_key = ${settleKey(reference)}`,
  );
  return (result as unknown as { rows: { state: string; policy: string }[] }).rows;
}

/** Another "API process" on the same database (its own pool on PostgreSQL; the same PGlite). */
async function secondQueue(database: DatabaseHandle = t.portal.database): Promise<Jobs> {
  const url = t.databaseUrl;
  const jobs = await startJobs(
    url
      ? { driver: 'postgres', url }
      : { driver: 'pglite', pglite: (database as DatabaseHandle & { pglite?: PGlite }).pglite! },
    {
      database,
      storage: t.portal.storage,
      mailer: t.portal.mailer,
      log: { info: () => {}, error: () => {} },
      clock: () => new Date(),
      payments: t.portal.payments,
      selfUrl: () => t.url,
      publicUrl: t.url,
    },
    { pollingIntervalSeconds: 0.5, schedule: false, supervise: false },
  );
  others.push(jobs);
  return jobs;
}

beforeAll(async () => {
  t = await startTestPortal({}, { jobs: { pollingIntervalSeconds: 0.5, schedule: false, supervise: false } });
  tokens.admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
  tokens.school1 = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
  people = await seedPayers(t, 4, 'Settle', (i) => `Once${i}`);
  fee = await addFee(t, tokens.admin, { title: 'Registration', amount: '1,000' });
}, 120_000);

afterAll(async () => {
  for (const jobs of others) await jobs.stop();
  await t?.close();
});

describe('the settle job, once per reference', () => {
  it('ten signed webhooks for one reference at once make one job, and credit once', async () => {
    const { reference } = await start(people[0]);
    await paidAtProvider(reference);
    const answers = await Promise.all(Array.from({ length: 10 }, () => webhook(reference)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    // One job waiting at most, whatever the burst: the sandbox's own webhook (sent as it was paid) may
    // have queued one that ran before a slow burst ended (the machine loaded), and then one more waits.
    const queued = await settleJobs(reference);
    expect(queued.filter((job) => job.state !== 'completed')).toEqual([
      { state: 'created', policy: 'short' },
    ]);
    expect(queued.every((job) => job.policy === 'short')).toBe(true);

    const paid = await until(
      async () => (await db().select().from(payments).where(eq(payments.reference, reference)))[0],
      (p) => p.status === 'paid',
    );
    expect(paid.status).toBe('paid');
    const done = await until(
      () => settleJobs(reference),
      (jobs) => jobs.every((job) => job.state === 'completed'),
    );
    expect(done.length).toBeLessThanOrEqual(2);
    const credits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payment.credited'), eq(auditLog.entityId, String(paid.id))));
    expect(credits).toHaveLength(1);
    // A delivery after the settle ran queues it again: news (a reversal) may follow a credit.
    expect((await webhook(reference)).status).toBe(200);
    const again = (await settleJobs(reference)).map((job) => job.state);
    expect(again.filter((state) => state !== 'completed')).toEqual(['created']);
  });

  it("reaches a database whose queue was made with pg-boss's standard policy", async () => {
    const { boss } = t.portal.jobs;
    await boss.updateQueue('payment-settle', {
      name: 'payment-settle',
      policy: 'standard',
      retryLimit: 3,
      retryDelay: 60,
    });
    expect((await boss.getQueue('payment-settle'))?.policy).toBe('standard');
    // The next start (another process, or this one again) sets the policy JOBS declares.
    await secondQueue();
    expect((await boss.getQueue('payment-settle'))?.policy).toBe('short');
    expect((await boss.getQueue('upkeep'))?.policy).toBe('standard');
  });

  it('a settle running for one reference holds up no other reference', async () => {
    // Two queues on one database, as two API processes: one holds a job of reference A as active
    // (taken, not finished); a second job of A and one of B are queued; the other takes B. (pg-boss's
    // 'stately' policy, which also allows one active job a key, would answer it nothing here: its fetch
    // of A's second job breaks its unique index, and the whole fetch is dropped.)
    const { boss } = t.portal.jobs;
    const other = others[0] ?? (await secondQueue());
    // The queues' own workers stop taking settle jobs: the test takes them by hand.
    await boss.offWork('payment-settle');
    await other.boss.offWork('payment-settle');
    // offWork returns before a worker's poll already under way ends, and pg-boss says nothing when it
    // has: such a poll took the test's own jobs in CI (under load, on PostgreSQL, whose pool may hold the
    // poll's query back). pg-boss's own offWork looks again after a second; so does the test, twice over.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const [a, b] = ['WHB-HOLDAAAAAAAA', 'WHB-HOLDBBBBBBBB'];
    await boss.send('payment-settle', { reference: a }, { singletonKey: settleKey(a) });
    const held = await boss.fetch('payment-settle', { batchSize: 5 });
    // Of this test's references (an earlier test's delivery may have left its own settle job queued).
    const ours = (jobs: typeof held) =>
      jobs.map((job) => (job.data as { reference: string }).reference).filter((r) => [a, b].includes(r));
    expect(ours(held)).toEqual([a]);
    expect(await boss.send('payment-settle', { reference: a }, { singletonKey: settleKey(a) })).toBeTruthy();
    expect(await boss.send('payment-settle', { reference: a }, { singletonKey: settleKey(a) })).toBeNull();
    await boss.send('payment-settle', { reference: b }, { singletonKey: settleKey(b) });
    // A fetch skips a row another connection holds locked for a moment (FOR UPDATE SKIP LOCKED): what
    // one fetch skipped, the next takes; a job a worker took instead would never come.
    const taken: Awaited<ReturnType<typeof other.boss.fetch>> = [];
    const references = () => ours(taken).sort();
    await until(
      async () => taken.push(...(await other.boss.fetch('payment-settle', { batchSize: 5 }))),
      () => references().length >= 2,
      5_000,
    );
    expect(references()).toEqual([a, b]);
    await boss.complete(
      'payment-settle',
      [...held, ...taken].map((job) => job.id),
    );
  });
});
