import { and, eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { AUTH_MESSAGES } from '../../contract/auth';
import { RESET_MESSAGES } from '../../contract/schools';
import { forgotPasswordValidator, resetPasswordValidator } from '../../contract/schools.validators';
import { audit } from '../audit';
import { hashPassword, randomCode, verifyPassword } from '../auth/secrets';
import { isLimited, recordHit, takeHit } from '../auth/throttle';
import { users } from '../db/schema';
import { auditActor, type AppEnv } from '../http/context';
import { invalid, ok, refuse } from '../http/respond';
import { readBody } from '../http/validate';
import {
  checkResetCode,
  claimReset,
  issueResetCode,
  mailRequestedResetCode,
  signOutEverywhere,
} from '../schools/accounts';
import { normaliseEmail } from '../users';

/** Tries from one address in 15 minutes: a school's lab behind one NAT address, not a script. */
const RESET_LIMIT_PER_ADDRESS = 30;

/**
 * 'Forgot your password?' per address and per email an hour. Each mail voids the account's older
 * codes, so the email's limit keeps a stranger from burying someone's inbox or their code; five still
 * lets a person whose mail went astray ask again. The address's is a lab behind one NAT address.
 */
const FORGOT_LIMIT_PER_EMAIL = { max: 5, windowMinutes: 60 };
const FORGOT_LIMIT_PER_ADDRESS = { max: 20, windowMinutes: 60 };

/**
 * POST /api/auth/reset-password (public): the code the board mailed, and a new password. An unknown
 * email, a deactivated account, and a wrong, used or expired code all get one answer, so the page
 * tells nobody which accounts exist or have a code waiting.
 */
export const passwordResetRoutes = new Hono<AppEnv>().post('/reset-password', async (c) => {
  const input = await readBody(c, resetPasswordValidator);
  if (input instanceof Response) return input;
  const { db } = c.get('deps').database;
  const bucket = `reset:ip:${c.get('ip')}`;
  if (await isLimited(db, [{ bucket, max: RESET_LIMIT_PER_ADDRESS, windowMinutes: 15 }])) {
    return refuse(c, 429, AUTH_MESSAGES.tooManyAttempts);
  }
  await recordHit(db, [bucket]);

  const rejected = () => invalid(c, { code: [RESET_MESSAGES.codeRejected] });
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, normaliseEmail(input.email)), eq(users.active, true)));
  if (!user) {
    // The same work as a real check, so the answer's time does not say the account is unknown.
    await verifyPassword(null, input.code);
    return rejected();
  }
  const check = await checkResetCode(db, user.id, input.code);
  if (check.status !== 'ok') return rejected();

  const passwordHash = await hashPassword(input.password);
  const done = await db.transaction(async (tx) => {
    if (!(await claimReset(tx, check.resetId))) return false;
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: sql`now()` })
      .where(eq(users.id, user.id));
    // Whoever held a session with the old password is signed out.
    const revoked = await signOutEverywhere(tx, user.id);
    await audit(
      tx,
      { ...auditActor(c), actorId: user.id },
      {
        action: 'user.password_reset',
        entity: 'user',
        entityId: user.id,
        after: { reset_id: check.resetId, revoked_tokens: revoked },
      },
    );
    return true;
  });
  if (!done) return rejected();
  return ok(c, undefined, RESET_MESSAGES.done);
});

/**
 * POST /api/auth/forgot-password (public): mails a reset code to the active account with this email.
 * One answer, after the same work (an argon2 hash), whether or not there is such an account; the
 * mail itself is sent after the answer, so a slow mail server says nothing either. A deactivated
 * account gets nothing: the board reactivates it first.
 */
passwordResetRoutes.post('/forgot-password', async (c) => {
  const input = await readBody(c, forgotPasswordValidator);
  if (input instanceof Response) return input;
  const { database, log } = c.get('deps');
  const email = normaliseEmail(input.email);
  const taken = await takeHit(database.db, [
    { bucket: `forgot:ip:${c.get('ip')}`, ...FORGOT_LIMIT_PER_ADDRESS },
    { bucket: `forgot:email:${email}`, ...FORGOT_LIMIT_PER_EMAIL },
  ]);
  if (!taken) return refuse(c, 429, AUTH_MESSAGES.tooManyAttempts);

  const [user] = await database.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.email, email), eq(users.active, true)));
  if (!user) {
    await hashPassword(randomCode()); // What issuing a code costs, so the time says nothing.
    return ok(c, undefined, RESET_MESSAGES.codeMailed);
  }
  const code = await database.db.transaction(async (tx) => {
    const issued = await issueResetCode(tx, user.id, null);
    await audit(
      tx,
      { ...auditActor(c), actorId: user.id },
      {
        action: 'user.password_reset_requested',
        entity: 'user',
        entityId: user.id,
        after: { reset_id: issued.resetId },
      },
    );
    return issued.code;
  });
  mailRequestedResetCode(c, user.email, code).catch((error: unknown) => {
    // The code is stored; the person can ask again. The code itself never goes in the log.
    log.error('mail.failed', {
      to: user.email,
      error: error instanceof Error ? error.message : String(error),
    });
  });
  return ok(c, undefined, RESET_MESSAGES.codeMailed);
});
