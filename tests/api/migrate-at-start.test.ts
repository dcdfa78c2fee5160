import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, openDatabase } from '../../server/db/client';

/**
 * A start skips Drizzle's migrator when the database has the folder's newest migration (one query,
 * server/db/client.ts); a database one migration behind is still migrated, and one made from nothing too.
 */

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** The migrations folder without its newest migration: what an earlier version of the portal shipped. */
function folderWithoutNewest(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-migrations-'));
  folders.push(folder);
  fs.cpSync(MIGRATIONS_DIR, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8'));
  journal.entries.pop();
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

describe('the migrations at a start', () => {
  it('are applied to a new database, then found current, and a database one behind is brought up', async () => {
    const fresh = await openDatabase({ driver: 'pglite-memory' });
    try {
      await fresh.migrate();
      const state = await fresh.migrationState();
      expect(state.current).toBe(true);
      await fresh.migrate();
      expect(await fresh.migrationState()).toEqual(state);
    } finally {
      await fresh.close();
    }

    const behind = await openDatabase({ driver: 'pglite-memory' });
    try {
      await migrate(behind.db as never, { migrationsFolder: folderWithoutNewest() });
      const before = await behind.migrationState();
      expect(before.applied).toBe(before.expected - 1);
      await behind.migrate();
      expect((await behind.migrationState()).current).toBe(true);
    } finally {
      await behind.close();
    }
  });
});
