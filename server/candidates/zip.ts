import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { BULK_LIMITS as L, BULK_MESSAGES as M } from '../../contract/bulkIndexing';
import { UPLOAD_FIELDS } from '../../contract/candidates';
import { UPLOAD_LIMIT_BYTES } from '../../contract/constants';
import { Invalid } from '../errors';

/**
 * A bulk indexing zip, read off the request thread (docs/decisions.md "Bulk indexing"): a worker thread
 * (./zipWorker.mjs) reads the archive with yauzl by its central directory, refuses it whole when it has
 * more than `entriesCap` entries or entries that overlap, and inflates as a stream only the entries the
 * rows ask for: an entry that says it is larger than UPLOAD_LIMIT_BYTES is never inflated (its row's
 * 'File is too large'); one that inflates to more than it said is stopped there (yauzl's check) and is
 * 'cannot be unpacked'; the bytes inflated are counted against the caps whatever the headers say, and
 * past `totalCap` the read stops and the zip is refused whole. The event loop meanwhile answers everyone.
 */

interface ZipEntry {
  /** Bytes inflated (for an entry too large: up to the cap, where inflating stopped). */
  size: number;
  tooLarge: boolean;
  /** Not inflatable (an unknown compression, corrupt data). */
  broken: boolean;
  /** The whole file, or its first `headBytes` (enough to sniff its type): null when too large or broken. */
  bytes: Uint8Array | null;
}

export interface ZipRead {
  names: Set<string>;
  entries: Map<string, ZipEntry>;
}

export interface ZipCaps {
  entryCap: number;
  totalCap: number;
  entriesCap: number;
}

/** What file-type reads of a file to tell its type (its `reader.sampleSize`). */
const HEAD_BYTES = 4100;

/**
 * The caps for a batch of `rows` rows: each entry at most the upload limit; all the entries read at most
 * one upload per upload field per row, and never more than BULK_LIMITS.unpackedBytes; at most one entry
 * per upload field per row of the largest batch.
 */
export const capsFor = (rows: number): ZipCaps => ({
  entryCap: UPLOAD_LIMIT_BYTES,
  totalCap: Math.min(rows * UPLOAD_FIELDS.length * UPLOAD_LIMIT_BYTES, L.unpackedBytes),
  entriesCap: L.zipEntries,
});

/**
 * The bytes in memory shared with the worker (a SharedArrayBuffer), copied in slices with a turn of
 * the event loop between them, so 400 MB never holds the thread for more than a few milliseconds.
 */
export async function sharedCopy(source: Blob | Uint8Array): Promise<Uint8Array> {
  const shared = new Uint8Array(
    new SharedArrayBuffer(source instanceof Blob ? source.size : source.byteLength),
  );
  let at = 0;
  if (source instanceof Blob) {
    const reader = source.stream().getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      shared.set(next.value, at);
      at += next.value.byteLength;
      await nextTurn();
    }
    return shared;
  }
  const SLICE = 8 * 1024 * 1024;
  for (; at < source.byteLength; at += SLICE) {
    shared.set(source.subarray(at, at + SLICE), at);
    await nextTurn();
  }
  return shared;
}

const workerUrl = new URL('./zipWorker.mjs', import.meta.url);

interface Answer {
  names: string[];
  entries: [string, ZipEntry][];
  stop: 'notZip' | 'tooManyEntries' | 'tooLargeTotal' | null;
}

/** One read in a worker of its own, ended when it answers (or fails: then the read is refused, not the portal). */
function inWorker(job: object): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl);
    let settled = false;
    const end = (finish: () => void) => {
      if (settled) return;
      settled = true;
      finish();
      void worker.terminate();
    };
    worker.once('message', (answer: Answer) => end(() => resolve(answer)));
    worker.once('error', (error) => end(() => reject(error)));
    worker.once('exit', (code) => end(() => reject(new Error(`The zip reader stopped (exit ${code}).`))));
    worker.postMessage(job);
  });
}

/**
 * Reads the entries asked for: by name (a row's upload column), or by stem (`<row>-<field>`, the name
 * without its extension, for an upload column left empty); no other entry is inflated. `zip` is best a SharedArrayBuffer's view (sharedCopy): anything else is copied to the
 * worker. `keep: 'head'` keeps each entry's first HEAD_BYTES (the dry run sniffs types; sizes are
 * counted in full), `'whole'` the whole file (the import stores it).
 */
export async function readZip(
  zip: Uint8Array,
  asked: { names: Iterable<string>; stems: Iterable<string> },
  keep: 'head' | 'whole',
  caps: ZipCaps,
): Promise<ZipRead> {
  const answer = await inWorker({
    zip,
    names: [...asked.names],
    stems: [...asked.stems],
    keep,
    headBytes: HEAD_BYTES,
    ...caps,
  });
  if (answer.stop === 'notZip') throw new Invalid({ files: [M.zipNotZip] });
  if (answer.stop === 'tooManyEntries') throw new Invalid({ files: [M.zipTooManyFiles] });
  if (answer.stop === 'tooLargeTotal') throw new Invalid({ files: [M.zipUnpacksTooLarge] });
  return { names: new Set(answer.names), entries: new Map(answer.entries) };
}
