import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../server/db/client';
import { auditLog } from '../server/db/schema';
import { ratio, recordFigure } from './benchRecord';

/**
 * What a durable commit costs the embedded database (docs/performance.md, Durability): the same audited
 * write (a transaction that changes a row and adds its audit entry, as every audited change does) on two
 * PGlite folders side by side, one with PGlite's own fsync=off, one as the portal opens it (WAL opened
 * with O_DSYNC, server/db/client.ts), at 1 and at 10 concurrent clients. The rounds alternate between the
 * two, so a busy neighbour on a shared machine slows both alike: compare them, do not quote the times.
 * The folders are made beside the project (BENCH_DIR to choose), not in a tmpfs, where a sync is free.
 * BENCH_SHORT=1 runs a few rounds only; BENCH_DURABILITY_WRITES sizes a round.
 */
const SHORT = process.env.BENCH_SHORT === '1';
const WRITES = Number(process.env.BENCH_DURABILITY_WRITES ?? (SHORT ? 100 : 400));
const ROUNDS = SHORT ? 2 : 6;
const CLIENTS = [1, 10];

type Mode = 'fsync off' | 'durable';

async function write(database: DatabaseHandle, n: number) {
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`update bench_rows set value = ${n}, changed_at = now() where id = ${n % 50}`);
    await tx.insert(auditLog).values({
      action: 'bench.write',
      entity: 'bench_rows',
      entityId: String(n % 50),
      after: { value: n },
    });
  });
}

/** Every write's latency, `clients` at a time, `writes` in all. */
async function round(database: DatabaseHandle, clients: number, writes: number): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < writes) {
        const n = next++;
        const started = performance.now();
        await write(database, n);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];

export async function benchDurability() {
  const root = path.resolve(process.env.BENCH_DIR ?? '.bench-durability');
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  const databases = {} as Record<Mode, DatabaseHandle>;
  try {
    for (const [mode, durable] of [
      ['fsync off', false],
      ['durable', true],
    ] as const) {
      const database = await openDatabase({
        driver: 'pglite',
        dataDir: path.join(root, mode.replace(' ', '-')),
        durable,
      });
      await database.migrate();
      await database.db.execute(
        sql`create table bench_rows (id int primary key, value int not null, changed_at timestamptz not null)`,
      );
      await database.db.execute(sql`insert into bench_rows select g, 0, now() from generate_series(0, 49) g`);
      databases[mode] = database;
    }
    const samples: Record<string, { latencies: number[]; seconds: number }> = {};
    for (let r = 0; r < ROUNDS; r++) {
      const order: Mode[] = r % 2 === 0 ? ['fsync off', 'durable'] : ['durable', 'fsync off'];
      for (const mode of order) {
        for (const clients of CLIENTS) {
          const started = performance.now();
          const latencies = await round(databases[mode], clients, WRITES);
          const key = `${mode}|${clients}`;
          samples[key] ??= { latencies: [], seconds: 0 };
          // The first round warms each database up and is not counted.
          if (r === 0 && ROUNDS > 1) continue;
          samples[key].latencies.push(...latencies);
          samples[key].seconds += (performance.now() - started) / 1000;
        }
      }
    }
    console.log(
      `\nDurability of the embedded database (${ROUNDS} interleaved rounds of ${WRITES} audited writes):`,
    );
    console.log('  mode        clients  median ms  p95 ms  writes/s');
    for (const clients of CLIENTS) {
      for (const mode of ['fsync off', 'durable'] as Mode[]) {
        const { latencies, seconds } = samples[`${mode}|${clients}`];
        const sorted = [...latencies].sort((a, b) => a - b);
        console.log(
          `  ${mode.padEnd(10)}  ${String(clients).padStart(7)}  ${percentile(sorted, 0.5).toFixed(2).padStart(9)}  ${percentile(sorted, 0.95).toFixed(2).padStart(6)}  ${Math.round(
            latencies.length / seconds,
          )
            .toString()
            .padStart(8)}`,
        );
      }
      // fsync off is the anchor, interleaved with the durable commit: what durability costs, as a ratio.
      const [off, durable] = (['fsync off', 'durable'] as Mode[]).map((mode) => {
        const sorted = [...samples[`${mode}|${clients}`].latencies].sort((a, b) => a - b);
        return [percentile(sorted, 0.5), percentile(sorted, 0.95)];
      });
      const key = `durability.c${clients}.durable_over_fsync_off`;
      recordFigure(`${key}_median`, ratio(durable[0], off[0]), 'ratio', 'lower');
      recordFigure(`${key}_p95`, ratio(durable[1], off[1]), 'ratio', 'lower');
    }
  } finally {
    for (const database of Object.values(databases)) await database.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
