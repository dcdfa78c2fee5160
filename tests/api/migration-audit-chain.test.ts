import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit, systemActor } from '../../server/audit';
import { GENESIS, verifyChain } from '../../server/auditChain';
import type { DatabaseHandle } from '../../server/db/client';
import { openMigrationDatabase, type MigrationDatabase } from './migrations';

/**
 * The migration to a chained audit log (0022) on a database that already holds entries: it chains them
 * in the order of their ids, so a portal upgraded from before verifies, and what it writes next follows.
 */

let database: MigrationDatabase;
let handle: DatabaseHandle;
const rows = <T>(query: Parameters<MigrationDatabase['rows']>[0]) => database.rows<T>(query);

beforeAll(async () => {
  database = await openMigrationDatabase();
  handle = database.handle;
  await database.migrateBefore('0022_audit_chain');
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
  await database.migrateAll();
});

afterAll(async () => {
  await database?.close();
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
