import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { verifyChain } from '../server/auditChain';
import { MIGRATIONS_DIR, openDatabase, type DatabaseHandle } from '../server/db/client';
import { ratio, recordFigure } from './benchRecord';

/**
 * What the audit log's hash chain costs (docs/performance.md, "The audit chain"), on PGlite (folders as
 * the portal opens them, durable) and on PostgreSQL (DATABASE_URL, default the local server):
 * 1. An audited write (a transaction that changes a row and adds its audit entry, as every audited change
 *    does) on two databases side by side, one migrated to just before the chain (0021), one with it
 *    (0022: the insert trigger, the head's row lock, the hash), at 1 and 10 clients, and at 10 clients
 *    with 5 ms of work after the entry and before the commit (a service that writes more after its
 *    entry holds the head's lock that much longer). Rounds alternate between the two databases, so a
 *    busy neighbour slows both alike; the first round warms up and is not counted.
 * 2. `verifyChain` over 100,000 entries (BENCH_CHAIN_ENTRIES), the walk `npm run audit:verify` does.
 * BENCH_SHORT=1 runs fewer rounds; BENCH_CHAIN_WRITES sizes a round; BENCH_DRIVERS=pglite,postgres.
 */
const SHORT = process.env.BENCH_SHORT === '1';
const WRITES = Number(process.env.BENCH_CHAIN_WRITES ?? (SHORT ? 100 : 300));
const ROUNDS = SHORT ? 2 : 5;
const ENTRIES = Number(process.env.BENCH_CHAIN_ENTRIES ?? 100_000);
const DRIVERS = (process.env.BENCH_DRIVERS ?? 'pglite,postgres').split(',');
const SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BEFORE_CHAIN = 22; // 0000 to 0021

type Mode = 'before the chain' | 'with the chain';
const MODES: Mode[] = ['before the chain', 'with the chain'];
const LOADS = [
  { clients: 1, workMs: 0 },
  { clients: 10, workMs: 0 },
  { clients: 10, workMs: 5 },
];

function migrationsUpTo(count: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-migrations-'));
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'));
  journal.entries = journal.entries.slice(0, count);
  fs.mkdirSync(path.join(dir, 'meta'));
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const entry of journal.entries) {
    fs.copyFileSync(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  }
  return dir;
}

/** The same insert on both (the pre-chain table has no seq, prev_hash or hash for Drizzle to name). */
async function write(database: DatabaseHandle, n: number, workMs: number) {
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`update bench_rows set value = ${n}, changed_at = now() where id = ${n % 50}`);
    await tx.execute(sql`
      insert into audit_log (action, entity, entity_id, before, after, ip, request_id)
      values ('bench.write', 'bench_rows', ${String(n % 50)}, ${JSON.stringify({ value: n - 1 })}::jsonb,
        ${JSON.stringify({ value: n })}::jsonb, '127.0.0.1', ${`bench-${n}`})`);
    if (workMs) await tx.execute(sql`select pg_sleep(${workMs / 1000})`);
  });
}

async function round(database: DatabaseHandle, clients: number, workMs: number, writes: number) {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < writes) {
        const n = next++;
        const started = performance.now();
        await write(database, n, workMs);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];

async function openBoth(driver: string, root: string, cleanups: (() => Promise<void>)[]) {
  const databases = {} as Record<Mode, DatabaseHandle>;
  const before = migrationsUpTo(BEFORE_CHAIN);
  cleanups.push(async () => fs.rmSync(before, { recursive: true, force: true }));
  for (const mode of MODES) {
    let database: DatabaseHandle;
    if (driver === 'postgres') {
      const name = `bench_chain_${mode === 'with the chain' ? 'on' : 'off'}_${process.pid}`;
      const admin = new pg.Client({ connectionString: SERVER });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(SERVER);
      url.pathname = `/${name}`;
      database = await openDatabase({ driver: 'postgres', url: url.toString(), poolSize: 12 });
      cleanups.push(async () => {
        const client = new pg.Client({ connectionString: SERVER });
        await client.connect();
        await client.query(`drop database if exists ${name} with (force)`);
        await client.end();
      });
    } else {
      database = await openDatabase({
        driver: 'pglite',
        dataDir: path.join(root, mode.replaceAll(' ', '-')),
      });
    }
    cleanups.unshift(() => database.close());
    const folder = mode === 'with the chain' ? MIGRATIONS_DIR : before;
    if (driver === 'postgres') await migratePg(database.db as never, { migrationsFolder: folder });
    else await migratePglite(database.db as never, { migrationsFolder: folder });
    await database.db.execute(
      sql`create table bench_rows (id int primary key, value int not null, changed_at timestamptz not null)`,
    );
    await database.db.execute(sql`insert into bench_rows select g, 0, now() from generate_series(0, 49) g`);
    databases[mode] = database;
  }
  return databases;
}

async function benchDriver(driver: string) {
  const root = path.resolve(process.env.BENCH_DIR ?? '.bench-audit-chain');
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const databases = await openBoth(driver, root, cleanups);
    const samples: Record<string, { latencies: number[]; seconds: number }> = {};
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? MODES : [...MODES].reverse();
      for (const mode of order) {
        for (const { clients, workMs } of LOADS) {
          const started = performance.now();
          const latencies = await round(databases[mode], clients, workMs, WRITES);
          if (r === 0 && ROUNDS > 1) continue;
          const key = `${mode}|${clients}|${workMs}`;
          samples[key] ??= { latencies: [], seconds: 0 };
          samples[key].latencies.push(...latencies);
          samples[key].seconds += (performance.now() - started) / 1000;
        }
      }
    }
    console.log(
      `\nAn audited write on ${driver}, before and with the hash chain (${ROUNDS} interleaved rounds of ${WRITES} writes):`,
    );
    console.log(
      '| database | clients | work after the entry | median ms | p95 ms | writes/s |\n|---|---|---|---|---|---|',
    );
    for (const { clients, workMs } of LOADS) {
      const medians: number[] = [];
      for (const mode of MODES) {
        const { latencies, seconds } = samples[`${mode}|${clients}|${workMs}`];
        const sorted = [...latencies].sort((a, b) => a - b);
        medians.push(percentile(sorted, 0.5));
        console.log(
          `| ${mode} | ${clients} | ${workMs} ms | ${percentile(sorted, 0.5).toFixed(2)} | ${percentile(sorted, 0.95).toFixed(2)} | ${Math.round(latencies.length / seconds)} |`,
        );
      }
      // The database before the chain is the anchor, interleaved: what the chain costs a write.
      recordFigure(
        `chain.${driver}.c${clients}_work${workMs}ms.with_over_before_median`,
        ratio(medians[1], medians[0]),
        'ratio',
        'lower',
      );
    }

    // The check: the chained database filled to ENTRIES entries by the trigger itself, then walked.
    const chained = databases['with the chain'];
    const filled = performance.now();
    const [{ n }] = (
      (await chained.db.execute(sql`select count(*)::int as n from audit_log`)) as unknown as {
        rows: { n: number }[];
      }
    ).rows;
    for (let have = n; have < ENTRIES; have += 10_000) {
      await chained.db.execute(sql`
        insert into audit_log (action, entity, entity_id, after, ip, request_id)
        select 'bench.write', 'bench_rows', (g % 50)::text, jsonb_build_object('value', g, 'name', 'Name ' || g),
          '127.0.0.1', 'bench-' || g
        from generate_series(1, ${Math.min(10_000, ENTRIES - have)}) g`);
    }
    const fillSeconds = (performance.now() - filled) / 1000;
    const checks: number[] = [];
    let checked = 0;
    for (let run = 0; run < (SHORT ? 1 : 3); run++) {
      const result = await verifyChain(chained.db);
      if (!result.ok) throw new Error(result.message);
      checks.push(result.seconds);
      checked = result.checked;
    }
    checks.sort((a, b) => a - b);
    // No anchor for the walk: seconds per 100,000 entries, absolute (the load stored beside it).
    const perHundredThousand = (checks[Math.floor(checks.length / 2)] / checked) * 100_000;
    recordFigure(
      `chain.${driver}.n${ENTRIES}.verify_s_per_100000`,
      Number(perHundredThousand.toFixed(2)),
      's',
      'lower',
    );
    console.log(
      `\nverifyChain on ${driver}: ${checked} entries in ${checks[Math.floor(checks.length / 2)].toFixed(2)} s (median of ${checks.length}; ${checks.join(', ')} s), ${((checks[Math.floor(checks.length / 2)] / checked) * 100_000).toFixed(2)} s per 100,000; filling them through the trigger took ${fillSeconds.toFixed(1)} s. Peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB.`,
    );
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => {});
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export async function benchAuditChain() {
  console.log(
    `Load average at the start: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  for (const driver of DRIVERS) await benchDriver(driver);
  console.log(
    `Load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
}
