import { createMiddleware } from 'hono/factory';
import { FILES_PATH_PREFIX } from '../../contract/user';
import type { AppEnv } from './context';

/**
 * What a browser, or a cache between it and the portal, may keep (docs/decisions.md "Caching", issue
 * 22). One policy by kind of answer, set in one place every answer passes through (`cachePolicy`,
 * outermost in server/app.ts, so it sees errors, 401s and CSV streams as they leave):
 *
 * - every /api/ answer, whatever its status or type (JSON, CSV, an error): kept nowhere (`no-store`).
 *   They carry names, marks and tokens, and a shared computer's disk cache is read by the next person.
 * - a stored document (/files/: photos, certificates, receipts) served to a signed-in user: kept by the
 *   browser only, and asked about again at each use (`private, no-cache`; the answer's ETag makes that
 *   question a 304 without the bytes), so signing out leaves nothing another user of the computer can
 *   open from the cache without the server saying yes. A refusal there is `no-store` like the API's.
 * - the SPA's files (server/http/spa.ts): hashed assets a year, index.html revalidated, fixed names a day.
 */
export const CACHE = {
  api: 'no-store',
  document: 'private, no-cache',
  refused: 'no-store',
  immutableAsset: 'public, max-age=31536000, immutable',
  fixedNameAsset: 'public, max-age=86400',
  index: 'no-cache',
} as const;

/** The Cache-Control an answer leaves with, or null for one that keeps its own (the SPA's files). */
function cacheControlOf(path: string, status: number): string | null {
  if (path === '/api' || path.startsWith('/api/')) return CACHE.api;
  if (path.startsWith(FILES_PATH_PREFIX))
    return status === 200 || status === 304 ? CACHE.document : CACHE.refused;
  return null;
}

export const cachePolicy = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const value = cacheControlOf(c.req.path, c.res.status);
  if (!value) return;
  try {
    c.res.headers.set('Cache-Control', value);
  } catch {
    // A response with immutable headers (one passed through from fetch): the same, with its own headers.
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set('Cache-Control', value);
  }
});
