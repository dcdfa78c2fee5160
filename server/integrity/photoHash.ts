/**
 * What the duplicate finder knows of a photo (docs/decisions.md "Integrity reports"): its greyscale at
 * 16×16 (turned as its EXIF says, transparency on white, stretched to the square whatever its size), less
 * its mean and scaled to unit length, so that re-encoding, resizing, brightness and contrast change it
 * little; kept as 256 signed bytes (`thumb`). Two photos' likeness is the correlation of their thumbs
 * (1: the same picture). The `hash` is a similarity hash of it (SimHash: one bit a fixed random
 * hyperplane, the side the thumb lies on), so close thumbs have close hashes: the finder compares only
 * pairs whose hashes share one of HASH_BANDS bands exactly (pigeonhole: any pair within HASH_DISTANCE bits
 * does), then decides each by its thumbs. A dHash or pHash of the grid was measured first: the flat
 * areas of a passport photo (the ground, clothes) flip their bits under JPEG re-encoding (up to 11 of 64
 * bits for a re-encoded photo) while look-alike portraits came as close as 0.
 */

export const THUMB_SIDE = 16;
const THUMB_SIZE = THUMB_SIDE * THUMB_SIDE;
const HASH_BITS = 64;

/** Photos this alike (correlation of their thumbs) are one photo: see the measurements in docs/performance.md. */
export const SAME_PHOTO_LIKENESS = 0.98;
/** The most bits two hashes of one photo differ by that the finder still looks at (re-encoded: up to 6 measured). */
export const HASH_DISTANCE = 8;
/** Bands of the hash: HASH_DISTANCE + 1 of them, so two hashes within the distance share at least one. */
export const HASH_BANDS = HASH_DISTANCE + 1;

export interface PhotoPrint {
  /** Signed 64-bit, as PostgreSQL's bigint holds it. */
  hash: bigint;
  thumb: Uint8Array;
}

/** The fixed hyperplanes: a seeded generator, so every process and every version makes the same hashes. */
const PLANES: Float64Array[] = (() => {
  let state = 0x2f6b_1d3a;
  const next = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const gauss = () => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
  return Array.from({ length: HASH_BITS }, () => Float64Array.from({ length: THUMB_SIZE }, gauss));
})();

/** The thumb as numbers again (unit length, up to the bytes' rounding). */
function thumbValues(thumb: Uint8Array): Int8Array {
  return new Int8Array(thumb.buffer, thumb.byteOffset, thumb.byteLength);
}

/** The hash of a thumb (exported for the bench, which seeds thumbs without photos). */
export function hashOfThumb(thumb: Uint8Array): bigint {
  const values = thumbValues(thumb);
  let hash = 0n;
  for (const plane of PLANES) {
    let side = 0;
    for (let i = 0; i < THUMB_SIZE; i++) side += plane[i] * values[i];
    hash = (hash << 1n) | (side > 0 ? 1n : 0n);
  }
  return BigInt.asIntN(64, hash);
}

/** The thumb of 256 grey levels (0-255): centred, scaled to unit length, as signed bytes. */
export function thumbOfGreys(greys: ArrayLike<number>): Uint8Array {
  let mean = 0;
  for (let i = 0; i < THUMB_SIZE; i++) mean += greys[i];
  mean /= THUMB_SIZE;
  let norm = 0;
  for (let i = 0; i < THUMB_SIZE; i++) norm += (greys[i] - mean) ** 2;
  norm = Math.sqrt(norm) || 1;
  // A unit vector of 256 values has few above 0.5: scaled by 127 / 0.5, clamped (rounding, not the shape).
  const out = new Int8Array(THUMB_SIZE);
  for (let i = 0; i < THUMB_SIZE; i++) {
    out[i] = Math.max(-127, Math.min(127, Math.round(((greys[i] - mean) / norm) * 254)));
  }
  return new Uint8Array(out.buffer);
}

/** A photo's print for the finder; throws when sharp cannot read the photo. */
export async function photoPrintOf(bytes: Uint8Array): Promise<PhotoPrint> {
  // Loaded at first use, not at start: sharp takes 0.1-0.2 s to load (docs/performance.md "Start").
  const { default: sharp } = await import('sharp');
  const greys = await sharp(bytes, { failOn: 'error' })
    .rotate()
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize(THUMB_SIDE, THUMB_SIDE, { fit: 'fill' })
    .raw()
    .toBuffer();
  const thumb = thumbOfGreys(greys);
  return { hash: hashOfThumb(thumb), thumb };
}

/** Two thumbs' likeness: their correlation, 1 for the same picture, about 0 for unrelated ones. */
export function likeness(a: Uint8Array, b: Uint8Array): number {
  const x = thumbValues(a);
  const y = thumbValues(b);
  let dot = 0;
  let xx = 0;
  let yy = 0;
  for (let i = 0; i < THUMB_SIZE; i++) {
    dot += x[i] * y[i];
    xx += x[i] * x[i];
    yy += y[i] * y[i];
  }
  return xx && yy ? dot / Math.sqrt(xx * yy) : 0;
}

/**
 * Band `band` of a hash held as two signed 32-bit halves (`hi`: bits 32-63, `lo`: bits 0-31): HASH_BANDS
 * runs of the 64 bits, the first 64 % HASH_BANDS of them a bit wider, as small numbers to bucket by.
 */
export function bandOf(hi: number, lo: number, band: number): number {
  const narrow = Math.floor(HASH_BITS / HASH_BANDS);
  const wide = HASH_BITS % HASH_BANDS;
  const start = band * narrow + Math.min(band, wide);
  const width = narrow + (band < wide ? 1 : 0);
  const take = (from: number, count: number) =>
    from >= 32 ? (hi >>> (from - 32)) & ((1 << count) - 1) : (lo >>> from) & ((1 << count) - 1);
  if (start + width <= 32 || start >= 32) return take(start, width);
  const low = 32 - start;
  return take(start, low) | (take(32, width - low) << low);
}
