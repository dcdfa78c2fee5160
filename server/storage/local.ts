import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { randomSecret } from '../secrets';
import { InvalidKeyError, isValidKey, type Storage } from './storage';

/**
 * Files on local disk: `<root>/<key>` holds the bytes and `<root>/<key>.type` the content type. Every
 * key is checked against the key pattern and must resolve inside the root, so no key reaches a path
 * outside it.
 */
const PARTIAL = '.partial';
const TYPE = '.type';

export function createLocalStorage(root: string): Storage {
  const base = path.resolve(root);
  const fileOf = (key: string) => {
    if (!isValidKey(key)) throw new InvalidKeyError(key);
    const file = path.resolve(base, key);
    if (!file.startsWith(base + path.sep)) throw new InvalidKeyError(key);
    return file;
  };
  const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

  /**
   * Written under a temporary name and renamed, so a reader never sees half a file. A process killed
   * mid-write leaves the `.partial` file, which removeLeftovers takes away once it is old.
   */
  const writeAtomically = async (file: string, data: Uint8Array | string) => {
    const partial = `${file}.${randomSecret(6)}${PARTIAL}`;
    await fs.writeFile(partial, data);
    await fs.rename(partial, file);
  };

  return {
    async put(key, bytes, contentType) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // The type first: whoever finds the bytes finds their type too.
      await writeAtomically(`${file}${TYPE}`, contentType);
      await writeAtomically(file, bytes);
    },
    async get(key) {
      const file = fileOf(key);
      try {
        const [bytes, contentType] = await Promise.all([
          fs.readFile(file),
          fs.readFile(`${file}${TYPE}`, 'utf8'),
        ]);
        return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), contentType };
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async putFile(key, source, contentType) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await writeAtomically(`${file}${TYPE}`, contentType);
      // Copied, not renamed: the source may be on another disk (the system's temporary folder).
      const partial = `${file}.${randomSecret(6)}${PARTIAL}`;
      await fs.copyFile(source, partial);
      await fs.rename(partial, file);
    },
    async stat(key) {
      const file = fileOf(key);
      try {
        const [stat, contentType] = await Promise.all([fs.stat(file), fs.readFile(`${file}${TYPE}`, 'utf8')]);
        return { size: stat.size, contentType };
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async stream(key, start, end) {
      const file = fileOf(key);
      const handle = await fs.open(file, 'r').catch((error: unknown) => {
        if (missing(error)) return null;
        throw error;
      });
      if (!handle) return null;
      // Opened first, so a missing file is a null here rather than an error in the middle of an answer.
      return Readable.toWeb(handle.createReadStream({ start, end })) as ReadableStream<Uint8Array>;
    },
    async remove(key) {
      const file = fileOf(key);
      for (const target of [file, `${file}${TYPE}`]) {
        try {
          await fs.unlink(target);
        } catch (error) {
          if (!missing(error)) throw error;
        }
      }
    },
    async *keysWrittenBefore(before) {
      for await (const { relative, modified } of filesUnder(base)) {
        const key = relative.split(path.sep).join('/');
        if (isValidKey(key) && modified < before) yield key;
      }
    },
    async removeLeftovers(before) {
      let removed = 0;
      for await (const { relative, modified } of filesUnder(base)) {
        if (modified >= before) continue;
        const file = path.join(base, relative);
        // A half-written file, or a type whose bytes never arrived (put writes the type first).
        const leftover =
          relative.endsWith(PARTIAL) ||
          (relative.endsWith(TYPE) && !(await exists(file.slice(0, -TYPE.length))));
        if (!leftover) continue;
        await fs.rm(file, { force: true });
        removed += 1;
      }
      return removed;
    },
    async check() {
      // Two system calls, no write: a read-only or vanished disk fails here (a full one on its next put).
      await fs.mkdir(base, { recursive: true });
      await fs.access(base, fsConstants.W_OK);
    },
  };
}

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

/** Every file under the root, with its path from the root and when it was last written. */
async function* filesUnder(base: string): AsyncIterable<{ relative: string; modified: Date }> {
  let entries: string[];
  try {
    entries = await fs.readdir(base, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // Nothing stored yet.
    throw error;
  }
  for (const relative of entries) {
    const stat = await fs.stat(path.join(base, relative)).catch(() => null); // Gone meanwhile.
    if (stat?.isFile()) yield { relative, modified: stat.mtime };
  }
}
