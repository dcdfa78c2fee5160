/**
 * Issue 28 item 4 for a payment verify: a school admin's verify of its own payment left pending at the
 * sandbox's checkout (so every verify asks the provider and records the check), over HTTP, interleaved
 * with the same statements sent raw through pg. The statements are the portal's own, read off the
 * wire: a first portal runs through scripts/sql-recorder.ts for one verify (after one unrecorded, so
 * the caller is kept and the provider's state settled), then a second portal on PostgreSQL directly
 * answers the timed verifies while the bench replays those statements on one connection of its own
 * (the pool's statements of one request, in the order they were sent). The job queue's own statements
 * (pg-boss polling) are left out. On the living demo (`SEED_DEMO`), PostgreSQL only:
 * `npx tsx scripts/bench-verify-sql.ts`; BENCH_SAMPLES pairs (300).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { fillPath } from '../contract/endpoint';
import type { PayableFees, UnpaidCandidate } from '../contract/payments';
import { PAYMENT_ENDPOINTS } from '../contract/payments.endpoints';
import { SANDBOX_PREFIX } from '../server/payments/provider';
import { createBenchDatabase, signIn, startServer } from './bench-candidates';
import { json } from './bench-payments';
import { startRecorder, type Statement } from './sql-recorder';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const WARM_UP = 30;
const SCHOOL = 'school1@example.org';
const PORT = Number(process.env.BENCH_PORT ?? 3491);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))];
};

/** A payment of one candidate, left pending at the sandbox's checkout: its reference. */
async function pendingPayment(url: string, token: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const payable = await json<PayableFees>(await fetch(url + PAYMENT_ENDPOINTS.payableFees.path, { headers }));
  for (const fee of payable.fees.filter((f) => f.basis === 'candidate')) {
    const unpaid = await json<UnpaidCandidate[]>(
      await fetch(url + fillPath(PAYMENT_ENDPOINTS.unpaid.path, { id: fee.id }), { headers }),
    );
    const candidate = unpaid.find((c) => !c.in_payment);
    if (!candidate) continue;
    const started = await json<{ reference: string; access_code: string }>(
      await fetch(url + PAYMENT_ENDPOINTS.start.path, {
        method: 'POST',
        headers,
        body: JSON.stringify({ fee_id: fee.id, candidate_ids: [candidate.id] }),
      }),
    );
    await fetch(`${url}${SANDBOX_PREFIX}/checkout/${started.access_code}/pending`, { method: 'POST' });
    return started.reference;
  }
  throw new Error('no unpaid candidate in the demo');
}

const verifyPath = (reference: string) => fillPath(PAYMENT_ENDPOINTS.verify.school_admin.path, { reference });

async function verify(url: string, token: string, reference: string) {
  const started = performance.now();
  const response = await fetch(url + verifyPath(reference), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  const body = await response.text();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`verify: ${response.status} ${body}`);
  return elapsed;
}

async function main() {
  const database = await createBenchDatabase('verifysql');
  if (!database) return;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-verify-sql-'));
  const url = new URL(database.url);
  const recorder = await startRecorder({ host: url.hostname, port: Number(url.port || 5432) });
  try {
    // 1. The statements of one verify, read off the wire.
    const proxied = new URL(database.url);
    proxied.port = String(recorder.port);
    let statements: Statement[];
    let reference: string;
    const recording = await startServer(
      { DATABASE_URL: proxied.toString(), DATA_DIR: dataDir, SEED_DEMO: '1' },
      PORT,
    );
    try {
      const token = await signIn(recording.url, dataDir, SCHOOL);
      reference = await pendingPayment(recording.url, token);
      await verify(recording.url, token, reference);
      recorder.take();
      recorder.recording = true;
      await verify(recording.url, token, reference);
      recorder.recording = false;
      statements = recorder.take().filter((s) => !/pgboss/i.test(s.text));
    } finally {
      await recording.stop();
    }
    console.log(`one verify sends ${statements.length} statements:`);
    for (const s of statements) console.log(`  ${s.text.replace(/\s+/g, ' ').slice(0, 140)}`);

    // 2. Over HTTP beside the same statements, interleaved.
    const running = await startServer({ DATABASE_URL: database.url, DATA_DIR: dataDir }, PORT);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const token = await signIn(running.url, dataDir, SCHOOL);
      const raw = async () => {
        const started = performance.now();
        for (const s of statements) await client.query(s.text, s.values);
        return performance.now() - started;
      };
      const http: number[] = [];
      const sql: number[] = [];
      for (let i = 0; i < WARM_UP + SAMPLES; i++) {
        const [h, r] =
          i % 2
            ? [await verify(running.url, token, reference), await raw()]
            : await raw().then(async (r) => [await verify(running.url, token, reference), r]);
        if (i >= WARM_UP) {
          http.push(h);
          sql.push(r);
        }
      }
      const ms = (v: number) => `${v.toFixed(2)} ms`;
      console.log(
        `\nA payment verify beside its SQL (interleaved, ${SAMPLES} pairs, PostgreSQL ${database.version}; load average ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}):`,
      );
      console.log('| request | statements | HTTP median / p95 | raw SQL (pg) median / p95 | raw / HTTP |');
      console.log('|---|--:|---:|---:|---:|');
      console.log(
        `| a school admin's verify of a pending payment | ${statements.length} | ${ms(percentile(http, 0.5))} / ${ms(percentile(http, 0.95))} | ${ms(percentile(sql, 0.5))} / ${ms(percentile(sql, 0.95))} | ${(percentile(sql, 0.5) / percentile(http, 0.5)).toFixed(2)}x |`,
      );
    } finally {
      await client.end();
      await running.stop();
    }
  } finally {
    await recorder.close();
    await database.drop().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
