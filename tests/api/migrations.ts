import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { MIGRATIONS_DIR, openDatabase, type DatabaseHandle } from '../../server/db/client';
import { createPostgresDatabase } from './portal';

/**
 * A database for a migration's test: its own (a fresh PostgreSQL database when DATABASE_URL is set, else
 * an in-memory PGlite), migrated to just before the migration under test, filled as the portal wrote it
 * then, and migrated the rest of the way.
 */
export interface MigrationDatabase {
  handle: DatabaseHandle;
  /** Runs the journal's migrations before the one tagged `tag` (its file's name, '0006_diets'). */
  migrateBefore(tag: string): Promise<void>;
  /** Runs every migration not run yet. */
  migrateAll(): Promise<void>;
  rows<T>(query: ReturnType<typeof sql>): Promise<T[]>;
  close(): Promise<void>;
}

const journalOf = (dir: string) =>
  JSON.parse(fs.readFileSync(path.join(dir, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };

export async function openMigrationDatabase(): Promise<MigrationDatabase> {
  let drop: (() => Promise<void>) | null = null;
  let handle: DatabaseHandle;
  if (process.env.DATABASE_URL) {
    const created = await createPostgresDatabase(process.env.DATABASE_URL);
    drop = created.drop;
    handle = await openDatabase({ driver: 'postgres', url: created.url });
  } else {
    handle = await openDatabase({ driver: 'pglite-memory' });
  }
  const folders: string[] = [];
  const migrateWith = (folder: string) =>
    handle.driver === 'postgres'
      ? migratePg(handle.db as never, { migrationsFolder: folder })
      : migratePglite(handle.db as never, { migrationsFolder: folder });
  return {
    handle,
    async migrateBefore(tag) {
      // The migrations folder as it was then: the journal's entries before `tag`, and their files.
      const journal = journalOf(MIGRATIONS_DIR);
      const before = journal.entries.findIndex((entry) => entry.tag === tag);
      if (before < 1) throw new Error(`No migration tagged ${tag} after the first`);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
      folders.push(dir);
      journal.entries = journal.entries.slice(0, before);
      fs.mkdirSync(path.join(dir, 'meta'));
      fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
      for (const entry of journal.entries)
        fs.copyFileSync(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
      await migrateWith(dir);
    },
    migrateAll: () => migrateWith(MIGRATIONS_DIR),
    rows: async <T>(query: ReturnType<typeof sql>) =>
      ((await handle.db.execute(query)) as unknown as { rows: T[] }).rows,
    async close() {
      await handle.close();
      await drop?.();
      for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
