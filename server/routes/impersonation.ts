import { and, eq, isNull, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { IMPERSONATION_MESSAGES } from '../../contract/impersonation';
import { startImpersonationValidator, switchBackValidator } from '../../contract/impersonation.validators';
import { audit } from '../audit';
import { randomSecret, sameHash, sha256 } from '../auth/secrets';
import { issueToken, revokeToken } from '../auth/tokens';
import { impersonations, users } from '../db/schema';
import { auditActor, callerOf, type AppEnv } from '../http/context';
import { invalid, ok, refuse } from '../http/respond';
import { readBody } from '../http/validate';
import { findUserView } from '../users';

/** An impersonation lasts at most this long (or the usual token life, if shorter): it is for a look
 * and a fix, not for working as someone else all day. */
export const IMPERSONATION_TTL_MINUTES = 120;

/**
 * An admin signs in as a school admin (architecture brief section 4). The admin's token is spent; the
 * school admin's new token records the admin; the browser keeps a switch-back token whose SHA-256 is
 * stored with the token it belongs to, so only that pairing can redeem it.
 */
export const impersonateRoutes = new Hono<AppEnv>().post('/impersonate', async (c) => {
  const caller = callerOf(c);
  // The matrix already keeps an impersonated caller (a school admin) out of /api/admin; this says why
  // if that ever changes.
  if (caller.impersonatorId) return refuse(c, 403, IMPERSONATION_MESSAGES.nested);
  const input = await readBody(c, startImpersonationValidator);
  if (input instanceof Response) return input;
  const { database, config } = c.get('deps');
  const db = database.db;

  const [target] = await db
    .select({ id: users.id, role: users.role, active: users.active })
    .from(users)
    .where(eq(users.id, input.user_id));
  if (!target) return refuse(c, 404, IMPERSONATION_MESSAGES.notFound);
  if (target.role !== 'school_admin' || !target.active) {
    return invalid(c, { user_id: [IMPERSONATION_MESSAGES.notSchoolAdmin] });
  }

  const switchBack = randomSecret();
  const ttl = Math.min(config.tokenTtlMinutes, IMPERSONATION_TTL_MINUTES);
  const started = await db.transaction(async (tx) => {
    const { token, tokenId } = await issueToken(tx, target.id, ttl, caller.userId);
    await revokeToken(tx, caller.tokenId);
    const [row] = await tx
      .insert(impersonations)
      .values({
        adminId: caller.userId,
        userId: target.id,
        reason: input.reason,
        accessTokenId: tokenId,
        switchBackHash: sha256(switchBack),
      })
      .returning({ id: impersonations.id });
    await audit(tx, auditActor(c), {
      action: 'impersonation.started',
      entity: 'user',
      entityId: target.id,
      after: { impersonation_id: row.id, reason: input.reason, access_token_id: tokenId },
    });
    return { token };
  });
  const user = await findUserView(db, target.id, caller.userId);
  return ok(c, { user, access_token: started.token, impersonation_token: switchBack });
});

/** Spec section 7, word for word: `{ token }` in, `success, data.user, data.access_token` out. */
export const switchBackRoutes = new Hono<AppEnv>().post('/switch-back-to-admin', async (c) => {
  const caller = callerOf(c);
  const input = await readBody(c, switchBackValidator);
  if (input instanceof Response) return input;
  if (!caller.impersonatorId) return refuse(c, 403, IMPERSONATION_MESSAGES.switchBackRefused);
  const { database, config } = c.get('deps');
  const db = database.db;

  const [row] = await db
    .select()
    .from(impersonations)
    .where(and(eq(impersonations.accessTokenId, caller.tokenId), isNull(impersonations.endedAt)));
  if (!row || row.adminId !== caller.impersonatorId || !sameHash(row.switchBackHash, sha256(input.token))) {
    return refuse(c, 403, IMPERSONATION_MESSAGES.switchBackRefused);
  }
  const [admin] = await db
    .select({ active: users.active, role: users.role })
    .from(users)
    .where(eq(users.id, row.adminId));
  const adminMayReturn = admin?.active === true && admin.role === 'admin';

  const outcome = await db.transaction(async (tx) => {
    // Redeemed once, even when two requests race: only the one that ends the row goes on.
    const ended = await tx
      .update(impersonations)
      .set({ endedAt: sql`now()`, endedBy: 'switch_back' })
      .where(and(eq(impersonations.id, row.id), isNull(impersonations.endedAt)))
      .returning({ id: impersonations.id });
    if (ended.length === 0) return null;
    await revokeToken(tx, caller.tokenId);
    const issued = adminMayReturn ? await issueToken(tx, row.adminId, config.tokenTtlMinutes) : null;
    await audit(
      tx,
      { ...auditActor(c), actorId: row.adminId, impersonatorId: row.adminId },
      {
        action: 'impersonation.ended',
        entity: 'user',
        entityId: row.userId,
        after: { impersonation_id: row.id, reason: row.reason, ended_by: 'switch_back' },
      },
    );
    return issued;
  });
  // Ended either way; an admin deactivated meanwhile gets no token back.
  if (!outcome) return refuse(c, 403, IMPERSONATION_MESSAGES.switchBackRefused);
  const user = await findUserView(db, row.adminId);
  return ok(c, { user, access_token: outcome.token });
});
