/**
 * Issue 28 item 4 for a write: a request over HTTP beside the very statements the portal sends for it,
 * interleaved. Two requests: a school admin's verify of its own payment left pending at the sandbox's
 * checkout (so every verify asks the provider and records the check), and marker one's save of a row
 * of an open exam sheet (a real change each time: the marks move). The statements are read off the
 * wire: a portal runs through scripts/sql-recorder.ts for one request (after one unrecorded, so the
 * caller is kept and the row already stored), then portals on PostgreSQL directly answer the timed
 * requests while the bench replays the recorded statements on one connection of its own (in the order
 * they were sent; a save's on a row of its own, so its replay never makes the HTTP side's row stale).
 * The job queue's own statements (pg-boss polling) are left out.
 *
 * BENCH_BASE_ROOT=<another checkout> adds that checkout's portal (the code before a change) on the same
 * database: its statements recorded and replayed too, its requests in the same loop, so each step is
 * measured beside the code before it. BENCH_FETCH=1 adds this portal asked with Node's fetch. Every
 * HTTP side is asked as a browser asks (scripts/benchClient.ts). On the living demo (`SEED_DEMO`),
 * PostgreSQL only: `npx tsx scripts/bench-recorded-sql.ts`; BENCH_REQUESTS (verify,save; also
 * `registered`: a school admin's Registered Candidates, page 1, a read with its fees), BENCH_SAMPLES
 * samples (300).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { fillPath } from '../contract/endpoint';
import type { PayableFees, UnpaidCandidate } from '../contract/payments';
import { PAYMENT_ENDPOINTS } from '../contract/payments.endpoints';
import type { GridPage, MarkRow, SheetRow } from '../contract/scores';
import { REGISTRATION_ENDPOINTS } from '../contract/registration.endpoints';
import { SCORE_ENDPOINTS } from '../contract/scores.endpoints';
import { SANDBOX_PREFIX } from '../server/payments/provider';
import { closeClient, viaFetch, viaHttp } from './benchClient';
import { createBenchDatabase, signIn, startServer } from './bench-candidates';
import { json } from './bench-payments';
import { startRecorder, type Statement } from './sql-recorder';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const WARM_UP = 30;
const SCHOOL = 'school1@example.org';
const MARKER = 'marker1@example.org';
const PORT = Number(process.env.BENCH_PORT ?? 3491);
const REQUESTS = (process.env.BENCH_REQUESTS ?? 'verify,save').split(',').map((r) => r.trim());

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))];
};

const shuffled = <T>(items: T[]) => {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
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

/** What the bench asks of one portal: the request, made on one of the rows it was given. */
type Ask = (url: string, token: string, client?: typeof viaHttp) => Promise<number>;

interface Kind {
  name: string;
  email: string;
  /** The request for one side: its own row (the `side`-th) where the request writes one. */
  prepare: (url: string, token: string, sides: number) => Promise<(side: number) => Ask>;
}

const asked = async (answer: ReturnType<typeof viaHttp>, what: string) => {
  const { status, json: body, elapsed } = await answer;
  if (status !== 200) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
  return { body: body as { data: unknown }, elapsed };
};

const VERIFY: Kind = {
  name: "a school admin's verify of a pending payment",
  email: SCHOOL,
  prepare: async (url, token) => {
    const reference = await pendingPayment(url, token);
    const path = fillPath(PAYMENT_ENDPOINTS.verify.school_admin.path, { reference });
    return () =>
      async (portal, caller, client = viaHttp) =>
        (
          await asked(
            client(portal + path, {
              method: 'POST',
              headers: { authorization: `Bearer ${caller}`, accept: 'application/json' },
            }),
            'verify',
          )
        ).elapsed;
  },
};

const SAVE: Kind = {
  name: "marker one's row save (an exam sheet's grid one)",
  email: MARKER,
  prepare: async (url, token, sides) => {
    const headers = { authorization: `Bearer ${token}` };
    const { sheets } = await json<{ sheets: SheetRow[] }>(
      await fetch(url + SCORE_ENDPOINTS.sheets.path, { headers }),
    );
    const sheet = sheets.find((s) => s.state === 'open' && s.kind === 'exam' && s.candidates > 0)!;
    const grid = await json<GridPage<MarkRow>>(
      await fetch(url + fillPath(SCORE_ENDPOINTS.grid.path, { id: sheet.id, grid: 'one' }), { headers }),
    );
    const versions = new Map(grid.rows.map((row) => [row.candidate_id, row.version]));
    if (grid.rows.length < sides) throw new Error(`the sheet has ${grid.rows.length} rows, ${sides} wanted`);
    let turn = 0;
    // Side k saves the grid's k-th row: every side (and every recording) has a row of its own.
    return (side) =>
      async (portal, caller, client = viaHttp) => {
        const candidate = grid.rows[side].candidate_id;
        turn += 1;
        const { body, elapsed } = await asked(
          client(portal + fillPath(SCORE_ENDPOINTS.markRow.path, { id: sheet.id, grid: 'one', candidate }), {
            method: 'POST',
            headers: {
              authorization: `Bearer ${caller}`,
              accept: 'application/json',
              'content-type': 'application/json',
            },
            body: JSON.stringify({
              q1: String(turn % 20),
              q2: '10',
              q3: '10.5',
              q4: '9',
              q5: '12',
              version: versions.get(candidate),
            }),
          }),
          'save',
        );
        versions.set(candidate, (body.data as MarkRow).version);
        return elapsed;
      };
  },
};

const REGISTERED: Kind = {
  name: "a school admin's Registered Candidates, page 1",
  email: SCHOOL,
  prepare: async () => {
    const path = `${REGISTRATION_ENDPOINTS.registered.school_admin.path}?page=1`;
    return () =>
      async (portal, caller, client = viaHttp) =>
        (
          await asked(
            client(portal + path, {
              headers: { authorization: `Bearer ${caller}`, accept: 'application/json' },
            }),
            'registered',
          )
        ).elapsed;
  },
};

const KINDS = Object.entries({ verify: VERIFY, save: SAVE, registered: REGISTERED })
  .filter(([key]) => REQUESTS.includes(key))
  .map(([, kind]) => kind);

interface Portal {
  name: string;
  dir?: string;
  port: number;
}

async function main() {
  const database = await createBenchDatabase('recordedsql');
  if (!database) return;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-recorded-sql-'));
  const url = new URL(database.url);
  const recorder = await startRecorder({ host: url.hostname, port: Number(url.port || 5432) });
  const proxied = new URL(database.url);
  proxied.port = String(recorder.port);
  const portals: Portal[] = [{ name: 'portal', port: PORT }];
  if (process.env.BENCH_BASE_ROOT)
    portals.push({ name: 'baseline portal', dir: path.resolve(process.env.BENCH_BASE_ROOT), port: PORT + 1 });
  const lines: string[] = [];
  try {
    // The demo, seeded once by the first start.
    const seeding = await startServer(
      { DATABASE_URL: database.url, DATA_DIR: dataDir, SEED_DEMO: '1' },
      PORT,
    );
    await seeding.stop();
    for (const kind of KINDS) {
      // The request's setup (a pending payment, a sheet's rows), made once, through a first portal.
      const setup = await startServer({ DATABASE_URL: database.url, DATA_DIR: dataDir }, PORT);
      let request: (side: number) => Ask;
      try {
        request = await kind.prepare(
          setup.url,
          await signIn(setup.url, dataDir, kind.email),
          2 * portals.length + 1,
        );
      } finally {
        await setup.stop();
      }
      // Rows: portal k's recording saves row k, its timed requests row P + k, fetch's row 2P.
      const recorded: Statement[][] = [];
      for (const [k, portal] of portals.entries()) {
        const recording = await startServer(
          { DATABASE_URL: proxied.toString(), DATA_DIR: dataDir },
          portal.port,
          180_000,
          portal.dir,
        );
        try {
          const token = await signIn(recording.url, dataDir, kind.email);
          const ask = request(k);
          await ask(recording.url, token);
          recorder.take();
          recorder.recording = true;
          await ask(recording.url, token);
          recorder.recording = false;
          recorded.push(recorder.take().filter((s) => !/pgboss/i.test(s.text)));
        } finally {
          await recording.stop();
        }
        console.log(`${portal.name}: ${kind.name} sends ${recorded[k].length} statements:`);
        for (const s of recorded[k]) console.log(`  ${s.text.replace(/\s+/g, ' ').slice(0, 160)}`);
      }
      const running: { url: string; stop: () => Promise<void>; token: string }[] = [];
      for (const portal of portals) {
        const server = await startServer(
          { DATABASE_URL: database.url, DATA_DIR: dataDir },
          portal.port,
          180_000,
          portal.dir,
        );
        running.push({ ...server, token: await signIn(server.url, dataDir, kind.email) });
      }
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const replay = (statements: Statement[]) => async () => {
          const started = performance.now();
          for (const s of statements) await client.query(s.text, s.values);
          return performance.now() - started;
        };
        const sides: { name: string; run: () => Promise<number> }[] = [];
        for (const [k, portal] of portals.entries()) {
          const ask = request(portals.length + k);
          sides.push({ name: `${portal.name} over HTTP`, run: () => ask(running[k].url, running[k].token) });
          sides.push({ name: `${portal.name}'s statements raw`, run: replay(recorded[k]) });
        }
        if (process.env.BENCH_FETCH) {
          const ask = request(2 * portals.length);
          sides.push({
            name: 'portal asked with fetch',
            run: () => ask(running[0].url, running[0].token, viaFetch),
          });
        }
        const times = sides.map(() => [] as number[]);
        for (let i = 0; i < WARM_UP + SAMPLES; i++) {
          for (const s of shuffled(sides.map((_, k) => k))) {
            const elapsed = await sides[s].run();
            if (i >= WARM_UP) times[s].push(elapsed);
          }
        }
        const ms = (v: number) => `${v.toFixed(2)} ms`;
        const load = os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' ');
        for (const [k, portal] of portals.entries()) {
          const [http, raw] = [times[2 * k], times[2 * k + 1]];
          lines.push(
            `| ${kind.name}: ${portal.name} (load ${load}) | ${recorded[k].length} | ${ms(percentile(http, 0.5))} / ${ms(percentile(http, 0.95))} | ${ms(percentile(raw, 0.5))} / ${ms(percentile(raw, 0.95))} | ${(percentile(raw, 0.5) / percentile(http, 0.5)).toFixed(2)}x |`,
          );
        }
        if (process.env.BENCH_FETCH) {
          const [fetched, raw] = [times[2 * portals.length], times[1]];
          lines.push(
            `| ${kind.name}: portal asked with fetch (load ${load}) | ${recorded[0].length} | ${ms(percentile(fetched, 0.5))} / ${ms(percentile(fetched, 0.95))} | (the portal's) | ${(percentile(raw, 0.5) / percentile(fetched, 0.5)).toFixed(2)}x |`,
          );
        }
      } finally {
        await client.end();
        for (const server of running) await server.stop();
      }
    }
    console.log(
      `\nA request beside the statements it sends (interleaved, ${SAMPLES} samples a side, PostgreSQL ${database.version}):`,
    );
    console.log('| request | statements | HTTP median / p95 | raw SQL (pg) median / p95 | raw / HTTP |');
    console.log('|---|--:|---:|---:|---:|');
    for (const line of lines) console.log(line);
  } finally {
    closeClient();
    await recorder.close();
    await database.drop().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
