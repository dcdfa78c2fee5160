import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { isRole } from '../../contract/roles';
import type { Database } from '../db/client';
import { accessTokens, users } from '../db/schema';
import type { Caller } from '../http/context';
import { MAX_ID } from '../http/params';
import { randomSecret, sameHash, sha256 } from '../secrets';
import { callerCacheOf, forgetCallers } from './callerCache';

/**
 * Opaque, revocable tokens in the Sanctum style: the client gets `id|secret` once; we keep only the
 * SHA-256 of the secret, so a copy of the database signs no one in.
 */

interface TokenOwner {
  tokenId: number;
  userId: number;
  impersonatorId: number | null;
  /** The owner's role and school as stored (the caller's checks read them from here). */
  role: string;
  trainingSchoolId: number | null;
}

export async function issueToken(
  db: Database,
  userId: number,
  ttlMinutes: number,
  impersonatorId: number | null = null,
): Promise<{ token: string; tokenId: number }> {
  const secret = randomSecret();
  const [row] = await db
    .insert(accessTokens)
    .values({
      userId,
      impersonatorId,
      tokenHash: sha256(secret),
      expiresAt: new Date(Date.now() + ttlMinutes * 60_000),
    })
    .returning({ id: accessTokens.id });
  return { token: `${row.id}|${secret}`, tokenId: row.id };
}

/**
 * The statement that finds a live token with its owner's role and school (what every request sent before
 * the portal kept its callers; now sent when the caller is not kept). Exported for the endpoint bench,
 * whose raw side sends it too when it measures "auth included".
 */
export const liveTokenLookup = (db: Database, id: number) =>
  db
    .select({
      id: accessTokens.id,
      userId: accessTokens.userId,
      tokenHash: accessTokens.tokenHash,
      impersonatorId: accessTokens.impersonatorId,
      lastUsedAt: accessTokens.lastUsedAt,
      expiresAt: accessTokens.expiresAt,
      role: users.role,
      trainingSchoolId: users.trainingSchoolId,
    })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(
      and(
        eq(accessTokens.id, id),
        isNull(accessTokens.revokedAt),
        gt(accessTokens.expiresAt, sql`now()`),
        eq(users.active, true),
      ),
    );

/**
 * The live token's owner with their role and school (kept, or read in one statement), or null for
 * anything unknown, revoked, expired or of an inactive user.
 */
async function resolveToken(db: Database, bearer: string): Promise<TokenOwner | null> {
  const match = /^(\d{1,10})\|([A-Za-z0-9_-]{20,100})$/.exec(bearer);
  if (!match) return null;
  const id = Number(match[1]);
  if (id > MAX_ID) return null; // No token has it; PostgreSQL would refuse it as out of range.
  const hash = sha256(match[2]);
  const cache = callerCacheOf(db);
  const kept = cache?.get(id);
  if (kept) {
    if (!sameHash(kept.hash, hash)) return null;
    if (Date.now() - kept.lastUsedAt > LAST_USE_STEP_MS) {
      kept.lastUsedAt = Date.now();
      await touch(db, id);
    }
    return kept.owner;
  }
  const generation = cache?.generation ?? 0;
  const [row] = await liveTokenLookup(db, id);
  if (!row || !sameHash(row.tokenHash, hash)) return null;
  // Last use is kept to the minute: one write a minute per token, not one per request.
  let lastUsedAt = row.lastUsedAt?.getTime() ?? 0;
  if (Date.now() - lastUsedAt > LAST_USE_STEP_MS) {
    lastUsedAt = Date.now();
    await touch(db, id);
  }
  const owner: TokenOwner = {
    tokenId: row.id,
    userId: row.userId,
    impersonatorId: row.impersonatorId,
    role: row.role,
    trainingSchoolId: row.trainingSchoolId,
  };
  cache?.keep(generation, id, {
    hash: row.tokenHash,
    owner,
    expiresAt: row.expiresAt.getTime(),
    lastUsedAt,
  });
  return owner;
}

/** A token's last use is written to the minute. */
const LAST_USE_STEP_MS = 60_000;

const touch = (db: Database, id: number) =>
  db
    .update(accessTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(eq(accessTokens.id, id));

/** The caller a bearer token belongs to (the request's `caller`), or null for no token or one not live. */
export async function callerOfToken(db: Database, bearer: string): Promise<Caller | null> {
  if (!bearer) return null;
  const owner = await resolveToken(db, bearer);
  if (!owner || !isRole(owner.role)) return null;
  return {
    userId: owner.userId,
    role: owner.role,
    trainingSchoolId: owner.trainingSchoolId,
    tokenId: owner.tokenId,
    impersonatorId: owner.impersonatorId,
  };
}

export async function revokeToken(db: Database, tokenId: number): Promise<void> {
  forgetCallers();
  await db
    .update(accessTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(accessTokens.id, tokenId), isNull(accessTokens.revokedAt)));
}
