import { and, eq, inArray, isNull } from 'drizzle-orm';
import { boardYear } from '../boardDate';
import { PRINT_PHOTO_FIELD, putUploads, recordUploads, removeFiles } from '../candidates/uploads';
import { candidates, examOffences, files } from '../db/schema';
import { recordPairsOf } from '../integrity/finder';
import type { DemoAccounts } from './accounts';
import type { DemoCandidate } from './candidates';
import type { DemoSeed } from './context';

/**
 * The integrity reports' demo (issue 27): one likely duplicate, a candidate of last year at one school
 * indexed again this year at another, the first and last names swapped and the photo re-encoded (a JPEG
 * of it at another size); and an offender under a sanction indexed again under another name, with their
 * photo likewise. Both are made from candidates the demo already has, this year's newest unchecked ones,
 * so every count elsewhere stays as it was. The finder records their pairs as its check would.
 */

/** A photo as a school's scanner might send it again: another size, JPEG. */
async function reEncoded(bytes: Uint8Array, width: number, quality: number): Promise<File> {
  // Loaded when the demo is seeded, not at every start.
  const { default: sharp } = await import('sharp');
  const jpeg = await sharp(bytes).resize(width).jpeg({ quality }).toBuffer();
  return new File([new Uint8Array(jpeg)], 'photo.jpg', { type: 'image/jpeg' });
}

async function photoOf(demo: DemoSeed, candidateId: number): Promise<Uint8Array> {
  const [file] = await demo.tx
    .select({ key: files.key })
    .from(files)
    .where(and(eq(files.candidateId, candidateId), eq(files.field, 'photo')));
  const stored = await demo.storage.get(file.key);
  if (!stored) throw new Error(`The demo's photo of candidate ${candidateId} is not stored.`);
  return stored.bytes;
}

/** Gives a candidate another photo, as an edit of the form would (the old files go). */
async function replacePhoto(demo: DemoSeed, ownerId: number, candidateId: number, photo: File) {
  const { checkUpload } = await import('../storage/uploads');
  const { uploadRule } = await import('../candidates/form');
  const upload = await checkUpload(photo, uploadRule('photo'));
  if (typeof upload === 'string') throw new Error(`The demo's re-encoded photo is refused: ${upload}`);
  const gone = await demo.tx
    .delete(files)
    .where(and(eq(files.candidateId, candidateId), inArray(files.field, ['photo', PRINT_PHOTO_FIELD])))
    .returning({ key: files.key });
  await removeFiles(
    demo.storage,
    demo.log,
    gone.map((file) => file.key),
  );
  const put = await putUploads(demo.storage, demo.log, { photo: upload });
  demo.storedKeys.push(...put.map((entry) => entry.key));
  await recordUploads(demo.tx, candidateId, ownerId, put);
}

export async function seedIntegrity(demo: DemoSeed, accounts: DemoAccounts, all: DemoCandidate[]) {
  const { tx, now } = demo;
  const thisYear = boardYear(now);
  const offenders = await tx
    .selectDistinct({ id: examOffences.candidateId })
    .from(examOffences)
    .where(isNull(examOffences.removedAt));
  const offenderIds = new Set(offenders.map((row) => row.id));
  // This year's recent ones, not yet checked nor registered: nothing else of the demo names them. Not
  // the very newest, whom the lists show first (their photos are the demo's PNGs, as its test expects).
  const fresh = all
    .filter((c) => c.year === thisYear && !c.verified && c.regStatus === 'unregistered')
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .slice(10);
  const earlier = all.filter((c) => c.year < thisYear && !offenderIds.has(c.id));
  const original = earlier[0];
  const again = fresh.find((c) => c.schoolCode !== original.schoolCode)!;
  const offender = all.find((c) => offenderIds.has(c.id))!;
  const renamed = fresh.find((c) => c !== again && c.schoolCode !== offender.schoolCode)!;

  const [first] = await tx.select().from(candidates).where(eq(candidates.id, original.id));
  await tx
    .update(candidates)
    .set({ first_name: first.last_name, last_name: first.first_name, date_of_birth: first.date_of_birth })
    .where(eq(candidates.id, again.id));
  await replacePhoto(
    demo,
    accounts.adminId,
    again.id,
    await reEncoded(await photoOf(demo, original.id), 240, 82),
  );
  await replacePhoto(
    demo,
    accounts.adminId,
    renamed.id,
    await reEncoded(await photoOf(demo, offender.id), 180, 80),
  );
  await recordPairsOf(tx, [again.id, renamed.id]);
  return { original: original.id, again: again.id, offender: offender.id, renamed: renamed.id };
}
