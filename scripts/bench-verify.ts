import http from 'node:http';
import { fillPath } from '../contract/endpoint';
import type { PayableFees, UnpaidCandidate } from '../contract/payments';
import { PAYMENT_ENDPOINTS } from '../contract/payments.endpoints';
import { SANDBOX_PREFIX } from '../server/payments/provider';
import { databaseKey, onEachDatabase, signIn, startServer } from './bench-candidates';
import { recordFigure } from './benchRecord';
import { json, ms, percentile } from './bench-payments';

/**
 * Verify under load, on a real `npm start` with the living demo and the sandbox provider (PGlite, then
 * PostgreSQL): a school starts 50 payments of one candidate each and leaves them pending at the sandbox's
 * checkout, then 50 clients each verify their own payment over and over for 60 s, as 50 schools pressing
 * "Check payment" at once. Every verify asks the provider (the sandbox: still 'ongoing') and records the
 * check, so each is a provider call and a write. Each client has its own kept-alive connection, as each
 * school's browser has. Counted: verifies answered, errors by status, p50/p95/
 * p99. BENCH_VERIFY_CLIENTS and BENCH_VERIFY_SECONDS size it (BENCH_VERIFY_SECONDS=10 for a quick try).
 */

const CLIENTS = Number(process.env.BENCH_VERIFY_CLIENTS ?? 50);
const SECONDS = Number(process.env.BENCH_VERIFY_SECONDS ?? 60);
const SCHOOLS = ['school1@example.org', 'school2@example.org'];

/** A POST with no body on the client's own connection; answers the status (the body is read and dropped). */
function post(url: string, headers: Record<string, string>, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers, agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

async function run(label: string, env: Record<string, string>, dataDir: string, port: number) {
  const server = await startServer(env, port);
  try {
    // The demo's two school admins, each paying for its unpaid candidates one a payment, until there
    // is a pending payment for every client.
    const clients: { reference: string; headers: Record<string, string> }[] = [];
    for (const email of SCHOOLS) {
      const token = await signIn(server.url, dataDir, email);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const payable = await json<PayableFees>(
        await fetch(server.url + PAYMENT_ENDPOINTS.payableFees.path, { headers }),
      );
      for (const fee of payable.fees.filter((f) => f.basis === 'candidate')) {
        const unpaid = await json<UnpaidCandidate[]>(
          await fetch(server.url + fillPath(PAYMENT_ENDPOINTS.unpaid.path, { id: fee.id }), { headers }),
        );
        for (const candidate of unpaid.filter((c) => !c.in_payment)) {
          if (clients.length === CLIENTS) break;
          const started = await json<{ reference: string; access_code: string }>(
            await fetch(server.url + PAYMENT_ENDPOINTS.start.path, {
              method: 'POST',
              headers,
              body: JSON.stringify({ fee_id: fee.id, candidate_ids: [candidate.id] }),
            }),
          );
          // "Leave pending": the sandbox sends no webhook; every verify finds it still ongoing.
          await fetch(`${server.url}${SANDBOX_PREFIX}/checkout/${started.access_code}/pending`, {
            method: 'POST',
          });
          clients.push({ reference: started.reference, headers });
        }
      }
    }
    if (clients.length < CLIENTS) throw new Error(`only ${clients.length} unpaid candidates in the demo`);

    const timings: number[] = [];
    const agents: http.Agent[] = [];
    const errors = new Map<string, number>();
    const until = performance.now() + SECONDS * 1000;
    await Promise.all(
      clients.map(async ({ reference, headers }) => {
        // Each school its own browser: one kept-alive connection a client. (Node's fetch would share
        // one pool for the origin and queue the first burst behind it, which no 50 browsers do.)
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        agents.push(agent);
        while (performance.now() < until) {
          const started = performance.now();
          let outcome: string;
          try {
            const status = await post(
              server.url + fillPath(PAYMENT_ENDPOINTS.verify.school_admin.path, { reference }),
              headers,
              agent,
            );
            outcome = status === 200 ? 'ok' : String(status);
          } catch (error) {
            outcome = (error as Error).name;
          }
          if (outcome === 'ok') timings.push(performance.now() - started);
          else errors.set(outcome, (errors.get(outcome) ?? 0) + 1);
        }
      }),
    );
    agents.forEach((agent) => agent.destroy());
    const failed = [...errors.values()].reduce((sum, n) => sum + n, 0);
    // No anchor: verifies a second and the p95 are absolute (the load is stored beside them); any error
    // is a regression from none.
    const key = `verify.${databaseKey(label)}.c${CLIENTS}`;
    recordFigure(`${key}.per_s`, Number((timings.length / SECONDS).toFixed(1)), 'verifies/s', 'higher');
    recordFigure(`${key}.p95_ms`, Number(percentile(timings, 95).toFixed(1)), 'ms', 'lower');
    recordFigure(`${key}.errors`, failed, 'errors', 'lower');
    const said = failed ? ` (${[...errors].map(([status, n]) => `${n} × ${status}`).join(', ')})` : '';
    return `| ${label} | ${CLIENTS} | ${SECONDS} s | ${timings.length} (${(timings.length / SECONDS).toFixed(1)}/s) | **${failed}**${said} | ${ms(percentile(timings, 50))} / **${ms(percentile(timings, 95))}** / ${ms(percentile(timings, 99))} |`;
  } finally {
    await server.stop();
  }
}

export async function benchVerify({ port }: { port: number }) {
  const lines = await onEachDatabase('verify', (label, env, dataDir) => run(label, env, dataDir, port));
  console.log(`\nVerify under load: ${CLIENTS} clients, each verifying its own pending payment (ms):`);
  console.log('| database | clients | for | verifies answered | errors | p50 / p95 / p99 |');
  console.log('| --- | --: | --: | --: | --: | --: |');
  for (const line of lines) console.log(line);
}
