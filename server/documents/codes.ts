import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { serverSecrets } from '../db/schema';
import { randomSecret } from '../secrets';

/**
 * A printed document's verification code: which print (its id in document_prints), which row or card
 * of it (0: the document itself), and a tag that only the portal can make, the first 64 bits of an
 * HMAC-SHA256 of the two under a secret key. Written in Crockford's base32 (no I, L, O or U, so it
 * reads aloud and copies by hand) in groups of four: `K7QD-2M4X-…`. The numbers are LEB128 varints, so
 * the first prints' codes are the shortest (16 characters for a print below 128, row 0).
 *
 * The key is made once, at random, and kept in the database (server_secrets 'document_codes'): every
 * API process on that database signs and checks the same codes, a restart keeps them, and a restored
 * backup still verifies the papers printed before it. A code whose tag does not match is refused before
 * any print is read.
 */

const SECRET_NAME = 'document_codes';
const TAG_BYTES = 8;
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const VALUE_OF = new Map([...ALPHABET].map((char, value) => [char, value]));
/** Longer than any code the portal can issue (two 8-byte varints and the tag). */
const MAX_CHARACTERS = 48;

interface CodeParts {
  printId: number;
  /** 0: the document; n: its n-th row or card, in print order. */
  row: number;
}

/**
 * A signing key of one database, by its name in server_secrets, read (or made, the first time ever) once
 * per process. Called with the portal's database, never a transaction (whose key, made and rolled back,
 * would stay cached). Each purpose has its own key (single-purpose: a tag made for one never checks as
 * another's): 'document_codes' here, 'document_downloads' for a job's download links (./downloads.ts).
 */
const keys = new WeakMap<Database, Map<string, Promise<Buffer>>>();

export function secretKey(db: Database, name: string): Promise<Buffer> {
  let named = keys.get(db);
  if (!named) keys.set(db, (named = new Map()));
  let key = named.get(name);
  if (!key) {
    key = (async () => {
      await db
        .insert(serverSecrets)
        .values({ name, value: randomSecret(32) })
        .onConflictDoNothing();
      const [row] = await db
        .select({ value: serverSecrets.value })
        .from(serverSecrets)
        .where(eq(serverSecrets.name, name));
      return Buffer.from(row.value, 'base64url');
    })();
    key.catch(() => named.delete(name));
    named.set(name, key);
  }
  return key;
}

export const codeKey = (db: Database): Promise<Buffer> => secretKey(db, SECRET_NAME);

function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  do {
    const low = rest % 128;
    rest = Math.floor(rest / 128);
    bytes.push(rest > 0 ? low + 128 : low);
  } while (rest > 0);
  return bytes;
}

/** Reads a varint at `at`; null when it runs off the end or is longer than any id. */
function readVarint(bytes: Uint8Array, at: number): { value: number; next: number } | null {
  let value = 0;
  let scale = 1;
  for (let i = at; i < bytes.length && i < at + 7; i += 1) {
    value += (bytes[i] & 127) * scale;
    if (bytes[i] < 128) return { value, next: i + 1 };
    scale *= 128;
  }
  return null;
}

const tagOf = (key: Buffer, payload: Uint8Array) =>
  createHmac('sha256', key).update('document-code:').update(payload).digest().subarray(0, TAG_BYTES);

function toBase32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/** The bytes of a base32 text, or null when a character is not Crockford's or the padding bits are set. */
function fromBase32(text: string): Uint8Array | null {
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text) {
    const value = VALUE_OF.get(char);
    if (value === undefined) return null;
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      bytes.push((buffer >> (bits - 8)) & 255);
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
  }
  // What is left over must be the zero padding of the last character, shorter than a character.
  if (bits >= 5 || buffer !== 0) return null;
  return Uint8Array.from(bytes);
}

/** The code of a print's row (0: the document), as printed: groups of four joined by hyphens. */
export function makeCode(key: Buffer, parts: CodeParts): string {
  const payload = Uint8Array.from([...varint(parts.printId), ...varint(parts.row)]);
  const text = toBase32(Buffer.concat([payload, tagOf(key, payload)]));
  return text.match(/.{1,4}/g)!.join('-');
}

/**
 * What a code as typed or scanned names, or null when it is not one of the portal's: lower case,
 * spaces and hyphens are taken, and O read as 0, I and L as 1. The tag is compared in constant time.
 */
export function readCode(key: Buffer, typed: string): CodeParts | null {
  const text = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (text.length === 0 || text.length > MAX_CHARACTERS) return null;
  const bytes = fromBase32(text);
  if (!bytes) return null;
  const id = readVarint(bytes, 0);
  const row = id && readVarint(bytes, id.next);
  if (!id || !row || id.value < 1 || bytes.length - row.next !== TAG_BYTES) return null;
  const given = bytes.subarray(row.next);
  if (!timingSafeEqual(given, tagOf(key, bytes.subarray(0, row.next)))) return null;
  return { printId: id.value, row: row.value };
}
