import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { AUTH_MESSAGES } from '../../contract/auth';
import { confirmCodeValidator, loginValidator, resendCodeValidator } from '../../contract/auth.validators';
import { CONFIRM_CODE_PATH } from '../../contract/navigation';
import { audit } from '../audit';
import { voidOpenChallenges } from '../auth/challenges';
import { randomCode, randomSecret, sameHash, sha256, verifyPassword } from '../auth/secrets';
import { isLimited, recordHit } from '../auth/throttle';
import { issueToken, revokeToken } from '../auth/tokens';
import { impersonations, signInChallenges, users } from '../db/schema';
import { auditActor, callerOf, type AppContext, type AppEnv } from '../http/context';
import { invalid, ok, refuse } from '../http/respond';
import { readBody } from '../http/validate';
import { findUserView, normaliseEmail } from '../users';

/** Sign-in is two steps: the password, then a 6-digit code mailed to the account. */
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

async function mailCode(c: AppContext, email: string, code: string) {
  const { mailer, config } = c.get('deps');
  await mailer.send({
    to: email,
    subject: `Your sign-in code: ${code}`,
    text: [
      `Your sign-in code is ${code}.`,
      '',
      `Enter it on the portal within ${CODE_TTL_MINUTES} minutes: ${config.publicUrl}${CONFIRM_CODE_PATH}`,
      'If you did not try to sign in, someone may know your password: change it after signing in.',
    ].join('\n'),
  });
}

/** The open challenge a login id points to, or null when it is unknown, used, voided or expired. */
async function openChallenge(c: AppContext, loginId: string) {
  const db = c.get('deps').database.db;
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

export const authRoutes = new Hono<AppEnv>()
  .post('/login', async (c) => {
    const input = await readBody(c, loginValidator);
    if (input instanceof Response) return input;
    const db = c.get('deps').database.db;
    const email = normaliseEmail(input.email);
    const buckets = [`login:ip:${c.get('ip')}`, `login:email:${email}`];
    const limited = await isLimited(db, [
      { bucket: buckets[0], max: LOGIN_LIMITS.perAddress, windowMinutes: LOGIN_LIMITS.windowMinutes },
      { bucket: buckets[1], max: LOGIN_LIMITS.perAccount, windowMinutes: LOGIN_LIMITS.windowMinutes },
    ]);
    if (limited) return refuse(c, 429, AUTH_MESSAGES.tooManyAttempts);
    await recordHit(db, [buckets[0]]);

    const [user] = await db
      .select({ id: users.id, passwordHash: users.passwordHash })
      .from(users)
      .where(and(eq(users.email, email), eq(users.active, true)));
    // Unknown email and wrong password answer alike, in the same time.
    if (!(await verifyPassword(user?.passwordHash ?? null, input.password)) || !user) {
      await recordHit(db, [buckets[1]]);
      return invalid(c, { email: [AUTH_MESSAGES.credentialsRejected] });
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
    await mailCode(c, email, code);
    return ok(c, { login_id: loginId, email }, AUTH_MESSAGES.codeSent);
  })

  .post('/confirm-code', async (c) => {
    const input = await readBody(c, confirmCodeValidator);
    if (input instanceof Response) return input;
    const { db } = c.get('deps').database;
    const { config } = c.get('deps');
    // Failed confirmations only (an unknown login id, a wrong code) count against the address: a board
    // office or a school behind one address signs many people in each morning, and must not be held back
    // by its own successes.
    const bucket = `confirm:ip:${c.get('ip')}`;
    if (await isLimited(db, [{ bucket, max: CONFIRM_LIMIT_PER_ADDRESS, windowMinutes: 15 }])) {
      return refuse(c, 429, AUTH_MESSAGES.tooManyAttempts);
    }

    const challenge = await openChallenge(c, input.login_id);
    if (!challenge) {
      await recordHit(db, [bucket]);
      return refuse(c, 410, AUTH_MESSAGES.loginExpired);
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
      if (after?.voidedAt) return refuse(c, 410, AUTH_MESSAGES.codeVoided);
      return invalid(c, { code: [AUTH_MESSAGES.codeRejected] });
    }

    // Single use, even when two requests race: only the one that marks it used goes on.
    const claimed = await db
      .update(signInChallenges)
      .set({ usedAt: sql`now()` })
      .where(and(eq(signInChallenges.id, challenge.id), isNull(signInChallenges.usedAt)))
      .returning({ id: signInChallenges.id });
    if (claimed.length === 0) return refuse(c, 410, AUTH_MESSAGES.loginExpired);

    const { token, tokenId } = await issueToken(db, challenge.userId, config.tokenTtlMinutes);
    const user = await findUserView(db, challenge.userId);
    if (!user) return refuse(c, 410, AUTH_MESSAGES.loginExpired);
    await audit(
      db,
      { ...auditActor(c), actorId: user.id },
      {
        action: 'auth.signed_in',
        entity: 'access_token',
        entityId: tokenId,
      },
    );
    return ok(c, { user, access_token: token });
  })

  .post('/resend-code', async (c) => {
    const input = await readBody(c, resendCodeValidator);
    if (input instanceof Response) return input;
    const { db } = c.get('deps').database;
    const challenge = await openChallenge(c, input.login_id);
    if (!challenge) return refuse(c, 410, AUTH_MESSAGES.loginExpired);
    if (Date.now() - challenge.lastSentAt.getTime() < RESEND_AFTER_SECONDS * 1000) {
      return refuse(c, 429, AUTH_MESSAGES.resendTooSoon);
    }
    if (challenge.sends >= MAX_SENDS) return refuse(c, 429, AUTH_MESSAGES.tooManyAttempts);

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
    await mailCode(c, user.email, code);
    return ok(c, undefined, 'A new code has been sent to your email address.');
  })

  .post('/logout', async (c) => {
    const caller = callerOf(c);
    const { db } = c.get('deps').database;
    await db.transaction(async (tx) => {
      await revokeToken(tx, caller.tokenId);
      await audit(tx, auditActor(c), {
        action: 'auth.signed_out',
        entity: 'access_token',
        entityId: caller.tokenId,
      });
      // Logging out of an impersonated session ends the impersonation: its switch-back is spent.
      if (caller.impersonatorId) {
        const ended = await tx
          .update(impersonations)
          .set({ endedAt: sql`now()`, endedBy: 'logout' })
          .where(and(eq(impersonations.accessTokenId, caller.tokenId), isNull(impersonations.endedAt)))
          .returning({ id: impersonations.id, userId: impersonations.userId, reason: impersonations.reason });
        for (const row of ended) {
          await audit(
            tx,
            { ...auditActor(c), actorId: caller.impersonatorId, impersonatorId: caller.impersonatorId },
            {
              action: 'impersonation.ended',
              entity: 'user',
              entityId: row.userId,
              after: { impersonation_id: row.id, reason: row.reason, ended_by: 'logout' },
            },
          );
        }
      }
    });
    return ok(c, undefined, AUTH_MESSAGES.loggedOut);
  });
