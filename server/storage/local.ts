import fs from 'node:fs/promises';
import path from 'node:path';
import { randomSecret } from '../auth/secrets';
import { InvalidKeyError, isValidKey, type Storage } from './storage';

/**
 * Files on local disk: `<root>/<key>` holds the bytes and `<root>/<key>.type` the content type. Every
 * key is checked against the key pattern and must resolve inside the root, so no key reaches a path
 * outside it.
 */
export function createLocalStorage(root: string): Storage {
  const base = path.resolve(root);
  const fileOf = (key: string) => {
    if (!isValidKey(key)) throw new InvalidKeyError(key);
    const file = path.resolve(base, key);
    if (!file.startsWith(base + path.sep)) throw new InvalidKeyError(key);
    return file;
  };
  const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

  /** Written under a temporary name and renamed, so a reader never sees half a file. */
  const writeAtomically = async (file: string, data: Uint8Array | string) => {
    const partial = `${file}.${randomSecret(6)}.partial`;
    await fs.writeFile(partial, data);
    await fs.rename(partial, file);
  };

  return {
    async put(key, bytes, contentType) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // The type first: whoever finds the bytes finds their type too.
      await writeAtomically(`${file}.type`, contentType);
      await writeAtomically(file, bytes);
    },
    async get(key) {
      const file = fileOf(key);
      try {
        const [bytes, contentType] = await Promise.all([
          fs.readFile(file),
          fs.readFile(`${file}.type`, 'utf8'),
        ]);
        return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), contentType };
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async remove(key) {
      const file = fileOf(key);
      for (const target of [file, `${file}.type`]) {
        try {
          await fs.unlink(target);
        } catch (error) {
          if (!missing(error)) throw error;
        }
      }
    },
  };
}
