import { and, eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CandidateRecord } from '../../contract/candidates';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';
import { fillPath } from '../../contract/endpoint';
import { issueToken } from '../../server/auth/tokens';
import { makeMissingPrintPhotos } from '../../server/candidates/printPhotos';
import { PRINT_PHOTO_FIELD } from '../../server/candidates/uploads';
import { files } from '../../server/db/schema';
import { candidateForm, storedUploads, uniqueFirstName, until, userIdOf, type FilePart } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Print photos (issue 25): the small JPEG photocards and albums print, made from a candidate's photo as
 * it is uploaded (in the same transaction as the photo, replaced with it), and by the 'print-photos'
 * job for photos stored before; a photo that cannot be made small never loses its upload.
 */

let t: TestPortal;
let admin: string;
let camera: Uint8Array;

beforeAll(async () => {
  t = await startTestPortal({}, { jobs: { pollingIntervalSeconds: 0.5, schedule: false } });
  admin = (await issueToken(t.portal.database.db, await userIdOf(t, 'admin@example.org'), 60)).token;
  // A camera's photo taken sideways: stored 960 wide and 720 high, with EXIF saying "turn it a quarter".
  const raw = Buffer.alloc(960 * 720 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919 + (i >> 9)) % 253;
  camera = new Uint8Array(
    await sharp(raw, { raw: { width: 960, height: 720, channels: 3 } })
      .withMetadata({ orientation: 6 })
      .jpeg({ quality: 80 })
      .toBuffer(),
  );
});
afterAll(() => t?.close());

const db = () => t.portal.database.db;

async function indexed(photo: FilePart): Promise<CandidateRecord> {
  const response = await t.request('POST', CANDIDATE_ENDPOINTS.create.path, {
    token: admin,
    form: candidateForm({ first_name: uniqueFirstName('Print') }, { photo }),
  });
  if (response.status !== 200) throw new Error(`index ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

const storedOf = (candidateId: number) => db().select().from(files).where(eq(files.candidateId, candidateId));

async function printPhotoOf(candidateId: number) {
  const [row] = await db()
    .select()
    .from(files)
    .where(and(eq(files.candidateId, candidateId), eq(files.field, PRINT_PHOTO_FIELD)));
  if (!row) return null;
  const stored = await t.portal.storage.get(row.key);
  return { row, bytes: stored!.bytes, meta: await sharp(stored!.bytes).metadata() };
}

describe('at upload', () => {
  it('a small JPEG is made from the photo, turned upright, far smaller than the original', async () => {
    expect(camera.byteLength).toBeGreaterThan(400_000);
    const record = await indexed({ bytes: camera, type: 'image/jpeg', name: 'photo.jpg' });
    const made = await printPhotoOf(record.id);
    expect(made).not.toBeNull();
    expect(made!.row).toMatchObject({ kind: 'candidate_upload', contentType: 'image/jpeg' });
    expect(made!.row.key).toMatch(/^candidates\/[A-Za-z0-9_-]{24}\.jpg$/);
    expect(made!.meta.format).toBe('jpeg');
    // Upright: 720×960 as shown, fitted into 240×300.
    expect([made!.meta.width, made!.meta.height]).toEqual([225, 300]);
    expect(made!.meta.orientation ?? 1).toBe(1);
    expect(made!.bytes.byteLength * 10).toBeLessThan(camera.byteLength);
    // Not one of the candidate's uploads as the record shows them.
    expect(Object.keys(record.uploads)).toEqual(['photo']);
  });

  it('a new photo replaces the print photo, and the old one leaves the storage', async () => {
    const record = await indexed({ bytes: camera, type: 'image/jpeg', name: 'photo.jpg' });
    const before = await printPhotoOf(record.id);
    const replacement = new Uint8Array(
      await sharp({ create: { width: 400, height: 500, channels: 3, background: '#336699' } }).png().toBuffer(),
    );
    const form = candidateForm(
      { _method: 'PUT' },
      { photo: { bytes: replacement } },
      Object.fromEntries(Object.entries(record.fields).filter(([, value]) => value !== null)) as Record<string, string>,
    );
    const response = await t.request('POST', fillPath(CANDIDATE_ENDPOINTS.update.path, { id: record.id }), {
      token: admin,
      form,
    });
    expect(response.status).toBe(200);
    const after = await printPhotoOf(record.id);
    expect(after!.row.key).not.toBe(before!.row.key);
    expect([after!.meta.width, after!.meta.height]).toEqual([240, 300]);
    expect(storedUploads(t)).not.toContain(before!.row.key.split('/')[1]);
    expect((await storedOf(record.id)).map((row) => row.field).sort()).toEqual(['photo', PRINT_PHOTO_FIELD]);
  });

  it('a photo that cannot be made small is still stored: the upload is never lost', async () => {
    // A PNG by its magic bytes (the upload check passes), but no picture behind them.
    const broken = new Uint8Array(4000);
    broken.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    const record = await indexed({ bytes: broken });
    expect(record.uploads.photo).toBeDefined();
    expect((await storedOf(record.id)).map((row) => row.field)).toEqual(['photo']);
  });
});

describe('the print-photos job', () => {
  it('makes the print photos of photos stored without one, once, even run twice at once', async () => {
    const records = [
      await indexed({ bytes: camera, type: 'image/jpeg', name: 'photo.jpg' }),
      await indexed({ bytes: camera, type: 'image/jpeg', name: 'photo.jpg' }),
    ];
    const ids = records.map((record) => record.id);
    // As if uploaded before print photos were made: their rows and files gone.
    const gone = await db()
      .delete(files)
      .where(and(inArray(files.candidateId, ids), eq(files.field, PRINT_PHOTO_FIELD)))
      .returning({ key: files.key });
    expect(gone).toHaveLength(2);
    for (const { key } of gone) await t.portal.storage.remove(key);
    const storedBefore = storedUploads(t).length;

    const deps = { db: db(), storage: t.portal.storage, log: { info: () => {}, error: () => {} } };
    const runs = await Promise.all([makeMissingPrintPhotos(deps), makeMissingPrintPhotos(deps)]);
    expect(runs.reduce((sum, run) => sum + run.made, 0)).toBeGreaterThanOrEqual(2);
    for (const id of ids) {
      const rows = (await storedOf(id)).filter((row) => row.field === PRINT_PHOTO_FIELD);
      expect(rows).toHaveLength(1);
      expect((await printPhotoOf(id))!.meta.height).toBe(300);
    }
    // The loser of a race removed its file: one stored file a print photo.
    expect(storedUploads(t).length).toBe(storedBefore + 2);
  });

  it('runs on the queue', async () => {
    const record = await indexed({ bytes: camera, type: 'image/jpeg', name: 'photo.jpg' });
    await db()
      .delete(files)
      .where(and(eq(files.candidateId, record.id), eq(files.field, PRINT_PHOTO_FIELD)));
    await t.portal.jobs.send('print-photos', {}, { singletonKey: 'print-photos' });
    const made = await until(
      () => printPhotoOf(record.id),
      (found) => found !== null,
    );
    expect(made?.meta.format).toBe('jpeg');
  });
});
