import type { Upload } from '../storage/uploads';

/**
 * A candidate's print photo: the small JPEG photocards and photo albums print instead of the uploaded
 * original (up to 2 MB). 240×300 at most (a 4:5 passport photo at about 150 dpi on a 40×50 mm box),
 * the whole photo kept (never cropped: a face is never cut), turned as its EXIF orientation says (the
 * PDF has no EXIF), the metadata dropped (no camera, no place), quality 70: a few kilobytes to 20 KB.
 */
const PRINT_PHOTO_SIZE = { width: 240, height: 300, quality: 70 } as const;

async function makePrintPhoto(bytes: Uint8Array): Promise<Upload> {
  const { width, height, quality } = PRINT_PHOTO_SIZE;
  // Loaded at first use, not at start: sharp takes 0.1-0.2 s to load (docs/performance.md "Start").
  const { default: sharp } = await import('sharp');
  const jpeg = await sharp(bytes, { failOn: 'error' })
    .rotate()
    .resize(width, height, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality })
    .toBuffer();
  const made = new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  return { bytes: made, contentType: 'image/jpeg', extension: 'jpg', size: made.byteLength };
}

/**
 * The same photo's print photo made once however many candidates share its bytes (the demo's seed
 * gives its few generated portraits to hundreds of candidates); an upload's bytes are its own.
 */
const madeFor = new WeakMap<Uint8Array, Promise<Upload>>();

export function printPhotoOf(bytes: Uint8Array): Promise<Upload> {
  let made = madeFor.get(bytes);
  if (!made) {
    made = makePrintPhoto(bytes);
    madeFor.set(bytes, made);
  }
  return made;
}
