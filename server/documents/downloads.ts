import { createHmac, timingSafeEqual } from 'node:crypto';
import { DOCUMENT_DOWNLOAD_MINUTES } from '../../contract/documents';
import { DOCUMENT_ENDPOINTS as E } from '../../contract/documents.endpoints';
import { fillPath } from '../../contract/endpoint';
import type { Database } from '../db/client';
import { secretKey } from './codes';

/**
 * A finished job's download link (docs/decisions.md "A job's PDF downloads as the browser resumes it"):
 * a plain URL the browser's own download manager opens, and asks again with Range and If-Range when the
 * link breaks, so it carries its own proof instead of the bearer token a download manager never sends.
 * `/api/document-downloads/<job>/<user>.<expiry>.<tag>`: the tag is the first 128 bits of an
 * HMAC-SHA256 of the job, the user it was given to and its expiry (unix seconds), under a key of its own
 * (server_secrets 'document_downloads'). Another job's path, another user, a later expiry: another tag.
 * The route then checks that the user may still see the job, as the job's own route would. The token
 * is a secret while it lives: the request log leaves it out (server/http/middleware.ts `loggedPath`).
 */

const SECRET_NAME = 'document_downloads';
const TAG_BYTES = 16;
const TOKEN = /^([1-9]\d{0,9})\.(\d{10,12})\.([A-Za-z0-9_-]{22})$/;

interface Link {
  jobId: number;
  userId: number;
  /** Unix seconds. */
  expires: number;
}

const downloadKey = (db: Database) => secretKey(db, SECRET_NAME);

const tagOf = (key: Buffer, { jobId, userId, expires }: Link) =>
  createHmac('sha256', key)
    .update(`document-download:${jobId}:${userId}:${expires}`)
    .digest()
    .subarray(0, TAG_BYTES);

/** A link to a job's file for a user, valid DOCUMENT_DOWNLOAD_MINUTES from `now`. */
export async function downloadLink(
  db: Database,
  jobId: number,
  userId: number,
  now: Date,
): Promise<{ url: string; expiresAt: string }> {
  const expires = Math.floor(now.getTime() / 1000) + DOCUMENT_DOWNLOAD_MINUTES * 60;
  const tag = tagOf(await downloadKey(db), { jobId, userId, expires }).toString('base64url');
  return {
    url: fillPath(E.jobDownload.path, { id: jobId, token: `${userId}.${expires}.${tag}` }),
    expiresAt: new Date(expires * 1000).toISOString(),
  };
}

/**
 * Whom a link to this job was given to; 'invalid' for a token the portal did not make for this job
 * (tampered, another job's, another user's: the tag is compared in constant time before anything is
 * read), 'expired' for one past its time.
 */
export async function readDownloadLink(
  db: Database,
  jobId: number,
  token: string,
  now: Date,
): Promise<{ userId: number } | 'invalid' | 'expired'> {
  const match = TOKEN.exec(token);
  if (!match) return 'invalid';
  const link = { jobId, userId: Number(match[1]), expires: Number(match[2]) };
  const given = Buffer.from(match[3], 'base64url');
  if (given.length !== TAG_BYTES || !timingSafeEqual(given, tagOf(await downloadKey(db), link))) {
    return 'invalid';
  }
  if (link.expires * 1000 <= now.getTime()) return 'expired';
  return { userId: link.userId };
}
