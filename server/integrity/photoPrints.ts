import { sql } from 'drizzle-orm';
import type { WithStorage } from '../storage/storage';
import { checkPending } from './finder';
import { photoPrintOf } from './photoHash';

type Rows<T> = { rows: T[] };

/** Photos read a round. */
const BATCH = 50;

/** Whether any candidate's photo lacks its print for the finder (what a start asks before queuing the job). */
export async function someoneLacksPhotoPrint(db: WithStorage['db']): Promise<boolean> {
  const { rows } = (await db.execute(sql`
    select 1 from files
    where field = 'photo' and (select 1 from photo_hashes h where h.file_id = files.id) is null
    limit 1`)) as unknown as Rows<unknown>;
  return rows.length > 0;
}

/**
 * The finder's prints of photos stored without one (uploaded before the finder, or by a seed): run by the
 * 'photo-hashes' job, soon after a start that finds one and nightly. Each print is recorded with an insert
 * that is its own check (the file's primary key; `on conflict do nothing`), only while the file is still
 * there, and its candidate queued for a check; then the checks run. A photo that cannot be read is
 * recorded without a print, so no run reads it again. Safe twice, at once, and after a crash.
 */
export async function makeMissingPhotoPrints({ db, storage, log }: WithStorage) {
  let made = 0;
  let after = 0;
  for (;;) {
    const { rows } = (await db.execute(sql`
      select f.id, f.key, f.candidate_id from files f
      where f.field = 'photo' and f.id > ${after}
        and (select 1 from photo_hashes h where h.file_id = f.id) is null
      order by f.id limit ${BATCH}`)) as unknown as Rows<{ id: number; key: string; candidate_id: number }>;
    if (!rows.length) break;
    after = rows[rows.length - 1].id;
    for (const file of rows) {
      const stored = await storage.get(file.key);
      if (!stored) continue;
      const print = await photoPrintOf(stored.bytes).catch((error: unknown) => {
        log.error('photo_print.failed', { candidateId: file.candidate_id, error: String(error) });
        return null;
      });
      await db.transaction(async (tx) => {
        const { rows: recorded } = (await tx.execute(sql`
          insert into photo_hashes (file_id, candidate_id, hash, thumb)
          select id, candidate_id, ${print ? print.hash.toString() : null}::bigint, ${print ? Buffer.from(print.thumb) : null}::bytea
          from files where id = ${file.id}
          on conflict do nothing
          returning file_id`)) as unknown as Rows<unknown>;
        if (recorded.length) {
          made += 1;
          await tx.execute(
            sql`insert into integrity_pending (candidate_id) values (${file.candidate_id}) on conflict do nothing`,
          );
        }
      });
    }
  }
  if (made) log.info('photo_prints.made', { made });
  await checkPending(db);
  return { made };
}
