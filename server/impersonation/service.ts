import { and, eq, isNull, sql } from 'drizzle-orm';
import { IMPERSONATION_MESSAGES as M } from '../../contract/impersonation';
import type {
  startImpersonationValidator,
  switchBackValidator,
} from '../../contract/impersonation.validators';
import { audit, userOf, type Actor } from '../audit';
import { randomSecret, sameHash, sha256 } from '../secrets';
import { issueToken, revokeToken } from '../auth/tokens';
import type { Database } from '../db/client';
import { impersonations, users } from '../db/schema';
import { Invalid, NotFound, Refused } from '../errors';

/**
 * An admin signs in as a school admin (architecture brief section 4). The admin's token is spent; the
 * school admin's new token records the admin; the browser keeps a switch-back token whose SHA-256 is
 * stored with the token it belongs to, so only that pairing can redeem it.
 */

type StartInput = Awaited<ReturnType<typeof startImpersonationValidator.validate>>;
type SwitchBackInput = Awaited<ReturnType<typeof switchBackValidator.validate>>;

/** An impersonation lasts at most this long (or the usual token life, if shorter): it is for a look
 * and a fix, not for working as someone else all day. */
const IMPERSONATION_TTL_MINUTES = 120;

/** The session an impersonation starts from or ends: its token, and the admin behind it, if any. */
export interface Session {
  tokenId: number;
  tokenTtlMinutes: number;
}

export async function startImpersonation(tx: Database, actor: Actor, session: Session, input: StartInput) {
  // The matrix already keeps an impersonated caller (a school admin) out of /api/admin; this says why
  // if that ever changes.
  if (actor.impersonatorId) throw new Refused(403, M.nested);
  const adminId = userOf(actor);
  const [target] = await tx
    .select({ id: users.id, role: users.role, active: users.active })
    .from(users)
    .where(eq(users.id, input.user_id));
  if (!target) throw new NotFound(M.notFound);
  if (target.role !== 'school_admin' || !target.active) throw new Invalid({ user_id: [M.notSchoolAdmin] });

  const switchBack = randomSecret();
  const ttl = Math.min(session.tokenTtlMinutes, IMPERSONATION_TTL_MINUTES);
  const { token, tokenId } = await issueToken(tx, target.id, ttl, adminId);
  await revokeToken(tx, session.tokenId);
  const [row] = await tx
    .insert(impersonations)
    .values({
      adminId,
      userId: target.id,
      reason: input.reason,
      accessTokenId: tokenId,
      switchBackHash: sha256(switchBack),
    })
    .returning({ id: impersonations.id });
  await audit(tx, actor, {
    action: 'impersonation.started',
    entityId: target.id,
    after: { impersonation_id: row.id, reason: input.reason, access_token_id: tokenId },
  });
  return { userId: target.id, token, switchBack };
}

/**
 * Spec section 7: the switch-back token redeems the admin's session, once, and only from the
 * impersonated session it was given with. Ended either way; an admin deactivated meanwhile gets no
 * token back (`token` undefined: the caller refuses, after the end is committed).
 */
export async function switchBack(tx: Database, actor: Actor, session: Session, input: SwitchBackInput) {
  if (!actor.impersonatorId) throw new Refused(403, M.switchBackRefused);
  const [row] = await tx
    .select()
    .from(impersonations)
    .where(and(eq(impersonations.accessTokenId, session.tokenId), isNull(impersonations.endedAt)));
  if (!row || row.adminId !== actor.impersonatorId || !sameHash(row.switchBackHash, sha256(input.token))) {
    throw new Refused(403, M.switchBackRefused);
  }
  const [admin] = await tx
    .select({ active: users.active, role: users.role })
    .from(users)
    .where(eq(users.id, row.adminId));
  const adminMayReturn = admin?.active === true && admin.role === 'admin';

  // Redeemed once, even when two requests race: only the one that ends the row goes on.
  const ended = await tx
    .update(impersonations)
    .set({ endedAt: sql`now()`, endedBy: 'switch_back' })
    .where(and(eq(impersonations.id, row.id), isNull(impersonations.endedAt)))
    .returning({ id: impersonations.id });
  if (ended.length === 0) throw new Refused(403, M.switchBackRefused);
  await revokeToken(tx, session.tokenId);
  const issued = adminMayReturn ? await issueToken(tx, row.adminId, session.tokenTtlMinutes) : null;
  await audit(
    tx,
    { ...actor, userId: row.adminId, impersonatorId: row.adminId },
    {
      action: 'impersonation.ended',
      entityId: row.userId,
      after: { impersonation_id: row.id, reason: row.reason, ended_by: 'switch_back' },
    },
  );
  return { adminId: row.adminId, token: issued?.token };
}
