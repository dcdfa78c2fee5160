import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import type { JobContext } from '../../server/jobs';
import { startJobs } from '../../server/jobs/queue';
import { createPostgresDatabase } from './portal';

/**
 * A start reads the queues and schedules pg-boss keeps and writes only what is missing or changed
 * (server/jobs/queue.ts): a restart on a database it left as it is writes none, and one whose queue or
 * schedule was changed puts today's back. On PGlite, or PostgreSQL with DATABASE_URL.
 */

let handle: DatabaseHandle & { pglite?: import('@electric-sql/pglite').PGlite };
let postgres: { url: string; drop(): Promise<void> } | null = null;

beforeAll(async () => {
  const serverUrl = process.env.DATABASE_URL;
  postgres = serverUrl ? await createPostgresDatabase(serverUrl) : null;
  handle = await openDatabase(
    postgres ? { driver: 'postgres', url: postgres.url } : { driver: 'pglite-memory' },
  );
  await handle.migrate();
});
afterAll(async () => {
  await handle?.close();
  await postgres?.drop();
});

const context = () =>
  ({
    database: handle,
    log: { info() {}, warn() {}, error() {} },
    clock: () => new Date(),
  }) as unknown as JobContext;

async function startAndStop() {
  const jobs = await startJobs(
    postgres ? { driver: 'postgres', url: postgres.url } : { driver: 'pglite', pglite: handle.pglite! },
    context(),
    { supervise: false },
  );
  await jobs.stop();
}

type Row = { name: string; settings: string; updated_on: string };
const rows = async (table: 'queue' | 'schedule') =>
  (
    (await handle.db.execute(
      table === 'queue'
        ? sql`select name, concat_ws(',', policy, retry_limit, expire_seconds) as settings, updated_on::text
              from pgboss.queue order by name`
        : sql`select name, concat_ws(',', cron, timezone) as settings, updated_on::text
              from pgboss.schedule order by name`,
    )) as unknown as { rows: Row[] }
  ).rows;

describe('the queues and schedules at a start', () => {
  it('are written only when missing or changed', async () => {
    await startAndStop();
    const queues = await rows('queue');
    const schedules = await rows('schedule');
    expect(queues.find((row) => row.name === 'upkeep')?.settings).toBe('standard,5,900');
    expect(schedules.find((row) => row.name === 'upkeep')?.settings).toBe('7 * * * *,Africa/Lagos');

    // A restart on the database as it was left writes nothing.
    await startAndStop();
    expect(await rows('queue')).toEqual(queues);
    expect(await rows('schedule')).toEqual(schedules);

    // One queue and one schedule changed (an earlier version's, say): the next start puts them back,
    // and writes no other.
    await handle.db.execute(sql`update pgboss.queue set retry_limit = 1 where name = 'upkeep'`);
    await handle.db.execute(sql`update pgboss.schedule set cron = '1 1 * * *' where name = 'upkeep'`);
    await startAndStop();
    const queuesAfter = await rows('queue');
    const schedulesAfter = await rows('schedule');
    expect(queuesAfter.map((row) => row.settings)).toEqual(queues.map((row) => row.settings));
    expect(schedulesAfter.map((row) => row.settings)).toEqual(schedules.map((row) => row.settings));
    const rewritten = (after: Row[], before: Row[]) =>
      after.filter((row, i) => row.updated_on !== before[i].updated_on).map((row) => row.name);
    expect(rewritten(queuesAfter, queues)).toEqual(['upkeep']);
    expect(rewritten(schedulesAfter, schedules)).toEqual(['upkeep']);
  });
});
