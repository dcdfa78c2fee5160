import { randomSecret } from '../secrets';
import type { Database } from '../db/client';
import type { Logger } from '../log';

/**
 * Where uploaded files live. Local disk under DATA_DIR/uploads for now; an S3-compatible driver can
 * take its place behind the same three calls, which is what lets API processes stay stateless.
 */
interface StoredFile {
  bytes: Uint8Array;
  contentType: string;
}

export interface Storage {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<StoredFile | null>;
  /**
   * Stores a file from this machine's disk without holding it in memory: a PDF a job built, hundreds of
   * megabytes at 20,000 photocards (server/documents/jobs.ts).
   */
  putFile(key: string, file: string, contentType: string): Promise<void>;
  /** A stored file's size and type, without its bytes; null when there is none. */
  stat(key: string): Promise<{ size: number; contentType: string } | null>;
  /**
   * Bytes `start` to `end` (inclusive, as in an HTTP Range) of a stored file, streamed: a download
   * served in pieces and resumed where it broke. Null when there is no such file.
   */
  stream(key: string, start: number, end: number): Promise<ReadableStream<Uint8Array> | null>;
  /** Removing what is not there is not an error. */
  remove(key: string): Promise<void>;
  /** Every stored key last written before this time: what the upkeep's sweep (sweep.ts) checks. */
  keysWrittenBefore(before: Date): AsyncIterable<string>;
  /** Removes what writes cut short before this time left behind, answering how many it removed. */
  removeLeftovers(before: Date): Promise<number>;
  /** Throws unless files can be stored now: cheap, for the readiness answer (server/readiness.ts). */
  check(): Promise<void>;
}

/**
 * A key such as `profile-photos/3q2-x_Yz.png`: lower-case folders, one name of URL-safe characters
 * and one extension. No dots elsewhere, so no `..`, and nothing absolute.
 */
const KEY_PATTERN = /^[a-z0-9-]+(?:\/[a-z0-9-]+)*\/[A-Za-z0-9_-]{16,64}\.[a-z0-9]{2,5}$/;

export function isValidKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export class InvalidKeyError extends Error {
  constructor(key: string) {
    super(`Not a storage key: ${JSON.stringify(key.slice(0, 200))}`);
    this.name = 'InvalidKeyError';
  }
}

/** Keys are made here, by the server, from a random name and an extension found by content: never
 * from anything the user sent. */
export function newKey(folder: string, extension: string): string {
  const key = `${folder}/${randomSecret(18)}.${extension}`;
  if (!isValidKey(key)) throw new InvalidKeyError(key);
  return key;
}

/**
 * What a change that stores files needs: the database itself, not a transaction (a transaction cannot
 * span the storage, so these services store the files first and open their own transaction after,
 * removing the files again if it fails), the storage, and the log for files that could not be removed.
 */
export interface WithStorage {
  db: Database;
  storage: Storage;
  log: Logger;
}
