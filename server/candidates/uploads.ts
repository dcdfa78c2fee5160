import type { UploadField } from '../../contract/candidates';
import type { Database } from '../db/client';
import { files } from '../db/schema';
import type { Logger } from '../log';
import { newKey, type Storage } from '../storage/storage';
import type { Upload } from '../storage/uploads';
import { photoHashes } from '../db/schema';
import { photoPrintOf, type PhotoPrint } from '../integrity/photoHash';
import { printPhotoOf } from './printPhoto';

/** Candidate uploads live under this folder of the storage, each under a server-made random name. */
const CANDIDATE_FOLDER = 'candidates';
export const CANDIDATE_FILE_KIND = 'candidate_upload';
/**
 * The field of a candidate's small print photo: a JPEG made from the photo at upload (and by a job for
 * photos uploaded before), which photocards and photo albums print instead of the 2 MB original.
 */
export const PRINT_PHOTO_FIELD = 'photo_print';

/** What a candidate's `files` row may hold: an upload of the form, or the print photo made from its photo. */
type StoredField = UploadField | typeof PRINT_PHOTO_FIELD;

export interface PutUpload {
  field: StoredField;
  key: string;
  upload: Upload;
  /** The photo's print for the duplicate finder (server/integrity/photoHash.ts); null when unreadable. */
  print?: PhotoPrint | null;
}

/** Removes stored files, never failing: what cannot be removed is logged (an orphan file, not an error). */
export async function removeFiles(storage: Storage, log: Logger, keys: string[]): Promise<void> {
  await Promise.all(
    keys.map((key) =>
      storage
        .remove(key)
        .catch((error: unknown) => log.error('storage.remove_failed', { key, error: String(error) })),
    ),
  );
}

/**
 * The print photo of an uploaded photo, or null when it cannot be made (a photo sharp cannot read
 * although its magic bytes passed): logged, and the upload goes on without it; the print photos job
 * (server/candidates/printPhotos.ts) tries again, and a card prints 'No photo' meanwhile.
 */
async function printPhotoOrNull(log: Logger, photo: Upload): Promise<Upload | null> {
  try {
    return await printPhotoOf(photo.bytes);
  } catch (error) {
    log.error('print_photo.failed', { error: String(error) });
    return null;
  }
}

/**
 * Stores the checked uploads before the database changes (a transaction cannot span the storage); if
 * any one fails, the others are removed again and the error goes on, so nothing is left behind. A
 * photo brings its print photo (PRINT_PHOTO_FIELD), stored and recorded with it.
 */
export async function putUploads(
  storage: Storage,
  log: Logger,
  uploads: Partial<Record<UploadField, Upload>>,
): Promise<PutUpload[]> {
  const stored: Partial<Record<StoredField, Upload>> = { ...uploads };
  const small = uploads.photo ? await printPhotoOrNull(log, uploads.photo) : null;
  if (small) stored[PRINT_PHOTO_FIELD] = small;
  const print = uploads.photo ? await photoPrintOf(uploads.photo.bytes).catch(() => null) : undefined;
  const entries = (Object.entries(stored) as [StoredField, Upload][]).map(([field, upload]) => ({
    field,
    upload,
    key: newKey(CANDIDATE_FOLDER, upload.extension),
    ...(field === 'photo' ? { print } : {}),
  }));
  const results = await Promise.allSettled(
    entries.map((entry) => storage.put(entry.key, entry.upload.bytes, entry.upload.contentType)),
  );
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) {
    await removeFiles(
      storage,
      log,
      entries.map((entry) => entry.key),
    );
    throw failed.reason;
  }
  return entries;
}

/** The `files` rows of stored uploads of a candidate (the demo seed inserts many candidates' at once). */
export const uploadRows = (candidateId: number, ownerId: number, put: PutUpload[]) =>
  put.map(({ field, key, upload }) => ({
    key,
    kind: CANDIDATE_FILE_KIND,
    ownerId,
    candidateId,
    field,
    contentType: upload.contentType,
    size: upload.size,
  }));

/** Records stored uploads as the candidate's, in the caller's transaction. */
export async function recordUploads(tx: Database, candidateId: number, ownerId: number, put: PutUpload[]) {
  if (!put.length) return;
  const recorded = await tx
    .insert(files)
    .values(uploadRows(candidateId, ownerId, put))
    .returning({ id: files.id, key: files.key });
  await recordPhotoPrints(tx, recorded, put, () => candidateId);
}

/** The finder's prints of photos just recorded (`files` rows by key), in the caller's transaction. */
export async function recordPhotoPrints(
  tx: Database,
  recorded: { id: number; key: string }[],
  put: PutUpload[],
  candidateOf: (key: string) => number,
) {
  const idOf = new Map(recorded.map((row) => [row.key, row.id]));
  const rows = put
    .filter((entry) => entry.field === 'photo' && entry.print !== undefined && idOf.has(entry.key))
    .map((entry) => ({
      fileId: idOf.get(entry.key)!,
      candidateId: candidateOf(entry.key),
      hash: entry.print?.hash ?? null,
      thumb: entry.print?.thumb ?? null,
    }));
  for (let start = 0; start < rows.length; start += 1000) {
    await tx
      .insert(photoHashes)
      .values(rows.slice(start, start + 1000))
      .onConflictDoNothing();
  }
}
