import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * The api project's run: a name for it, in PORTAL_TEST_RUN, which the test files' workers inherit, so
 * that the first file needing the living demo seeds it once for the whole run and the others copy it
 * (startTestPortal in tests/api/portal.ts). At the end of the run the copies' source goes: its folder
 * and, on PostgreSQL, its template database. Without a run name (a portal started outside the api
 * project, as the ui project's), every living demo is seeded afresh.
 */
export const TEST_RUN_ENV = 'PORTAL_TEST_RUN';

/** Where one run's living demo is kept: a folder (its stored files, and on PGlite the database's dump),
 * and on PostgreSQL a database named after the run. */
export function livingTemplatePlace(run: string, postgres: boolean) {
  return {
    dir: path.join(os.tmpdir(), `portal-living-${run}-${postgres ? 'postgres' : 'pglite'}`),
    database: postgres ? `portal_living_${run}` : null,
  };
}

/** On PostgreSQL, one run's migrated, empty database, which every other file's is created from (its
 * lock and ready mark in a folder). */
export function migratedTemplatePlace(run: string) {
  return {
    dir: path.join(os.tmpdir(), `portal-migrated-${run}-postgres`),
    database: `portal_migrated_${run}`,
  };
}

export default function setup() {
  const run = `${Date.now().toString(36)}_${process.pid}`;
  process.env[TEST_RUN_ENV] = run;
  return async () => {
    const serverUrl = process.env.DATABASE_URL;
    const places = [
      livingTemplatePlace(run, Boolean(serverUrl)),
      ...(serverUrl ? [migratedTemplatePlace(run)] : []),
    ];
    for (const { dir } of places) {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(`${dir}.lock`, { recursive: true, force: true });
    }
    if (serverUrl) {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      for (const { database } of places) {
        if (database) await admin.query(`drop database if exists ${database} with (force)`);
      }
      await admin.end();
    }
  };
}
