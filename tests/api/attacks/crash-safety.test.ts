import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, users } from '../../../server/db/schema';
import { createLogger } from '../../../server/log';
import { SWEEP_GRACE_MINUTES, sweepStorage } from '../../../server/storage/sweep';
import { runUpkeep } from '../../../server/upkeep';
import { startTestPortal, type TestPortal } from '../portal';

/**
 * Issue 10: a write cut short by a crash leaves a `.partial` file, and a process killed between storing
 * a file and committing its row leaves a file nobody names. The upkeep's sweep (server/storage/sweep.ts)
 * removes both once they are older than the grace period, and nothing that a row names.
 */

let t: TestPortal;
let uploads: string;
const log = createLogger(false);

beforeAll(async () => {
  t = await startTestPortal();
  uploads = path.join(t.dataDir, 'uploads');
});
afterAll(async () => t?.close());

/**
 * Every file under the uploads folder, as paths from it. A file the writer renames between the listing
 * and its stat (a `.partial` made whole) is left out, not an error: the poll below lists while it writes.
 */
const listing = () =>
  (fs.readdirSync(uploads, { recursive: true }) as string[])
    .filter((name) => fs.statSync(path.join(uploads, name), { throwIfNoEntry: false })?.isFile() ?? false)
    .map((name) => name.split(path.sep).join('/'))
    .sort();

/**
 * Runs the writer and kills it (SIGKILL) while a write is under way: once two files are whole and a
 * third is half written. A kill that happens to land between two writes is tried again.
 */
async function killMidWrite(): Promise<string[]> {
  for (let attempt = 1; attempt <= 5; attempt++) {
    const writer = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/storage-writer.ts', uploads]);
    const stored: string[] = [];
    writer.stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n'))
        if (line.startsWith('stored ')) stored.push(line.slice(7));
    });
    const exited = new Promise((resolve) => writer.once('exit', resolve));
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        const writing = stored.length >= 2 && listing().some((name) => name.endsWith('.partial'));
        if (writing || writer.exitCode !== null) {
          writer.kill('SIGKILL');
          clearInterval(poll);
          resolve();
        }
      }, 2);
    });
    await exited;
    if (listing().some((name) => name.endsWith('.partial'))) return stored;
  }
  throw new Error('the writer was never caught mid-write');
}

/** Makes files look written this many minutes ago, as if the grace period had passed. */
function age(names: string[], minutes: number) {
  const then = new Date(Date.now() - minutes * 60_000);
  for (const name of names) fs.utimesSync(path.join(uploads, name), then, then);
}

describe('the storage sweep after a crash', () => {
  it('removes half-written files and files no row names, past the grace period, and keeps the rest', async () => {
    const stored = await killMidWrite();
    const [kept, ...orphans] = stored;
    // The first file's request committed its row before the crash; the others' never did.
    const [owner] = await t.portal.database.db.select({ id: users.id }).from(users).limit(1);
    await t.portal.database.db
      .insert(files)
      .values({ key: kept, kind: 'candidate_upload', ownerId: owner.id, contentType: 'image/png', size: 1 });
    const partials = listing().filter((name) => name.endsWith('.partial'));
    expect(partials.length).toBeGreaterThan(0);

    // Young files are left alone: their request may still be running.
    expect(await sweepStorage({ db: t.portal.database.db, storage: t.portal.storage, log })).toEqual({
      leftovers: 0,
      orphans: 0,
    });
    expect(listing()).toEqual(expect.arrayContaining([kept, ...orphans, ...partials]));

    age(listing(), SWEEP_GRACE_MINUTES + 1);
    await runUpkeep({ database: t.portal.database, storage: t.portal.storage, log });

    // What is left is the file with a row and its type, nothing else.
    expect(listing()).toEqual([kept, `${kept}.type`]);
    const rows = await t.portal.database.db
      .select({ key: files.key })
      .from(files)
      .where(inArray(files.key, stored));
    expect(rows).toEqual([{ key: kept }]);
    expect((await t.portal.storage.get(kept))?.bytes.byteLength).toBe(32 * 1024 * 1024);
  });

  it('finds nothing to do in a storage where every file has its row', async () => {
    expect(await sweepStorage({ db: t.portal.database.db, storage: t.portal.storage, log })).toEqual({
      leftovers: 0,
      orphans: 0,
    });
  });
});
