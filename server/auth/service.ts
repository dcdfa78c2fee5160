import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { AUTH_MESSAGES } from '../../contract/auth';
import type {
  confirmCodeValidator,
  loginValidator,
  resendCodeValidator,
} from '../../contract/auth.validators';
import { audit, type Actor } from '../audit';
import type { Database } from '../db/client';
import { impersonations, signInChallenges, users } from '../db/schema';
import { Invalid, Refused } from '../errors';
import { normaliseEmail } from '../users';
import { voidOpenChallenges } from './challenges';
import { randomCode, randomSecret, sameHash, sha256, verifyPassword } from './secrets';
import { isLimited, recordHit } from './throttle';
import { issueToken, revokeToken } from './tokens';

/**
 * Sign-in is two steps: the password, then a 6-digit code mailed to the account. These services answer
 * what to mail and leave the mailing to the caller. Failed attempts are counted outside any
 * transaction (a refusal must not roll its own count back), so they take the database itself.
 */

type LoginInput = Awaited<ReturnType<typeof loginValidator.validate>>;
type ConfirmInput = Awaited<ReturnType<typeof confirmCodeValidator.validate>>;
type ResendInput = Awaited<ReturnType<typeof resendCodeValidator.validate>>;

export const CODE_TTL_MINUTES = 10;
export const MAX_WRONG_CODES = 5;
export const RESEND_AFTER_SECONDS = 60;
export const MAX_SENDS = 5;
/**
 * Per address counts every attempt and is generous: a board office or a school lab signs many people in
 * from one NAT address. Per account counts wrong passwords only, the guessing it guards against: a
 * school admin who signs in and out all day on a shared computer is never held back by it.
 */
export const LOGIN_LIMITS = { perAddress: 100, perAccount: 10, windowMinutes: 15 };
const CONFIRM_LIMIT_PER_ADDRESS = 30;

/** The code's hash is bound to the login id, which is never stored, so a copy of the table is no help. */
const codeHash = (loginId: string, code: string) => sha256(`${loginId}:${code}`);

/** The open challenge a login id points to, or null when it is unknown, used, voided or expired. */
async function openChallenge(db: Database, loginId: string) {
  const [row] = await db
    .select()
    .from(signInChallenges)
    .where(
      and(
        eq(signInChallenges.loginIdHash, sha256(loginId)),
        isNull(signInChallenges.usedAt),
        isNull(signInChallenges.voidedAt),
        gt(signInChallenges.expiresAt, sql`now()`),
      ),
    );
  return row ?? null;
}

/** The password step: a new sign-in waiting for its code (answered with the code, to mail). */
export async function startSignIn(db: Database, actor: Actor, input: LoginInput) {
  const email = normaliseEmail(input.email);
  const buckets = [`login:ip:${actor.ip}`, `login:email:${email}`];
  const limited = await isLimited(db, [
    { bucket: buckets[0], max: LOGIN_LIMITS.perAddress, windowMinutes: LOGIN_LIMITS.windowMinutes },
    { bucket: buckets[1], max: LOGIN_LIMITS.perAccount, windowMinutes: LOGIN_LIMITS.windowMinutes },
  ]);
  if (limited) throw new Refused(429, AUTH_MESSAGES.tooManyAttempts);
  await recordHit(db, [buckets[0]]);

  const [user] = await db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.email, email), eq(users.active, true)));
  // Unknown email and wrong password answer alike, in the same time.
  if (!(await verifyPassword(user?.passwordHash ?? null, input.password)) || !user) {
    await recordHit(db, [buckets[1]]);
    throw new Invalid({ email: [AUTH_MESSAGES.credentialsRejected] });
  }

  const loginId = randomSecret(24);
  const code = randomCode();
  await db.transaction(async (tx) => {
    // Only the newest code works: an older, unfinished sign-in of this account is voided.
    await voidOpenChallenges(tx, user.id);
    await tx.insert(signInChallenges).values({
      userId: user.id,
      loginIdHash: sha256(loginId),
      codeHash: codeHash(loginId, code),
      expiresAt: sql`now() + make_interval(mins => ${CODE_TTL_MINUTES})`,
    });
  });
  return { loginId, email, code };
}

/** The code step: a token for the account, once (answered with the signed-in user's id and token). */
export async function confirmSignIn(db: Database, actor: Actor, input: ConfirmInput, ttlMinutes: number) {
  // Failed confirmations only (an unknown login id, a wrong code) count against the address: a board
  // office or a school behind one address signs many people in each morning, and must not be held back
  // by its own successes.
  const bucket = `confirm:ip:${actor.ip}`;
  if (await isLimited(db, [{ bucket, max: CONFIRM_LIMIT_PER_ADDRESS, windowMinutes: 15 }])) {
    throw new Refused(429, AUTH_MESSAGES.tooManyAttempts);
  }

  const challenge = await openChallenge(db, input.login_id);
  if (!challenge) {
    await recordHit(db, [bucket]);
    throw new Refused(410, AUTH_MESSAGES.loginExpired);
  }

  if (!sameHash(challenge.codeHash, codeHash(input.login_id, input.code))) {
    await recordHit(db, [bucket]);
    const [after] = await db
      .update(signInChallenges)
      .set({
        wrongTries: sql`${signInChallenges.wrongTries} + 1`,
        voidedAt: sql`case when ${signInChallenges.wrongTries} + 1 >= ${MAX_WRONG_CODES} then now() end`,
      })
      .where(eq(signInChallenges.id, challenge.id))
      .returning({ voidedAt: signInChallenges.voidedAt });
    if (after?.voidedAt) throw new Refused(410, AUTH_MESSAGES.codeVoided);
    throw new Invalid({ code: [AUTH_MESSAGES.codeRejected] });
  }

  // Single use, even when two requests race: only the one that marks it used goes on.
  const claimed = await db
    .update(signInChallenges)
    .set({ usedAt: sql`now()` })
    .where(and(eq(signInChallenges.id, challenge.id), isNull(signInChallenges.usedAt)))
    .returning({ id: signInChallenges.id });
  if (claimed.length === 0) throw new Refused(410, AUTH_MESSAGES.loginExpired);

  const { token, tokenId } = await issueToken(db, challenge.userId, ttlMinutes);
  await audit(db, { ...actor, userId: challenge.userId }, { action: 'auth.signed_in', entityId: tokenId });
  return { userId: challenge.userId, token };
}

/** A new code for a sign-in still open, at most MAX_SENDS times and not sooner than a minute apart. */
export async function resendCode(db: Database, input: ResendInput) {
  const challenge = await openChallenge(db, input.login_id);
  if (!challenge) throw new Refused(410, AUTH_MESSAGES.loginExpired);
  if (Date.now() - challenge.lastSentAt.getTime() < RESEND_AFTER_SECONDS * 1000) {
    throw new Refused(429, AUTH_MESSAGES.resendTooSoon);
  }
  if (challenge.sends >= MAX_SENDS) throw new Refused(429, AUTH_MESSAGES.tooManyAttempts);

  const code = randomCode();
  await db
    .update(signInChallenges)
    .set({
      codeHash: codeHash(input.login_id, code),
      wrongTries: 0,
      sends: sql`${signInChallenges.sends} + 1`,
      lastSentAt: sql`now()`,
      expiresAt: sql`now() + make_interval(mins => ${CODE_TTL_MINUTES})`,
    })
    .where(eq(signInChallenges.id, challenge.id));
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, challenge.userId));
  return { email: user.email, code };
}

/**
 * Revokes the session's token. Logging out of an impersonated session ends the impersonation too: its
 * switch-back is spent, and the end is the admin's act.
 */
export async function signOut(tx: Database, actor: Actor, tokenId: number) {
  await revokeToken(tx, tokenId);
  await audit(tx, actor, { action: 'auth.signed_out', entityId: tokenId });
  if (!actor.impersonatorId) return;
  const ended = await tx
    .update(impersonations)
    .set({ endedAt: sql`now()`, endedBy: 'logout' })
    .where(and(eq(impersonations.accessTokenId, tokenId), isNull(impersonations.endedAt)))
    .returning({ id: impersonations.id, userId: impersonations.userId, reason: impersonations.reason });
  for (const row of ended) {
    await audit(
      tx,
      { ...actor, userId: actor.impersonatorId },
      {
        action: 'impersonation.ended',
        entityId: row.userId,
        after: { impersonation_id: row.id, reason: row.reason, ended_by: 'logout' },
      },
    );
  }
}
