import { and, asc, eq, gt, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client';
import { files } from '../db/schema';
import { newKey, type WithStorage } from '../storage/storage';
import { printPhotoOf } from './printPhoto';
import { CANDIDATE_FILE_KIND, PRINT_PHOTO_FIELD, removeFiles } from './uploads';

/** Photos read and made a round (a few MB in memory at most). */
const BATCH = 20;

/** A candidate's photo (a `files` row) without its print photo: the anti-join both queries below use. */
function withoutPrintPhoto(db: Database) {
  const print = alias(files, 'print');
  return and(
    eq(files.field, 'photo'),
    notExists(
      db
        .select({ one: sql`1` })
        .from(print)
        .where(and(eq(print.candidateId, files.candidateId), eq(print.field, PRINT_PHOTO_FIELD))),
    ),
  );
}

/**
 * Whether any candidate's photo lacks its print photo: what the start asks before it queues the job
 * (server/portal.ts), so that a start queues nothing once every photo has one (the usual case: they are
 * made at upload). One statement that stops at the first such photo. Written as a scalar subquery, not
 * NOT EXISTS, on purpose: that stays a per-photo probe of the unique index on candidate and field
 * whatever the planner's statistics, where the anti-join, planned without statistics (a fresh restore,
 * a first start), was a nested loop over every pair of files (15 ms on the demo's 320 photos, growing
 * with the square; 1.4 ms as a probe; docs/decisions.md).
 */
export async function someoneLacksPrintPhoto(db: Database): Promise<boolean> {
  const { rows } = (await db.execute(sql`
    select 1 from files
    where field = 'photo'
      and (select 1 from files print
           where print.candidate_id = files.candidate_id and print.field = ${PRINT_PHOTO_FIELD}) is null
    limit 1`)) as unknown as { rows: unknown[] };
  return rows.length > 0;
}

/**
 * The print photos of photos stored without one: uploaded before print photos were made at upload, or
 * whose print photo could not be made then. Run by the 'print-photos' job (soon after a start that finds
 * one, and nightly). Safe run twice, at once on two processes, and after a crash: a print photo is recorded by
 * an insert that is its own check (the unique index on candidate and field; `on conflict do nothing`)
 * and only while the photo it was made from is still the candidate's; the loser's stored file is
 * removed again (or, if the process dies first, by the storage sweep: it has no row). A photo that
 * cannot be read is logged and skipped, never failing the run: the rest still get theirs.
 */
export async function makeMissingPrintPhotos({
  db,
  storage,
  log,
}: WithStorage): Promise<{ made: number; failed: number }> {
  let after = 0;
  let made = 0;
  let failed = 0;
  for (;;) {
    const photos = await db
      .select({ candidateId: files.candidateId, key: files.key })
      .from(files)
      .where(and(withoutPrintPhoto(db), gt(files.candidateId, after)))
      .orderBy(asc(files.candidateId))
      .limit(BATCH);
    if (!photos.length) break;
    after = photos[photos.length - 1].candidateId!;
    for (const photo of photos) {
      try {
        const stored = await storage.get(photo.key);
        if (!stored) continue; // Replaced meanwhile: the new photo brought its own.
        const small = await printPhotoOf(stored.bytes);
        const key = newKey('candidates', small.extension);
        await storage.put(key, small.bytes, small.contentType);
        // Recorded only while the photo it was made from is still the candidate's (a photo replaced
        // meanwhile brought its own); a second maker's row loses to the first's on the unique index.
        const { rows: recorded } = (await db.execute(sql`
          insert into files (key, kind, owner_id, content_type, size, candidate_id, field)
          select ${key}, ${CANDIDATE_FILE_KIND}, owner_id, ${small.contentType}, ${small.size}, candidate_id, ${PRINT_PHOTO_FIELD}
          from files where key = ${photo.key} and field = 'photo'
          on conflict do nothing
          returning id`)) as unknown as { rows: { id: number }[] };
        if (recorded.length) made += 1;
        else await removeFiles(storage, log, [key]);
      } catch (error) {
        failed += 1;
        log.error('print_photo.failed', { candidateId: photo.candidateId, error: String(error) });
      }
    }
  }
  if (made || failed) log.info('print_photos.made', { made, failed });
  return { made, failed };
}
