import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit, systemActor } from '../../server/audit';
import { GENESIS, verifyChain } from '../../server/auditChain';
import { MIGRATIONS_DIR, openDatabase, type DatabaseHandle } from '../../server/db/client';
import { createPostgresDatabase } from './portal';

/**
 * The migration to a chained audit log (0022) on a database that already holds entries: it chains them
 * in the order of their ids, so a portal upgraded from before verifies, and what it writes next follows.
 */

const BEFORE_CHAIN = 22; // 0000 to 0021

let handle: DatabaseHandle;
let dropPostgres: (() => Promise<void>) | null = null;
const folders: string[] = [];

function migrationsUpTo(count: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
  folders.push(dir);
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'));
  journal.entries = journal.entries.slice(0, count);
  fs.mkdirSync(path.join(dir, 'meta'));
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const entry of journal.entries) {
    fs.copyFileSync(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  }
  return dir;
}

const migrateWith = (folder: string) =>
  handle.driver === 'postgres'
    ? migratePg(handle.db as never, { migrationsFolder: folder })
    : migratePglite(handle.db as never, { migrationsFolder: folder });

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await handle.db.execute(query)) as unknown as { rows: T[] }).rows;

beforeAll(async () => {
  if (process.env.DATABASE_URL) {
    const created = await createPostgresDatabase(process.env.DATABASE_URL);
    dropPostgres = created.drop;
    handle = await openDatabase({ driver: 'postgres', url: created.url });
  } else {
    handle = await openDatabase({ driver: 'pglite-memory' });
  }
  await migrateWith(migrationsUpTo(BEFORE_CHAIN));
  // Entries as the portal wrote them before: times to the microsecond, not in the order of their ids,
  // text and JSON of every kind.
  for (let i = 0; i < 250; i++) {
    await handle.db.execute(sql`
      insert into audit_log (at, action, entity, entity_id, before, after, ip, request_id)
      values (
        timestamptz '2026-01-01 00:00:00.123456+00' + ${`${(i * 7919) % 250} seconds`}::interval,
        'user.profile_updated', 'user', ${`é "${i}"\n`},
        ${i % 3 ? null : JSON.stringify({ n: i / 7, list: [i, null, 'ü'] })}::jsonb,
        ${JSON.stringify({ name: `Name ${i}`, nested: { b: true, a: 1e21 } })}::jsonb,
        '203.0.113.1', ${`req-${i}`})`);
  }
  await migrateWith(MIGRATIONS_DIR);
});

afterAll(async () => {
  await handle?.close();
  await dropPostgres?.();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

describe('migration 0022 on a log that already has entries', () => {
  it('chains them in the order of their ids, and the head is at the last', async () => {
    const chained = await rows<{ id: string; seq: string; prev_hash: string }>(
      sql`select id::text, seq::text, prev_hash from audit_log order by audit_log.id`,
    );
    expect(chained).toHaveLength(250);
    expect(chained.map((row) => Number(row.seq))).toEqual(chained.map((_, i) => i + 1));
    expect(chained[0].prev_hash).toBe(GENESIS);
    const result = await verifyChain(handle.db);
    expect(result).toMatchObject({
      ok: true,
      checked: 250,
      head: { entries: 250, id: Number(chained[249].id) },
    });
  });

  it('goes on with the next entry, written by the portal', async () => {
    await audit(handle.db, systemActor('req-next'), { action: 'auth.signed_in', entityId: 1 });
    const result = await verifyChain(handle.db);
    expect(result).toMatchObject({ ok: true, checked: 251, head: { entries: 251 } });
  });
});
