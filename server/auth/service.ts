import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
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
import { randomCode, randomSecret, sameHash, sha256, verifyPassword } from '../secrets';
import { knownBrowserOf, rememberBrowser } from './knownBrowsers';
import { clearBucket, giveBack, takeHit } from './throttle';
import { issueToken, revokeToken } from './tokens';

/**
 * Sign-in is two steps: the password, then a 6-digit code mailed to the account. These services answer
 * what to mail and leave the mailing to the caller. Limits are taken outside any transaction (a
 * refusal must not roll its own count back), so they take the database itself.
 */

type LoginInput = Awaited<ReturnType<typeof loginValidator.validate>>;
type ConfirmInput = Awaited<ReturnType<typeof confirmCodeValidator.validate>>;
type ResendInput = Awaited<ReturnType<typeof resendCodeValidator.validate>>;

export const CODE_TTL_MINUTES = 10;
export const MAX_WRONG_CODES = 5;
const RESEND_AFTER_SECONDS = 60;
export const MAX_SENDS = 5;

/**
 * The password step's limits (docs/decisions.md, "Sign-in limits"). Every one is taken in the statement
 * that checks it, before the password is; those that count wrong passwords give their hit back when
 * the password is right.
 * - perAddress: every attempt from one address, whatever the account: a script, not a school lab
 *   (a board office or a lab signs many people in from one NAT address).
 * - perAccountAndAddress: wrong passwords for one account from one unknown browser's address.
 * - perKnownBrowser: wrong passwords from a browser that signed in to the account before.
 * - perAccountFromUnknown: wrong passwords for one account from all unknown browsers in a day (NIST SP
 *   800-63B: at most 100 consecutive failures); a completed sign-in or a password reset clears it. It
 *   stops unknown browsers only: the account's known browsers still sign in.
 */
export const LOGIN_LIMITS = {
  windowMinutes: 15,
  perAddress: 100,
  perAccountAndAddress: 10,
  perKnownBrowser: 10,
  perAccountFromUnknown: 100,
  unknownWindowMinutes: 24 * 60,
};
export const CONFIRM_LIMIT_PER_ADDRESS = 30;

/** The account-wide bucket of wrong passwords from unknown browsers. */
export const unknownBrowsersBucket = (email: string) => `login:unknown:${email}`;

/** The code's hash is bound to the login id, which is never stored, so a copy of the table is no help. */
const codeHash = (loginId: string, code: string) => sha256(`${loginId}:${code}`);

/** Not used, not voided, not expired: a challenge whose code may still be spent. */
const isOpen = () =>
  and(
    isNull(signInChallenges.usedAt),
    isNull(signInChallenges.voidedAt),
    gt(signInChallenges.expiresAt, sql`now()`),
  );

/**
 * The password step: a new sign-in waiting for its code (answered with the code, to mail).
 * `browserCookie` is the known-browser cookie the request carried, if any.
 */
export async function startSignIn(db: Database, actor: Actor, input: LoginInput, browserCookie?: string) {
  const email = normaliseEmail(input.email);
  const L = LOGIN_LIMITS;
  const tooMany = new Refused(429, AUTH_MESSAGES.tooManyAttempts);
  if (
    !(await takeHit(db, [
      { bucket: `login:ip:${actor.ip}`, max: L.perAddress, windowMinutes: L.windowMinutes },
    ]))
  ) {
    throw tooMany;
  }

  // A suspended board admin is found too, to be told so once their password is right (issue 26); any
  // other inactive account is as unknown as one that does not exist.
  const [found] = await db
    .select({ id: users.id, passwordHash: users.passwordHash, active: users.active })
    .from(users)
    .where(and(eq(users.email, email), or(eq(users.active, true), eq(users.role, 'admin'))));
  const user = found?.active ? found : undefined;
  const browser = user ? await knownBrowserOf(db, user.id, browserCookie) : null;
  // An unknown email goes through the unknown browser's limits, as any stranger's attempt does.
  const failures = await takeHit(
    db,
    browser !== null
      ? [{ bucket: `login:browser:${browser}`, max: L.perKnownBrowser, windowMinutes: L.windowMinutes }]
      : [
          {
            bucket: `login:account:${email}:ip:${actor.ip}`,
            max: L.perAccountAndAddress,
            windowMinutes: L.windowMinutes,
          },
          {
            bucket: unknownBrowsersBucket(email),
            max: L.perAccountFromUnknown,
            windowMinutes: L.unknownWindowMinutes,
          },
        ],
  );
  if (!failures) throw tooMany;
  // Unknown email and wrong password answer alike, in the same time; the hits taken stay counted.
  if (!(await verifyPassword(found?.passwordHash ?? null, input.password)) || !found) {
    throw new Invalid({ email: [AUTH_MESSAGES.credentialsRejected] });
  }
  if (!user) throw new Refused(403, AUTH_MESSAGES.accountSuspended);
  await giveBack(db, failures);

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

/**
 * The code step: a token for the account, once (answered with the signed-in user's id and token, and
 * the known-browser cookie to set). Failed confirmations only (an unknown login id, a wrong code) count
 * against the address: a board office or a school behind one address signs many people in each
 * morning, and must not be held back by its own successes.
 */
export async function confirmSignIn(
  db: Database,
  actor: Actor,
  input: ConfirmInput,
  ttlMinutes: number,
  browserCookie?: string,
) {
  const failure = await takeHit(db, [
    { bucket: `confirm:ip:${actor.ip}`, max: CONFIRM_LIMIT_PER_ADDRESS, windowMinutes: 15 },
  ]);
  if (!failure) throw new Refused(429, AUTH_MESSAGES.tooManyAttempts);

  // A try is taken in the statement that checks the code is open and has tries left, so at most
  // MAX_WRONG_CODES guesses are ever compared, however many arrive at once.
  const [tried] = await db
    .update(signInChallenges)
    .set({ wrongTries: sql`${signInChallenges.wrongTries} + 1` })
    .where(
      and(
        eq(signInChallenges.loginIdHash, sha256(input.login_id)),
        isOpen(),
        lt(signInChallenges.wrongTries, MAX_WRONG_CODES),
      ),
    )
    .returning({
      id: signInChallenges.id,
      userId: signInChallenges.userId,
      codeHash: signInChallenges.codeHash,
      tries: signInChallenges.wrongTries,
    });
  if (!tried) throw new Refused(410, AUTH_MESSAGES.loginExpired);

  if (!sameHash(tried.codeHash, codeHash(input.login_id, input.code))) {
    if (tried.tries < MAX_WRONG_CODES) throw new Invalid({ code: [AUTH_MESSAGES.codeRejected] });
    await db
      .update(signInChallenges)
      .set({ voidedAt: sql`now()` })
      .where(and(eq(signInChallenges.id, tried.id), isNull(signInChallenges.voidedAt)));
    throw new Refused(410, AUTH_MESSAGES.codeVoided);
  }

  // Spent in the statement that checks it is still open: a code voided or used meanwhile (a newer
  // sign-in, a reset, a racing request) is not.
  const claimed = await db
    .update(signInChallenges)
    .set({ usedAt: sql`now()` })
    .where(and(eq(signInChallenges.id, tried.id), isOpen()))
    .returning({ id: signInChallenges.id });
  if (claimed.length === 0) throw new Refused(410, AUTH_MESSAGES.loginExpired);
  await giveBack(db, failure);

  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, tried.userId));
  // A completed sign-in ends the run of wrong passwords from unknown browsers.
  await clearBucket(db, unknownBrowsersBucket(user.email));
  const browser = await rememberBrowser(db, tried.userId, browserCookie);
  const { token, tokenId } = await issueToken(db, tried.userId, ttlMinutes);
  await audit(db, { ...actor, userId: tried.userId }, { action: 'auth.signed_in', entityId: tokenId });
  return { userId: tried.userId, token, browser };
}

/**
 * A new code for a sign-in still open, at most MAX_SENDS times and not sooner than a minute apart:
 * both checked in the statement that sends, so a burst of resends mails one code.
 */
export async function resendCode(db: Database, input: ResendInput) {
  const code = randomCode();
  const loginIdHash = sha256(input.login_id);
  const [sent] = await db
    .update(signInChallenges)
    .set({
      codeHash: codeHash(input.login_id, code),
      wrongTries: 0,
      sends: sql`${signInChallenges.sends} + 1`,
      lastSentAt: sql`now()`,
      expiresAt: sql`now() + make_interval(mins => ${CODE_TTL_MINUTES})`,
    })
    .where(
      and(
        eq(signInChallenges.loginIdHash, loginIdHash),
        isOpen(),
        lt(signInChallenges.sends, MAX_SENDS),
        lt(signInChallenges.lastSentAt, sql`now() - make_interval(secs => ${RESEND_AFTER_SECONDS})`),
      ),
    )
    .returning({ userId: signInChallenges.userId });
  if (!sent) {
    // Refused: say why, from the row as it is now.
    const [challenge] = await db
      .select({ sends: signInChallenges.sends })
      .from(signInChallenges)
      .where(and(eq(signInChallenges.loginIdHash, loginIdHash), isOpen()));
    if (!challenge) throw new Refused(410, AUTH_MESSAGES.loginExpired);
    if (challenge.sends >= MAX_SENDS) throw new Refused(429, AUTH_MESSAGES.tooManyAttempts);
    throw new Refused(429, AUTH_MESSAGES.resendTooSoon);
  }
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, sent.userId));
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
