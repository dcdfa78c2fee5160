import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../server/storage/local';
import { InvalidKeyError, isValidKey, newKey, type Storage } from '../../server/storage/storage';
import { keyOfUrl } from '../../server/storage/uploads';
import { PNG } from './fixtures';

/** The local-disk storage driver (server/storage): keys made by the server, and no way out of its root. */

let dir: string;
let storage: Storage;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-storage-'));
  storage = createLocalStorage(path.join(dir, 'uploads'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the local driver', () => {
  it('puts, gets and removes a file with its content type', async () => {
    const key = newKey('profile-photos', 'png');
    expect(key).toMatch(/^profile-photos\/[A-Za-z0-9_-]{24}\.png$/);
    await storage.put(key, PNG, 'image/png');
    expect(fs.existsSync(path.join(dir, 'uploads', key))).toBe(true);
    expect(await storage.get(key)).toEqual({ bytes: PNG, contentType: 'image/png' });
    await storage.remove(key);
    expect(await storage.get(key)).toBeNull();
    expect(fs.readdirSync(path.join(dir, 'uploads', 'profile-photos'))).toEqual([]);
    // Removing what is not there is no error.
    await storage.remove(key);
  });

  it('stores a file from disk, tells its size, and reads a part of it (a resumed download)', async () => {
    const source = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'portal-large-')), 'large.bin');
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 31) % 256);
    fs.writeFileSync(source, bytes);
    const key = newKey('document-jobs', 'pdf');
    await storage.putFile(key, source, 'application/pdf');
    expect(await storage.stat(key)).toEqual({ size: bytes.byteLength, contentType: 'application/pdf' });
    const part = new Uint8Array(await new Response(await storage.stream(key, 1000, 250_999)).arrayBuffer());
    expect(Buffer.from(part).equals(Buffer.from(bytes.subarray(1000, 251_000)))).toBe(true);
    await storage.remove(key);
    expect(await storage.stat(key)).toBeNull();
    expect(await storage.stream(key, 0, 10)).toBeNull();
  });

  it('makes a new random key every time', () => {
    const keys = new Set(Array.from({ length: 100 }, () => newKey('profile-photos', 'jpg')));
    expect(keys.size).toBe(100);
  });

  it.each([
    '../outside.png',
    'profile-photos/../../outside.png',
    '/etc/passwd',
    'profile-photos/..',
    'profile-photos\\..\\..\\x.png',
    'profile-photos/AAAAAAAAAAAAAAAAAAAA.png.type',
    'profile-photos/short.png',
    'Profile-Photos/AAAAAAAAAAAAAAAAAAAA.png',
    'AAAAAAAAAAAAAAAAAAAA.png',
    'profile-photos/AAAAAAAAAAAAAAAAAAAA',
    'profile-photos//AAAAAAAAAAAAAAAAAAAA.png',
    'profile-photos/AAAAAAAAAAAAAAAAAAAA.png\u0000.html',
    '',
  ])('refuses the key %j on every call', async (key) => {
    expect(isValidKey(key)).toBe(false);
    await expect(storage.put(key, PNG, 'image/png')).rejects.toBeInstanceOf(InvalidKeyError);
    await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidKeyError);
    await expect(storage.remove(key)).rejects.toBeInstanceOf(InvalidKeyError);
    expect(fs.existsSync(path.join(dir, 'outside.png'))).toBe(false);
  });

  it('finds the key of our own file URLs only', () => {
    const key = newKey('profile-photos', 'png');
    expect(keyOfUrl(`/files/${key}`)).toBe(key);
    expect(keyOfUrl(`https://elsewhere.example/files/${key}`)).toBeNull();
    expect(keyOfUrl('/files/../../etc/passwd')).toBeNull();
    expect(keyOfUrl(null)).toBeNull();
  });
});
