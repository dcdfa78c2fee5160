import type { S3Client } from '@aws-sdk/client-s3';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { S3Config } from '../config';
import { InvalidKeyError, isValidKey, type Storage } from './storage';

/**
 * Uploads in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, ...), behind the same three calls as the
 * local driver, so API processes keep no files of their own and any number can run side by side.
 *
 * Keys follow the local driver's rules exactly: a key the pattern refuses never reaches the bucket. The
 * object's Content-Type is the type found in the upload's bytes; the files route decides what goes out.
 * The bucket is never public: files are read through the portal, which checks who may see them.
 */
export interface S3Storage extends Storage {
  /** Where the files are, for the start banner: `s3://bucket (endpoint)`. */
  readonly description: string;
  /** Closes the client's idle connections. */
  close(): void;
}

export class S3StorageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'S3StorageError';
  }
}

/** The S3 error that means "no such object" (or bucket), whatever the server calls it. */
function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/**
 * Makes the client and checks, once, that the bucket is there and the keys may use it, so a wrong
 * setting stops the start with a sentence rather than failing the first upload. The SDK is imported
 * here, not at the top, so a portal on local disk never loads it (it adds to start time).
 */
export async function createS3Storage(
  config: S3Config,
  options: { check?: boolean } = {},
): Promise<S3Storage> {
  const {
    S3Client: Client,
    GetObjectCommand,
    HeadObjectCommand,
    PutObjectCommand,
    DeleteObjectCommand,
    HeadBucketCommand,
    ListObjectsV2Command,
  } = await import('@aws-sdk/client-s3');
  const client: S3Client = new Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // Many S3-compatible servers refuse the newer default checksum headers; AWS itself needs none.
    ...(config.endpoint
      ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
      : {}),
    // A stalled server fails the request instead of holding it open (the SDK retries 3 times).
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
  });
  const Bucket = config.bucket;
  const description = `s3://${Bucket}${config.endpoint ? ` at ${config.endpoint}` : ` (AWS, ${config.region})`}`;
  const checked = (key: string) => {
    if (!isValidKey(key)) throw new InvalidKeyError(key);
    return key;
  };

  if (options.check ?? true) {
    try {
      await client.send(new HeadBucketCommand({ Bucket }));
    } catch (error) {
      client.destroy();
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      const code = (error as { code?: string }).code ?? (error as Error).name ?? 'Error';
      const where = config.endpoint ?? `AWS (${config.region})`;
      // One sentence that names the setting to change; never the secret key.
      const sentence =
        status === 404
          ? `The bucket ${Bucket} (S3_BUCKET) does not exist at ${where}: create it first (the portal never creates buckets), or correct S3_BUCKET.`
          : status === 403 || status === 401
            ? `S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY may not use the bucket ${Bucket} (S3_BUCKET) at ${where}: give these keys access to it, or correct them.`
            : status === undefined
              ? `Object storage at ${where} cannot be reached (${code}): check that it is running and that ${config.endpoint ? 'S3_ENDPOINT' : 'S3_REGION'} is right.`
              : `Object storage at ${where} refused the bucket ${Bucket} (S3_BUCKET) with HTTP ${status} (${code}): check the S3_ settings.`;
      throw new S3StorageError(sentence, { cause: error });
    }
  }

  return {
    description,
    async put(key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: checked(key),
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.byteLength,
        }),
      );
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: checked(key) }));
        if (!object.Body) return null;
        return {
          bytes: await object.Body.transformToByteArray(),
          contentType: object.ContentType ?? 'application/octet-stream',
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async putFile(key, file, contentType) {
      // One PUT of a known length, streamed from the disk (up to S3's 5 GB for one PUT).
      const { size } = await fs.stat(file);
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: checked(key),
          Body: createReadStream(file),
          ContentType: contentType,
          ContentLength: size,
        }),
      );
    },
    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: checked(key) }));
        return { size: head.ContentLength ?? 0, contentType: head.ContentType ?? 'application/octet-stream' };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async stream(key, start, end) {
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket, Key: checked(key), Range: `bytes=${start}-${end}` }),
        );
        return object.Body ? (object.Body.transformToWebStream() as ReadableStream<Uint8Array>) : null;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async remove(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: checked(key) }));
      } catch (error) {
        // S3 answers 204 for a missing key; some compatible servers answer 404.
        if (!isNotFound(error)) throw error;
      }
    },
    async *keysWrittenBefore(before) {
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken: token }));
        for (const object of page.Contents ?? []) {
          if (object.Key && isValidKey(object.Key) && object.LastModified && object.LastModified < before) {
            yield object.Key;
          }
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    // A PutObject (the only write we make) stores the whole object or nothing: no leftovers to find.
    removeLeftovers: async () => 0,
    // One HEAD request (a fraction of a GET's price), asked at most once every few seconds.
    async check() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
    close() {
      client.destroy();
    },
  };
}
