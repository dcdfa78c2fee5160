import { fillPath } from '../contract/endpoint';
import type { PayableFees, PaymentRow, UnpaidCandidate } from '../contract/payments';
import { randomBytes } from 'node:crypto';
import { PAYMENT_ENDPOINTS } from '../contract/payments.endpoints';
import { SANDBOX_PREFIX, signBody } from '../server/payments/provider';
import { databaseKey, onEachDatabase, signIn, startServer } from './bench-candidates';
import { recordFigure } from './benchRecord';

/**
 * The provider's webhook under a burst, on a real `npm start` with the living demo (PGlite, then
 * PostgreSQL): a school starts 50 payments of one candidate each and pays them at the sandbox's checkout
 * with "Leave pending" (so the sandbox sends nothing itself), the sandbox's book is moved to success, and
 * then 50 signed `charge.success` deliveries arrive at once, as Paystack sends them after an outage. Timed:
 * each delivery's answer (it only checks the signature and queues the settle job), how long until all 50
 * are credited by the job queue, and the same 50 delivered again at once (a replay: each settles to
 * "already paid"). BENCH_WEBHOOKS sizes the burst.
 */

const BURST = Number(process.env.BENCH_WEBHOOKS ?? 50);
const SCHOOL = 'school1@example.org';
/** The sandbox's secret key for the portals this bench starts (each start's own random one otherwise). */
const SANDBOX_SECRET_KEY = `sk_bench_${randomBytes(24).toString('hex')}`;

/** The p-th percentile (0-100) of some timings; with `ms` and `json`, shared by the later bench parts. */
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
export const ms = (value: number) => value.toFixed(1);

export async function json<T>(response: Response): Promise<T> {
  const body = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`${response.status}: ${JSON.stringify(body)}`);
  return body.data;
}

async function burst(url: string, references: string[]) {
  return Promise.all(
    references.map(async (reference) => {
      const body = JSON.stringify({ event: 'charge.success', data: { reference } });
      const started = performance.now();
      const response = await fetch(url + PAYMENT_ENDPOINTS.webhook.path, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-paystack-signature': signBody(SANDBOX_SECRET_KEY, body),
        },
        body,
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`webhook answered ${response.status}`);
      return performance.now() - started;
    }),
  );
}

async function run(label: string, env: Record<string, string>, dataDir: string, port: number) {
  const server = await startServer({ ...env, SANDBOX_SECRET_KEY }, port);
  try {
    const token = await signIn(server.url, dataDir, SCHOOL);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const payable = await json<PayableFees>(
      await fetch(server.url + PAYMENT_ENDPOINTS.payableFees.path, { headers }),
    );
    // One candidate a payment, over the per-candidate fees, until the burst is made up.
    const pairs: { fee: number; candidate: number }[] = [];
    for (const fee of payable.fees.filter((f) => f.basis === 'candidate')) {
      const unpaid = await json<UnpaidCandidate[]>(
        await fetch(server.url + fillPath(PAYMENT_ENDPOINTS.unpaid.path, { id: fee.id }), { headers }),
      );
      // Those the demo already holds in a payment in progress cannot be started again (409).
      pairs.push(...unpaid.filter((c) => !c.in_payment).map((c) => ({ fee: fee.id, candidate: c.id })));
    }
    // The burst is what the demo's school can pay for, up to BURST (the table says how many).
    const size = Math.min(BURST, pairs.length);
    if (size < 10) throw new Error(`only ${pairs.length} unpaid (fee, candidate) pairs in the demo`);
    const references: string[] = [];
    for (const { fee, candidate } of pairs.slice(0, size)) {
      const started = await json<{ reference: string; access_code: string }>(
        await fetch(server.url + PAYMENT_ENDPOINTS.start.path, {
          method: 'POST',
          headers,
          body: JSON.stringify({ fee_id: fee, candidate_ids: [candidate] }),
        }),
      );
      await fetch(`${server.url}${SANDBOX_PREFIX}/checkout/${started.access_code}/pending`, {
        method: 'POST',
      });
      references.push(started.reference);
    }
    // The transfers arrive at the provider. `complete` also sends its own webhook (a job): the burst
    // below comes on top, as Paystack's retries would.
    for (const reference of references) {
      await fetch(`${server.url}${SANDBOX_PREFIX}/transaction/${reference}/complete`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SANDBOX_SECRET_KEY}` },
      });
    }
    const sent = performance.now();
    const first = await burst(server.url, references);
    let credited = 0;
    for (;;) {
      const page = await json<{ items: PaymentRow[] }>(
        await fetch(
          `${server.url}${PAYMENT_ENDPOINTS.histories.school_admin.path}?status=paid&per_page=100`,
          { headers },
        ),
      );
      credited = page.items.filter((p) => references.includes(p.transaction_ref)).length;
      if (credited === size || performance.now() - sent > 120_000) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const allCredited = performance.now() - sent;
    const replay = await burst(server.url, references);
    // No anchor: the answers' p95 and the queue's time are absolute (the load is stored beside them).
    const key = `payments.${databaseKey(label)}.n${size}`;
    recordFigure(`${key}.answer_p95_ms`, Number(percentile(first, 95).toFixed(1)), 'ms', 'lower');
    if (credited === size)
      recordFigure(`${key}.all_credited_s`, Number((allCredited / 1000).toFixed(2)), 's', 'lower');
    recordFigure(`${key}.not_credited`, size - credited, 'deliveries', 'lower');
    recordFigure(`${key}.replay_p95_ms`, Number(percentile(replay, 95).toFixed(1)), 'ms', 'lower');
    return `| ${label} | ${size} | ${ms(percentile(first, 50))} / **${ms(percentile(first, 95))}** | ${credited === size ? `${(allCredited / 1000).toFixed(1)} s` : `${credited} of ${size} in 120 s`} | ${ms(percentile(replay, 50))} / **${ms(percentile(replay, 95))}** |`;
  } finally {
    await server.stop();
  }
}

export async function benchPayments({ port }: { port: number }) {
  const lines = await onEachDatabase('payments', (label, env, dataDir) => run(label, env, dataDir, port));
  console.log(`\nWebhook deliveries, ${BURST} at once (ms, median / p95):`);
  console.log('| database | deliveries | answer | all credited by the job queue | replayed: answer |');
  console.log('| --- | --: | --: | --: | --: |');
  for (const line of lines) console.log(line);
}
