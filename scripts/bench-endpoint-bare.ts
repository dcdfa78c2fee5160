/**
 * The floor under an endpoint (issue 28 item 4): a bare Hono route on @hono/node-server, in a process of
 * its own as the portal is, that runs a list's statements through a pg pool exactly as the bench's raw
 * side sends them (the window, then the estimate and the capped count when the page is full) and
 * answers the rows as JSON, gzipped in one call as the portal's answers are. No sign-in, no validation,
 * no Drizzle, no middleware: what is left is the HTTP hop itself. Started by scripts/bench-endpoint.ts
 * with BENCH_BARE=1: PORT, DATABASE_URL and BARE_CASES (a JSON array of each case's statements).
 */
import { gzipSync } from 'node:zlib';
import { serve } from '@hono/node-server';
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
app.get('/bare/:case', async (c) => {
  const one = cases[Number(c.req.param('case'))];
  const { rows } = await pool.query(one.window.text, one.window.values);
  let total = rows.length;
  if (rows.length > one.perPage) {
    const plan = await pool.query(one.estimate.text, one.estimate.values);
    const json = Object.values(plan.rows[0])[0] as { Plan: { 'Plan Rows': number } }[];
    total = json[0].Plan['Plan Rows'];
    if (total <= one.trusted) total = (await pool.query(one.count.text, one.count.values)).rows[0].total;
  }
  const text = JSON.stringify({ success: true, data: { items: rows.slice(0, one.perPage), total } });
  if (!(c.req.header('accept-encoding') ?? '').includes('gzip'))
    return c.body(text, 200, { 'content-type': 'application/json' });
  return c.body(gzipSync(text), 200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
});

serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
process.on('SIGTERM', () => {
  void pool.end().then(() => process.exit(0));
});
