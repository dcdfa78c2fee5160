import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { DEFAULT_POOL_SIZE } from '../config';
import { syncFolder } from './durability';
import { acquireLock } from './lock';
import { schema } from './schema';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
type Driver = 'pglite' | 'postgres';

/** How long the first connection to PostgreSQL may take at start. */
const CONNECT_TIMEOUT_MS = 10_000;

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface DatabaseHandle {
  db: Database;
  driver: Driver;
  migrate(): Promise<void>;
  /** Whether every migration in the folder has been applied. */
  migrationState(): Promise<{ applied: number; expected: number; current: boolean }>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { driver: 'postgres'; url: string; poolSize?: number }
  | {
      driver: 'pglite';
      dataDir: string;
      /** false: PGlite's own fsync=off, only for the bench that measures what durability costs. */
      durable?: boolean;
    }
  /** A PGlite in memory, optionally loaded from a dump of an already-migrated one (tests). */
  | { driver: 'pglite-memory'; loadDataDir?: Blob };

/** The contrib extensions the migrations create (pg_trgm for the candidate search); PostgreSQL ships
 * them with its contrib package, PGlite needs them handed in at every open. */
export const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * PGlite starts PostgreSQL with initdb's shared_buffers = 128MB, and pays for all of it from the first
 * second: its shared memory is part of the WebAssembly heap, touched at start, and that heap never
 * shrinks. 32 MB holds the hot part of 100,000 candidates (the table and its search index) with the
 * same list and search latency as 128 MB; 16 MB is slower (docs/performance.md). A `startParams`
 * replaces PGlite's own start parameters, so they come first.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

/**
 * A commit of the embedded database on disk reaches the disk before it is acknowledged. PGlite starts
 * PostgreSQL with fsync off (`-F` in its defaults), and even with fsync on its file system's fsync is an
 * empty call (Emscripten's NODEFS answers fdatasync without calling the system). What does reach the
 * system is the open flag: with `wal_sync_method=open_datasync` PostgreSQL opens its WAL with O_DSYNC,
 * which NODEFS passes on as O_SYNC, so each commit's WAL write returns only once the disk has it (and
 * PostgreSQL asks for the flag only when fsync is on). Data files are still not synced at a checkpoint,
 * except after the ones we cause (server/db/durability.ts). The cost (a commit takes about 3 ms more,
 * and half as many commits fit in a second) and what a power cut can still take: docs/performance.md
 * and README, Durability. Not for a database in memory, which has no disk.
 */
export const PGLITE_DURABLE_PARAMS = ['-c', 'fsync=on', '-c', 'wal_sync_method=open_datasync'];

function journalEntries(): { when: number }[] {
  return JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')).entries;
}

function expectedMigrations(): number {
  return journalEntries().length;
}

/**
 * Whether the database already has the folder's newest migration, by Drizzle's own rule (a migration
 * runs when it is newer than the last one applied): one query. A restart then skips Drizzle's migrator,
 * which reads and hashes every migration file and sends five statements to learn the same thing.
 */
async function atLatestMigration(db: Database): Promise<boolean> {
  const newest = Math.max(...journalEntries().map((entry) => entry.when));
  try {
    const { rows } = (await db.execute(
      sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`,
    )) as unknown as { rows: { last: string | null }[] };
    return Number(rows[0]?.last ?? 0) >= newest;
  } catch {
    // No migrations table yet: a new database.
    return false;
  }
}

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle & { pglite?: PGlite }> {
  if (target.driver === 'postgres') {
    // One connection first, with a time limit: a server that cannot be reached stops the start within
    // seconds with its sentence (server/startErrors.ts), rather than after the system's TCP timeout.
    // (The pool itself has no such limit: it would also cut short a request waiting for a connection.)
    const probe = new pg.Client({
      connectionString: target.url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    probe.on('error', () => {});
    await probe.connect();
    await probe.end();
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? DEFAULT_POOL_SIZE });
    // An idle connection that breaks (the server restarted, or ended it) is dropped by the pool and the
    // next query opens another; without a listener its 'error' would end the process. The same for a
    // connection the pool has already let go of and is closing (at shutdown, say).
    const ignore = () => {};
    pool.on('error', ignore);
    pool.on('remove', (client) => client.on('error', ignore));
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    return withMigrations({
      db,
      driver: 'postgres',
      migrate: async () => {
        if (!(await atLatestMigration(db)))
          await migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR });
      },
      close: () => pool.end(),
    });
  }
  let release = () => {};
  /** After the checkpoint a close makes, its files are synced (server/db/durability.ts). */
  let sync = async () => {};
  let client: PGlite;
  if (target.driver === 'pglite') {
    release = acquireLock(target.dataDir);
    const dir = path.join(target.dataDir, 'pglite');
    sync = () => syncFolder(dir);
    fs.mkdirSync(target.dataDir, { recursive: true });
    try {
      client = await PGlite.create(dir, {
        extensions: PGLITE_EXTENSIONS,
        startParams: [...PGLITE_START_PARAMS, ...(target.durable === false ? [] : PGLITE_DURABLE_PARAMS)],
      });
    } catch (error) {
      release();
      throw error;
    }
  } else {
    client = await PGlite.create({
      extensions: PGLITE_EXTENSIONS,
      startParams: PGLITE_START_PARAMS,
      ...(target.loadDataDir ? { loadDataDir: target.loadDataDir } : {}),
    });
  }
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  const handle = await withMigrations({
    db,
    driver: 'pglite',
    migrate: async () => {
      if (!(await atLatestMigration(db)))
        await migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR });
    },
    close: async () => {
      try {
        await client.close();
        await sync();
      } finally {
        release();
      }
    },
  });
  return { ...handle, pglite: client };
}

async function withMigrations(handle: Omit<DatabaseHandle, 'migrationState'>): Promise<DatabaseHandle> {
  return {
    ...handle,
    async migrationState() {
      const expected = expectedMigrations();
      let applied = 0;
      try {
        const { rows } = (await handle.db.execute(
          sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
        )) as unknown as { rows: { count: number }[] };
        applied = Number(rows[0]?.count ?? 0);
      } catch {
        applied = 0;
      }
      return { applied, expected, current: applied === expected };
    },
  };
}
