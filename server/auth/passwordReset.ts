import { and, eq, sql } from 'drizzle-orm';
import { AUTH_MESSAGES } from '../../contract/auth';
import { RESET_MESSAGES } from '../../contract/schools';
import type { forgotPasswordValidator, resetPasswordValidator } from '../../contract/schools.validators';
import { audit, type Actor } from '../audit';
import type { Database } from '../db/client';
import { users } from '../db/schema';
import { Invalid, Refused } from '../errors';
import {
  checkResetCode,
  claimReset,
  issueResetCode,
  mailRequestedResetCode,
  signOutEverywhere,
  type ResetPost,
} from '../schools/accounts';
import { markJoined } from '../staff/service';
import { normaliseEmail } from '../users';
import { hashPassword, verifyPassword } from '../secrets';
import { unknownBrowsersBucket } from './service';
import { clearBucket, takeHit } from './throttle';

type ResetInput = Awaited<ReturnType<typeof resetPasswordValidator.validate>>;
type ForgotInput = Awaited<ReturnType<typeof forgotPasswordValidator.validate>>;

/** Tries from one address in 15 minutes: a school's lab behind one NAT address, not a script. */
export const RESET_LIMIT_PER_ADDRESS = 30;

/**
 * 'Forgot your password?' per address and per email an hour. Each mail voids the account's older
 * codes, so the email's limit keeps a stranger from burying someone's inbox or their code; five still
 * lets a person whose mail went astray ask again. The address's is a lab behind one NAT address.
 */
export const FORGOT_LIMIT_PER_EMAIL = { max: 5, windowMinutes: 60 };
const FORGOT_LIMIT_PER_ADDRESS = { max: 20, windowMinutes: 60 };

/** What a request for a reset code leaves to its job: the address asked for, and who asked (the audit log's). */
export interface ResetRequest {
  email: string;
  ip: string | null;
  requestId: string | null;
}

/**
 * 'Forgot your password?', the request: the limits, checked and recorded in one statement, and nothing
 * else. Whether the account exists is decided by the job (`sendRequestedReset`), after the answer, so a
 * known and an unknown address are answered after the same statements (this one and the job's insert)
 * and the answer's time says nothing (docs/decisions.md "Forgot-password timing", issue 22).
 */
export async function requestPasswordReset(
  db: Database,
  actor: Actor,
  input: ForgotInput,
): Promise<ResetRequest> {
  const email = normaliseEmail(input.email);
  const taken = await takeHit(db, [
    { bucket: `forgot:ip:${actor.ip}`, ...FORGOT_LIMIT_PER_ADDRESS },
    { bucket: `forgot:email:${email}`, ...FORGOT_LIMIT_PER_EMAIL },
  ]);
  if (!taken) throw new Refused(429, AUTH_MESSAGES.tooManyAttempts);
  return { email, ip: actor.ip, requestId: actor.requestId };
}

/**
 * 'Forgot your password?', the job (server/jobs/index.ts): a reset code for the active account with this
 * email, recorded and audited, then mailed; nothing when there is no such account (a deactivated one
 * gets nothing: the board reactivates it first). Run again (a mail server that failed, pg-boss's at
 * least once), it issues a new code, which voids the one before: the newest mail is always the one
 * that works.
 */
export async function sendRequestedReset(
  deps: ResetPost & { db: Database },
  request: ResetRequest,
): Promise<'mailed' | 'no account'> {
  const { db } = deps;
  const [user] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.email, request.email), eq(users.active, true)));
  if (!user) return 'no account';
  const code = await db.transaction(async (tx) => {
    const issued = await issueResetCode(tx, user.id, null);
    await audit(
      tx,
      { userId: user.id, impersonatorId: null, ip: request.ip, requestId: request.requestId },
      { action: 'user.password_reset_requested', entityId: user.id, after: { reset_id: issued.resetId } },
    );
    return issued.code;
  });
  await mailRequestedResetCode(deps, user.email, code);
  return 'mailed';
}

/**
 * A new password with the code the board mailed. An unknown email, a deactivated account, and a wrong,
 * used or expired code all get one answer, so the page tells nobody which accounts exist or have a code
 * waiting. Tries are counted outside any transaction, so this takes the database itself. The account's
 * run of wrong passwords from unknown browsers ends here too: its owner has proved who they are.
 */
export async function resetPassword(db: Database, actor: Actor, input: ResetInput): Promise<void> {
  // Every try counts against the address, right or wrong: a reset is rare, guessing is not.
  const taken = await takeHit(db, [
    { bucket: `reset:ip:${actor.ip}`, max: RESET_LIMIT_PER_ADDRESS, windowMinutes: 15 },
  ]);
  if (!taken) throw new Refused(429, AUTH_MESSAGES.tooManyAttempts);

  const rejected = new Invalid({ code: [RESET_MESSAGES.codeRejected] });
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, normaliseEmail(input.email)), eq(users.active, true)));
  if (!user) {
    // The same work as a real check, so the answer's time does not say the account is unknown.
    await verifyPassword(null, input.code);
    throw rejected;
  }
  const check = await checkResetCode(db, user.id, input.code);
  if (check.status !== 'ok') throw rejected;

  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    if (!(await claimReset(tx, check.resetId))) throw rejected;
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: sql`now()` })
      .where(eq(users.id, user.id));
    // An invited board admin who set their password has joined (issue 26).
    await markJoined(tx, actor, user.id);
    // Whoever held a session with the old password is signed out.
    const revoked = await signOutEverywhere(tx, user.id);
    await audit(
      tx,
      { ...actor, userId: user.id },
      {
        action: 'user.password_reset',
        entityId: user.id,
        after: { reset_id: check.resetId, revoked_tokens: revoked },
      },
    );
  });
  await clearBucket(db, unknownBrowsersBucket(normaliseEmail(input.email)));
}
