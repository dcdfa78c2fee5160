import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { TOKEN_COOKIE } from '../../contract/roles';
import { FILES_PATH_PREFIX } from '../../contract/user';
import { CANDIDATE_FILE_KIND } from '../candidates/uploads';
import { candidates, files } from '../db/schema';
import { callerOfToken } from '../auth/tokens';
import { dbOf, type AppEnv, type Caller } from '../http/context';
import { bearerToken } from '../http/middleware';
import { NOTHING_HERE, refuse, unauthenticated } from '../http/respond';
import { isValidKey } from '../storage/storage';
import { IMAGE_TYPES } from '../storage/uploads';

/** The types stored files go out as: those uploads are checked against. Anything else is bytes. */
const SERVED_TYPES: ReadonlySet<string> = new Set([...Object.keys(IMAGE_TYPES), 'application/pdf']);

interface FileFacts {
  kind: string;
  ownerId: number;
  /** The school of the candidate a candidate upload belongs to. */
  candidateSchoolId: number | null;
}

/**
 * Who may see a stored file. Profile photos are shown next to names across the portal, so any signed-in
 * user may see them. A candidate's uploads: any board admin, and the school admins of the candidate's
 * school. Any other kind: its owner only.
 */
function maySee(file: FileFacts, caller: Caller): boolean {
  if (file.kind === 'profile_photo') return true;
  if (file.kind === CANDIDATE_FILE_KIND) {
    if (caller.role === 'admin') return true;
    return file.candidateSchoolId !== null && file.candidateSchoolId === caller.trainingSchoolId;
  }
  return file.ownerId === caller.userId;
}

/**
 * Stored files, outside /api and before the SPA's fallback. An <img> sends cookies, not headers, so the
 * `token` cookie is accepted here as well as the bearer header (only for these GETs, which change
 * nothing). Only files recorded in the `files` table are served, under headers that stop a browser from
 * ever running one: no sniffing, a sandboxing CSP, and never text/html. A file the caller may not see is
 * a 404, as if it did not exist.
 */
export const fileRoutes = new Hono<AppEnv>().get('/*', async (c) => {
  const caller = await callerOfToken(dbOf(c), bearerToken(c) || (getCookie(c, TOKEN_COOKIE) ?? ''));
  if (!caller) return unauthenticated(c);

  const key = c.req.path.slice(FILES_PATH_PREFIX.length);
  if (!isValidKey(key)) return refuse(c, 404, NOTHING_HERE);
  const { database, storage } = c.get('deps');
  const [file] = await database.db
    .select({
      kind: files.kind,
      ownerId: files.ownerId,
      contentType: files.contentType,
      candidateSchoolId: candidates.trainingSchoolId,
    })
    .from(files)
    .leftJoin(candidates, eq(candidates.id, files.candidateId))
    .where(eq(files.key, key));
  if (!file || !maySee(file, caller)) return refuse(c, 404, NOTHING_HERE);
  // A key names one content for ever (server-made, never reused): the browser's copy is still right
  // when its tag is the key's. It asks each time (server/http/cache.ts), and is answered without the bytes.
  const etag = `"${key}"`;
  if (c.req.header('if-none-match') === etag) return c.body(null, 304, { ETag: etag });
  const stored = await storage.get(key);
  if (!stored) return refuse(c, 404, NOTHING_HERE);

  const contentType = SERVED_TYPES.has(file.contentType) ? file.contentType : 'application/octet-stream';
  return c.body(stored.bytes as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': contentType,
    'Content-Length': String(stored.bytes.byteLength),
    'X-Content-Type-Options': 'nosniff',
    'Content-Disposition': 'inline',
    ETag: etag,
    'Content-Security-Policy': "default-src 'none'; sandbox",
  });
});
