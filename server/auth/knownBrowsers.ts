import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { knownBrowsers } from '../db/schema';
import { MAX_ID } from '../http/params';
import { randomSecret, sameHash, sha256 } from '../secrets';

/**
 * Browsers that signed in to an account before (OWASP's device cookie): after a completed sign-in the
 * browser holds `id.secret` in an HttpOnly cookie sent only to /api/auth. At the password step, a
 * browser known to that account has its own limit on wrong passwords and is not held back by the
 * account-wide one on unknown browsers, so strangers guessing at an account cannot lock its owner out.
 */
export const KNOWN_BROWSER_COOKIE = 'known_browser';
export const KNOWN_BROWSER_PATH = '/api/auth';
/** A known browser unused this long is forgotten (by the upkeep), and its cookie lives as long. */
export const KNOWN_BROWSER_DAYS = 365;

const COOKIE_VALUE = /^([1-9]\d{0,9})\.([A-Za-z0-9_-]{32,64})$/;

/** The id of the known browser this cookie proves for this account, or null (no cookie, forged, other account). */
export async function knownBrowserOf(
  db: Database,
  userId: number,
  cookie: string | undefined,
): Promise<number | null> {
  const match = COOKIE_VALUE.exec(cookie ?? '');
  if (!match || Number(match[1]) > MAX_ID) return null;
  const [row] = await db
    .select({ id: knownBrowsers.id, secretHash: knownBrowsers.secretHash })
    .from(knownBrowsers)
    .where(and(eq(knownBrowsers.id, Number(match[1])), eq(knownBrowsers.userId, userId)));
  return row && sameHash(row.secretHash, sha256(match[2])) ? row.id : null;
}

/**
 * After a completed sign-in: the cookie to set, either the same browser seen again (its row touched) or
 * a newly known one.
 */
export async function rememberBrowser(
  db: Database,
  userId: number,
  cookie: string | undefined,
): Promise<string> {
  const known = await knownBrowserOf(db, userId, cookie);
  if (known !== null) {
    await db
      .update(knownBrowsers)
      .set({ lastSeenAt: sql`now()` })
      .where(eq(knownBrowsers.id, known));
    return cookie!;
  }
  const secret = randomSecret(32);
  const [row] = await db
    .insert(knownBrowsers)
    .values({ userId, secretHash: sha256(secret) })
    .returning({ id: knownBrowsers.id });
  return `${row.id}.${secret}`;
}

/** The upkeep's part: browsers not seen for a year are strangers again. */
export async function forgetOldBrowsers(db: Database): Promise<void> {
  await db
    .delete(knownBrowsers)
    .where(lt(knownBrowsers.lastSeenAt, sql`now() - make_interval(days => ${KNOWN_BROWSER_DAYS})`));
}
