/**
 * The floor under an endpoint (issue 28 item 4): a bare Hono route on @hono/node-server, in a process of
 * its own as the portal is, that runs a list's statements through a pg pool exactly as the bench's raw
 * side sends them (the window, then the estimate and the capped count when the page is full) and
 * answers the rows as JSON, gzipped in one call as the portal's answers are. No sign-in, no validation,
 * no Drizzle, no middleware: what is left is the HTTP hop itself. Started by scripts/bench-endpoint.ts
 * with BENCH_BARE=1: PORT, DATABASE_URL and BARE_CASES (a JSON array of each case's statements).
 *
 * Under it, `/floor/:case`: node:http alone (no Hono) answering the same case's answer, read and
 * gzipped once at start, so no statement runs. That is the HTTP hop with nothing else in it: a request
 * parsed, the same bytes written, received, inflated and parsed by the bench's client. An endpoint over
 * HTTP costs at least its SQL plus this, whatever the portal does.
 */
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import pg from 'pg';

interface Statement {
  text: string;
  values: unknown[];
}

const cases = JSON.parse(process.env.BARE_CASES ?? '[]') as {
  window: Statement;
  estimate: Statement;
  count: Statement;
  perPage: number;
  trusted: number;
}[];
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
const app = new Hono();

app.get('/health', (c) => c.text('ok'));
/** One case's answer, as the bare route writes it: its statements through the pool, the JSON text. */
async function answerOf(one: (typeof cases)[number]) {
  const { rows } = await pool.query(one.window.text, one.window.values);
  let total = rows.length;
  if (rows.length > one.perPage) {
    const plan = await pool.query(one.estimate.text, one.estimate.values);
    const json = Object.values(plan.rows[0])[0] as { Plan: { 'Plan Rows': number } }[];
    total = json[0].Plan['Plan Rows'];
    if (total <= one.trusted) total = (await pool.query(one.count.text, one.count.values)).rows[0].total;
  }
  return JSON.stringify({ success: true, data: { items: rows.slice(0, one.perPage), total } });
}

app.get('/bare/:case', async (c) => {
  const text = await answerOf(cases[Number(c.req.param('case'))]);
  if (!(c.req.header('accept-encoding') ?? '').includes('gzip'))
    return c.body(text, 200, { 'content-type': 'application/json' });
  return c.body(gzipSync(text), 200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
});

const floors = await Promise.all(cases.map(async (one) => gzipSync(await answerOf(one))));
const hono = getRequestListener(app.fetch);
const floor = /^\/floor\/(\d+)$/;

http
  .createServer((request, response) => {
    const asked = floor.exec(request.url ?? '');
    if (!asked) return void hono(request, response);
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    response.end(floors[Number(asked[1])]);
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  void pool.end().then(() => process.exit(0));
});
