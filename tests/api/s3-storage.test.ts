import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type S3Config } from '../../server/config';
import { eq } from 'drizzle-orm';
import { PRINT_PHOTO_FIELD } from '../../server/candidates/uploads';
import { files } from '../../server/db/schema';
import { createS3Storage, S3StorageError, type S3Storage } from '../../server/storage/s3';
import { InvalidKeyError, newKey } from '../../server/storage/storage';
import { SWEEP_GRACE_MINUTES, sweepStorage } from '../../server/storage/sweep';
import { createLogger } from '../../server/log';
import { fetchRaw, JPEG, PNG, pngOfSize, profileForm } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * The S3-compatible storage driver (server/storage/s3.ts) against a real S3-compatible server: s3rver,
 * from the npm registry, listening on a loopback port in this process. Every call goes over HTTP with
 * signed requests, as it would to AWS or MinIO. Also the S3 settings, and a whole portal on S3.
 */

// The SDK warns once per process that its releases after January 2027 need Node 22 (docs/decisions.md).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

// s3rver's fixed credentials: it checks every request's signature against them.
const KEY_ID = 'S3RVER';
const SECRET = 'S3RVER';
const BUCKET = 'portal-uploads';

let dir: string;
let server: S3rver;
let endpoint: string;
let storage: S3Storage;
let raw: S3Client;

const s3Config = (overrides: Partial<S3Config> = {}): S3Config => ({
  bucket: BUCKET,
  endpoint,
  region: 'us-east-1',
  accessKeyId: KEY_ID,
  secretAccessKey: SECRET,
  forcePathStyle: true,
  ...overrides,
});

/** Every key in the bucket, read with a client of our own (not the driver). */
const keysInBucket = async () => {
  const listed = await raw.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (listed.Contents ?? []).map((object) => object.Key!);
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-s3-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  storage = await createS3Storage(s3Config());
  raw = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: KEY_ID, secretAccessKey: SECRET },
  });
});
afterAll(async () => {
  storage?.close();
  raw?.destroy();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the S3 settings (server/config.ts)', () => {
  const keys = { S3_ACCESS_KEY_ID: 'AKIAEXAMPLE', S3_SECRET_ACCESS_KEY: 'secret' };

  const refusal = (env: Record<string, string>): string => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).message;
    }
    throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
  };

  it('keeps uploads on local disk when no S3 setting is given', () => {
    expect(loadConfig({}).s3).toBeNull();
    expect(loadConfig({ S3_BUCKET: ' ', S3_REGION: '' }).s3).toBeNull();
  });

  it('reads AWS itself: region us-east-1 by default, virtual-hosted style', () => {
    expect(loadConfig({ S3_BUCKET: 'board-files', ...keys }).s3).toEqual({
      bucket: 'board-files',
      endpoint: null,
      region: 'us-east-1',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'secret',
      forcePathStyle: false,
    });
    expect(loadConfig({ S3_BUCKET: 'board-files', S3_REGION: 'eu-west-2', ...keys }).s3?.region).toBe(
      'eu-west-2',
    );
  });

  it('uses path style by default with an endpoint (MinIO and the like), unless told not to', () => {
    const env = { S3_BUCKET: 'board-files', S3_ENDPOINT: 'http://127.0.0.1:9000/', ...keys };
    expect(loadConfig(env).s3).toMatchObject({ endpoint: 'http://127.0.0.1:9000', forcePathStyle: true });
    expect(loadConfig({ ...env, S3_FORCE_PATH_STYLE: '0' }).s3?.forcePathStyle).toBe(false);
    expect(
      loadConfig({ S3_BUCKET: 'board-files', S3_FORCE_PATH_STYLE: '1', ...keys }).s3?.forcePathStyle,
    ).toBe(true);
  });

  it('refuses a bucket without keys, naming the variables', () => {
    expect(refusal({ S3_BUCKET: 'board-files' })).toContain(
      'S3_BUCKET is set, so S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set too; S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are missing.',
    );
    expect(refusal({ S3_BUCKET: 'board-files', S3_ACCESS_KEY_ID: 'AKIAEXAMPLE' })).toContain(
      'S3_SECRET_ACCESS_KEY is missing.',
    );
    expect(refusal({ S3_BUCKET: 'board-files', S3_SECRET_ACCESS_KEY: 'secret' })).toContain(
      'S3_ACCESS_KEY_ID is missing.',
    );
  });

  it('refuses S3 settings without a bucket, so a typo never falls back to local disk unnoticed', () => {
    expect(refusal({ S3_ENDPOINT: 'http://127.0.0.1:9000', ...keys })).toContain(
      'S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY are set but S3_BUCKET is not',
    );
    expect(refusal({ S3_REGION: 'eu-west-2' })).toContain('S3_REGION is set but S3_BUCKET is not');
  });

  it.each([
    ['S3_BUCKET', 'Board_Files', /S3_BUCKET must be a bucket name of 3 to 63 lower-case letters/],
    ['S3_BUCKET', 'ab', /S3_BUCKET must be a bucket name/],
    ['S3_BUCKET', 'a..b', /S3_BUCKET must be a bucket name/],
    ['S3_ENDPOINT', 'not a url', /S3_ENDPOINT must be a URL such as http:\/\/host; it is 'not a url'/],
    ['S3_ENDPOINT', 'minio:9000', /S3_ENDPOINT must start with http:\/\/ or https:\/\/; it is 'minio:9000'/],
    ['S3_REGION', 'EU West', /S3_REGION must be a region name such as us-east-1; it is 'EU West'/],
    ['S3_FORCE_PATH_STYLE', 'sometimes', /S3_FORCE_PATH_STYLE must be 1 or 0; it is 'sometimes'/],
  ])('refuses %s=%s', (name, value, message) => {
    expect(refusal({ S3_BUCKET: 'board-files', ...keys, [name]: value })).toMatch(message);
  });
});

describe('the S3 driver, against a real S3-compatible server over HTTP', () => {
  it('puts, gets and removes an object with its content type', async () => {
    const key = newKey('profile-photos', 'png');
    await storage.put(key, PNG, 'image/png');
    expect(await keysInBucket()).toContain(key);
    const head = await raw.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    expect(head).toMatchObject({ ContentType: 'image/png', ContentLength: PNG.byteLength });

    expect(await storage.get(key)).toEqual({ bytes: PNG, contentType: 'image/png' });
    await storage.remove(key);
    expect(await storage.get(key)).toBeNull();
    expect(await keysInBucket()).not.toContain(key);
    // Removing what is not there is no error.
    await storage.remove(key);
  });

  it.each([
    ['image/jpeg', JPEG, 'jpg'],
    ['application/pdf', new TextEncoder().encode('%PDF-1.4\n%%EOF\n'), 'pdf'],
  ])('keeps the content type %s', async (contentType, bytes, extension) => {
    const key = newKey('candidate-certificates', extension);
    await storage.put(key, bytes, contentType);
    expect(await storage.get(key)).toEqual({ bytes, contentType });
    await storage.remove(key);
  });

  it('round-trips an upload of the largest size allowed (2,000,000 bytes) byte for byte', async () => {
    const bytes = pngOfSize(2_000_000);
    for (let i = PNG.byteLength; i < bytes.length; i += 997) bytes[i] = i % 251;
    const key = newKey('candidate-photos', 'png');
    await storage.put(key, bytes, 'image/png');
    const stored = await storage.get(key);
    expect(stored?.bytes.byteLength).toBe(2_000_000);
    expect(Buffer.from(stored!.bytes).equals(Buffer.from(bytes))).toBe(true);
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

  it('answers null for a key that is not there', async () => {
    expect(await storage.get(newKey('profile-photos', 'png'))).toBeNull();
  });

  it('replaces an object put twice under the same key', async () => {
    const key = newKey('profile-photos', 'png');
    await storage.put(key, PNG, 'image/png');
    await storage.put(key, JPEG, 'image/jpeg');
    expect(await storage.get(key)).toEqual({ bytes: JPEG, contentType: 'image/jpeg' });
    await storage.remove(key);
  });

  // The same keys the local driver refuses (tests/api/storage.test.ts): the same rule, before any request.
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
  ])('refuses the key %j on every call, and nothing reaches the bucket', async (key) => {
    const before = await keysInBucket();
    await expect(storage.put(key, PNG, 'image/png')).rejects.toBeInstanceOf(InvalidKeyError);
    await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidKeyError);
    await expect(storage.remove(key)).rejects.toBeInstanceOf(InvalidKeyError);
    expect(await keysInBucket()).toEqual(before);
  });

  it('stops the start with a sentence when the bucket is missing, the keys are wrong or nothing answers', async () => {
    await expect(createS3Storage(s3Config({ bucket: 'no-such-bucket' }))).rejects.toThrow(
      new S3StorageError(
        `The bucket no-such-bucket (S3_BUCKET) does not exist at ${endpoint}: create it first (the portal never creates buckets), or correct S3_BUCKET.`,
      ),
    );
    // s3rver checks the key id of a V4 signature, not the signature itself (AWS and MinIO check both).
    await expect(createS3Storage(s3Config({ accessKeyId: 'NOT-OURS' }))).rejects.toThrow(
      /^S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY may not use the bucket portal-uploads \(S3_BUCKET\) at .*: give these keys access to it, or correct them\.$/,
    );
    const closed = new URL(endpoint);
    closed.port = '1';
    await expect(createS3Storage(s3Config({ endpoint: closed.origin }))).rejects.toThrow(
      /^Object storage at http:\/\/127\.0\.0\.1:1 cannot be reached \(ECONNREFUSED\): check that it is running and that S3_ENDPOINT is right\.$/,
    );
  });
});

describe('a portal with S3_BUCKET set', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal({
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRET,
    });
  });
  afterAll(() => t?.close());

  it('keeps an uploaded photo in the bucket, not on local disk, and serves it from there', async () => {
    const school1 = 'school1@example.org';
    const token = await t.signIn(school1);
    const saved = await t.request('POST', '/api/training-school-admin/update-user-training-school-profile', {
      token,
      form: profileForm({ name: 'Babatunde Adeyemi', email: school1 }, { bytes: PNG }),
    });
    expect(saved.status).toBe(200);
    const info = await t.request('GET', '/api/training-school-admin/user-profile-information', { token });
    const url = info.body.data.photo as string;
    const key = url.replace(/^\/files\//, '');

    expect(await keysInBucket()).toContain(key);
    expect(fs.existsSync(path.join(t.dataDir, 'uploads'))).toBe(false);
    const served = await fetchRaw(t, url, { authorization: `Bearer ${token}` });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.bytes).toEqual(PNG);
  });
});

describe('the living demo on S3', () => {
  const DEMO_BUCKET = 'portal-demo';
  let t: TestPortal;
  beforeAll(async () => {
    await raw.send(new CreateBucketCommand({ Bucket: DEMO_BUCKET }));
    t = await startTestPortal(
      {
        S3_BUCKET: DEMO_BUCKET,
        S3_ENDPOINT: endpoint,
        S3_ACCESS_KEY_ID: KEY_ID,
        S3_SECRET_ACCESS_KEY: SECRET,
      },
      { livingDemo: true },
    );
    // s3rver answers any listing longer than one page (1,000 objects) with a 500: its continuation
    // tokens fail (s3rver issue #814). The demo's print photos take the bucket past 1,000, so they
    // are taken out, rows and objects, before the tests list the bucket; real S3 pages as documented.
    const printPhotos = await t.portal.database.db
      .delete(files)
      .where(eq(files.field, PRINT_PHOTO_FIELD))
      .returning({ key: files.key });
    for (const { key } of printPhotos) await t.portal.storage.remove(key);
  });
  afterAll(() => t?.close());

  it("stores every demo candidate's files in the bucket, and the files route serves them from there", async () => {
    const stored = await t.portal.database.db.select({ key: files.key, size: files.size }).from(files);
    expect(stored.length).toBeGreaterThanOrEqual(300);
    const inBucket = new Set<string>();
    let token: string | undefined;
    do {
      const listed = await raw.send(
        new ListObjectsV2Command({ Bucket: DEMO_BUCKET, ContinuationToken: token }),
      );
      for (const object of listed.Contents ?? []) inBucket.add(object.Key!);
      token = listed.NextContinuationToken;
    } while (token);
    for (const { key } of stored) expect(inBucket).toContain(key);
    expect(fs.existsSync(path.join(t.dataDir, 'uploads'))).toBe(false);

    const admin = await t.signIn('admin@example.org');
    const served = await fetchRaw(t, `/files/${stored[0].key}`, { authorization: `Bearer ${admin}` });
    expect(served.status).toBe(200);
    expect(served.bytes.byteLength).toBe(stored[0].size);
  });

  it('is swept of an object no row names, past the grace period, and keeps every demo file', async () => {
    const orphan = newKey('candidates', 'png');
    await t.portal.storage.put(orphan, PNG, 'image/png');
    const deps = { db: t.portal.database.db, storage: t.portal.storage, log: createLogger(false) };
    // Just stored: within the grace period, so left alone.
    expect(await sweepStorage(deps)).toEqual({ leftovers: 0, orphans: 0 });
    const later = new Date(Date.now() + (SWEEP_GRACE_MINUTES + 1) * 60_000);
    expect(await sweepStorage(deps, later)).toEqual({ leftovers: 0, orphans: 1 });
    expect(await t.portal.storage.get(orphan)).toBeNull();
    const stored = await t.portal.database.db.select({ key: files.key }).from(files);
    const remaining: string[] = [];
    for await (const key of t.portal.storage.keysWrittenBefore(later)) remaining.push(key);
    expect(remaining.sort()).toEqual(stored.map(({ key }) => key).sort());
    expect(stored.length).toBeGreaterThanOrEqual(300);
  });
});
