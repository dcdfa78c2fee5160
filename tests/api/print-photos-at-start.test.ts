import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { CANDIDATE_FILE_KIND, PRINT_PHOTO_FIELD } from '../../server/candidates/uploads';
import type { Database } from '../../server/db/client';
import { files, users } from '../../server/db/schema';
import { startPortal } from '../../server/portal';
import { newKey } from '../../server/storage/storage';
import { until } from './fixtures';
import { createPostgresDatabase } from './portal';

/**
 * The start queues the 'print-photos' job only when some candidate's photo lacks its print photo
 * (server/portal.ts, `someoneLacksPrintPhoto`): a portal whose photos all have theirs starts without a
 * job; one started again on the same data after a photo lost its print photo queues one, which makes it.
 * On PGlite on disk, started, stopped and started again as `npm start` would (PostgreSQL with DATABASE_URL).
 */

let dataDir: string;
let postgres: { url: string; drop(): Promise<void> } | null = null;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-print-photos-'));
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) postgres = await createPostgresDatabase(serverUrl);
});
afterAll(async () => {
  await postgres?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// Once the start's own jobs are queued (after the portal listens: server/portal.ts).
const start = async () => {
  const portal = await startPortal(
    loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      QUIET: '1',
      SEED_DEMO: '1',
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    }),
    { demo: 'sign-ins', jobs: { pollingIntervalSeconds: 0.5, schedule: false } },
  );
  await portal.started;
  return portal;
};

const printPhotoJobs = async (db: Database) =>
  (
    (await db.execute(
      sql`select count(*)::int as n from pgboss.job where name = 'print-photos'`,
    )) as unknown as { rows: { n: number }[] }
  ).rows[0].n;

describe('the print-photos job at a start', () => {
  let candidateId: number;

  it('is not queued when every photo has its print photo (here: no photos at all)', async () => {
    const portal = await start();
    try {
      expect(await printPhotoJobs(portal.database.db)).toBe(0);

      // A candidate with a photo stored as an upload made before print photos were: no print photo.
      const db = portal.database.db;
      const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
      const { rows } = (await db.execute(sql`
        insert into candidates (candidate_index, training_school_id, course_header_id, year, first_name, last_name,
          date_of_birth, candidate_category, marital_status, gender, nationality, created_by)
        values ('WHB/26/A1/990001', (select id from training_schools order by id limit 1),
          (select id from course_headers where code = 'A1'), 2026, 'Ada', 'Obi',
          '2001-01-01', 'fresh', 'S', 'female', 'NG', ${admin.id})
        returning id`)) as unknown as { rows: { id: number }[] };
      candidateId = rows[0].id;
      const photo = await sharp({
        create: { width: 600, height: 800, channels: 3, background: { r: 90, g: 120, b: 160 } },
      })
        .jpeg()
        .toBuffer();
      const key = newKey('candidates', 'jpg');
      await portal.storage.put(key, new Uint8Array(photo), 'image/jpeg');
      await db.insert(files).values({
        key,
        kind: CANDIDATE_FILE_KIND,
        ownerId: admin.id,
        contentType: 'image/jpeg',
        size: photo.byteLength,
        candidateId,
        field: 'photo',
      });
    } finally {
      await portal.close();
    }
  }, 120_000);

  it('is queued, once, when a photo lacks its print photo, and makes it', async () => {
    const portal = await start();
    try {
      const db = portal.database.db;
      expect(await printPhotoJobs(db)).toBe(1);
      const made = await until(
        () =>
          db
            .select({ key: files.key })
            .from(files)
            .where(and(eq(files.candidateId, candidateId), eq(files.field, PRINT_PHOTO_FIELD))),
        (found) => found.length === 1,
      );
      expect(made).toHaveLength(1);
    } finally {
      await portal.close();
    }
  }, 120_000);

  it('is not queued again at the next start, every photo having its print photo now', async () => {
    const portal = await start();
    try {
      // The one job of the start before, and no other.
      expect(await printPhotoJobs(portal.database.db)).toBe(1);
    } finally {
      await portal.close();
    }
  }, 120_000);
});
