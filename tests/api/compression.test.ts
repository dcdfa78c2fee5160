import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../server/auth/tokens';
import { pngOfSize, profileForm, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * What goes over the wire (issue 8): the SPA's files as they were compressed at build, brotli or gzip
 * by Accept-Encoding with Vary; JSON gzipped per request above 1 KB; stored files (images, PDFs) never;
 * and cache headers on every static file. Read with node:http, which does not decompress, so the test
 * sees the bytes a browser receives.
 */

let t: TestPortal;
let admin: string;
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-dist-'));
const script = `export const greeting = ${JSON.stringify('Ẹ káàbọ̀ '.repeat(400))};\n`;
const html = `<!doctype html><html><head><script type="module" src="/assets/app-Ab12Cd34.js"></script></head><body>${'<!-- pad -->'.repeat(100)}</body></html>`;

/** A build as vite.config.ts leaves it: each text file with its `.br` and `.gz` beside it. */
function writeBuild() {
  fs.mkdirSync(path.join(dist, 'assets'));
  const write = (name: string, content: string) => {
    const file = path.join(dist, name);
    fs.writeFileSync(file, content);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content));
  };
  write('assets/app-Ab12Cd34.js', script);
  write('index.html', html);
  write('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
}

beforeAll(async () => {
  writeBuild();
  t = await startTestPortal({ DIST_DIR: dist });
  admin = (await issueToken(t.portal.database.db, await userIdOf(t, 'admin@example.org'), 60)).token;
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

/** A GET as a browser sends it, and the bytes exactly as they came. */
function get(route: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }>(
    (resolve, reject) => {
      http
        .get(t.url + route, { headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode!,
              headers: response.headers,
              bytes: Buffer.concat(chunks),
            }),
          );
        })
        .on('error', reject);
    },
  );
}

const BROWSER = 'gzip, deflate, br, zstd';
const vary = (headers: http.IncomingHttpHeaders) => String(headers.vary ?? '').toLowerCase();

describe('the SPA files', () => {
  it('go out brotli-compressed as built, kept for a year, with Vary', async () => {
    const response = await get('/assets/app-Ab12Cd34.js', { 'accept-encoding': BROWSER });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(vary(response.headers)).toContain('accept-encoding');
    expect(response.bytes.length).toBeLessThan(Buffer.byteLength(script) / 5);
    expect(zlib.brotliDecompressSync(response.bytes).toString()).toBe(script);
  });

  it('go out gzipped to a browser that takes only gzip, and as they are to one that takes neither', async () => {
    const gzipped = await get('/assets/app-Ab12Cd34.js', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzipped.bytes).toString()).toBe(script);
    const plain = await get('/assets/app-Ab12Cd34.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.toString()).toBe(script);
  });

  it('index.html, for the root and for every route of the app, compressed and always revalidated', async () => {
    for (const route of ['/', '/login', '/candidate/candidate-registered']) {
      const response = await get(route, { 'accept-encoding': BROWSER });
      expect(response.status, route).toBe(200);
      expect(response.headers['content-encoding'], route).toBe('br');
      expect(response.headers['cache-control'], route).toBe('no-cache');
      expect(response.headers['content-type'], route).toMatch(/text\/html/);
      expect(zlib.brotliDecompressSync(response.bytes).toString(), route).toBe(html);
    }
  });

  it('the favicon and other files with fixed names are kept for a day', async () => {
    const response = await get('/favicon.svg', { 'accept-encoding': BROWSER });
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    expect(response.headers['content-encoding']).toBe('br');
  });
});

describe('API answers', () => {
  it('are gzipped above 1 KB, with Vary', async () => {
    const response = await get('/api/admin/nationality', {
      'accept-encoding': BROWSER,
      authorization: `Bearer ${admin}`,
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(vary(response.headers)).toContain('accept-encoding');
    const json = JSON.parse(zlib.gunzipSync(response.bytes).toString());
    expect(json.data[0].code).toBe('NG');
    expect(response.bytes.length).toBeLessThan(JSON.stringify(json).length / 3);
  });

  it('are sent as they are below 1 KB, or to a client that takes no compression', async () => {
    const small = await get('/api/admin/count-unread-notification', {
      'accept-encoding': BROWSER,
      authorization: `Bearer ${admin}`,
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.bytes.toString())).toMatchObject({ success: true });
    const plain = await get('/api/admin/nationality', { authorization: `Bearer ${admin}` });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.bytes.toString()).data[0].code).toBe('NG');
  });
});

describe('stored files', () => {
  it('are never compressed again: an image goes out byte for byte', async () => {
    const photo = pngOfSize(50_000);
    const saved = await t.request('POST', '/api/admin/user-profile-update', {
      token: admin,
      form: profileForm(
        { name: 'Board Admin', email: 'admin@example.org', phone_number: '' },
        { bytes: photo },
      ),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const profile = await t.request('GET', '/api/admin/user-profile-information', { token: admin });
    const response = await get(profile.body.data.photo, {
      'accept-encoding': BROWSER,
      authorization: `Bearer ${admin}`,
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(new Uint8Array(response.bytes)).toEqual(photo);
  });
});
