import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../../server/storage/local';
import { InvalidKeyError } from '../../../server/storage/storage';
import { demoSignIns } from '../fixtures';
import { startTestPortal, type TestPortal } from '../portal';

/**
 * Attack class: path traversal. Stored files are named by keys the server makes; a path a request
 * sends is matched against the key pattern before any lookup, so `..`, encoded slashes, absolute paths
 * and NUL bytes reach neither the disk nor the bucket, and the SPA's fallback never serves a file from
 * outside its folder.
 */

let t: TestPortal;
let admin: string;
beforeAll(async () => {
  t = await startTestPortal();
  ({ admin } = await demoSignIns(t));
});
afterAll(() => t?.close());

/** A GET of the path exactly as written: fetch() would resolve the dots before sending. */
function rawGet(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; type: string }> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    http
      .get({ hostname, port, path, headers }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body, type: response.headers['content-type'] ?? '' }),
        );
      })
      .on('error', reject);
  });
}

const ATTEMPTS = [
  '/files/../../../../etc/passwd',
  '/files/..%2F..%2F..%2F..%2Fetc%2Fpasswd',
  '/files/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
  '/files/candidates/..%2F..%2Fpglite%2FPG_VERSION',
  '/files//etc/passwd',
  '/files/candidates/abcdefghijklmnopqrstu.png%00.html',
  '/files/profile-photos/abcdefghijklmnopqrstu.png.type',
];

describe('path traversal', () => {
  it('the files route refuses every path that is not a key the server made', async () => {
    for (const attempt of ATTEMPTS) {
      const response = await rawGet(attempt, { authorization: `Bearer ${admin}` });
      // Plain dots are resolved by the URL parser before routing (the request leaves /files/ for the
      // SPA's fallback, which serves no file); what stays under /files/ is not a key: a 404.
      if (new URL(attempt, t.url).pathname.startsWith('/files/')) expect(response.status, attempt).toBe(404);
      // Neither a system file, nor the database's, nor a stored image. (With the SPA built, its fallback
      // answers the app's own page, whose favicon link says image/svg+xml: the type is what counts.)
      expect(response.body, attempt).not.toMatch(/root:|PostgreSQL/);
      expect(response.type, attempt).not.toMatch(/^image\//);
    }
  });

  it("the SPA's static files never reach outside their folder", async () => {
    for (const attempt of ['/../package.json', '/%2e%2e/package.json', '/assets/..%2F..%2Fpackage.json']) {
      const response = await rawGet(attempt);
      expect(response.body, attempt).not.toContain('"devDependencies"');
      // Refused, or (with the SPA built) the app's own page from the fallback: never the file.
      if (response.status === 200) expect(response.body, attempt).toMatch(/^<!doctype html>/i);
    }
  });

  it('the storage itself refuses a key that could leave its folder', async () => {
    const storage = createLocalStorage(t.dataDir + '/uploads');
    for (const key of [
      '../x.png',
      'candidates/../../x.png',
      '/etc/passwd',
      'candidates/abcdefghijklmnopqrst.png\0',
    ]) {
      await expect(storage.get(key), key).rejects.toBeInstanceOf(InvalidKeyError);
    }
  });
});
