import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { RESET_PASSWORD_PAGE } from '../../contract/paths';
import { RESET_CODE_TTL_HOURS, RESET_MAX_ATTEMPTS } from '../../contract/schools';
import { voidOpenChallenges } from '../auth/challenges';
import { hashPassword, randomCode, verifyPassword } from '../secrets';
import type { Database } from '../db/client';
import { accessTokens, passwordResets } from '../db/schema';
import type { AppContext } from '../http/context';
import type { Mail, Mailer } from '../mail/mailer';
import { forgetCallers } from '../auth/callerCache';

/**
 * Signs an account out everywhere: its live tokens are revoked, any sign-in it has begun is voided and
 * any reset code still open stops working, so a deactivated account or a reset password leaves no way
 * back in (a code mailed before a deactivation does not come back with a reactivation). Answers the
 * revoked tokens' ids.
 */
export async function signOutEverywhere(db: Database, userId: number): Promise<number[]> {
  forgetCallers();
  const revoked = await db
    .update(accessTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(accessTokens.userId, userId), isNull(accessTokens.revokedAt)))
    .returning({ id: accessTokens.id });
  await voidOpenChallenges(db, userId);
  await expireOpenResets(db, userId);
  return revoked.map((row) => row.id);
}

async function expireOpenResets(db: Database, userId: number) {
  await db
    .update(passwordResets)
    .set({ expiresAt: sql`now()` })
    .where(
      and(
        eq(passwordResets.userId, userId),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, sql`now()`),
      ),
    );
}

/**
 * A new 6-digit reset code for the account; any older one stops working (only the newest mail counts).
 * The code is kept only as an argon2 hash: six digits are few, so a fast hash would give them away to
 * anyone holding a copy of the table.
 */
export async function issueResetCode(
  db: Database,
  userId: number,
  createdBy: number | null,
  ttlHours: number = RESET_CODE_TTL_HOURS,
) {
  const code = randomCode();
  const codeHash = await hashPassword(code);
  await expireOpenResets(db, userId);
  const [row] = await db
    .insert(passwordResets)
    .values({
      userId,
      codeHash,
      createdBy,
      expiresAt: sql`now() + make_interval(hours => ${ttlHours})`,
    })
    .returning({ id: passwordResets.id });
  return { code, resetId: row.id };
}

type ResetCheck = { status: 'ok'; resetId: number } | { status: 'rejected' };

/**
 * Checks a code against the account's open reset (unused, unexpired, fewer than RESET_MAX_ATTEMPTS
 * tries). The try is taken first, in the one statement that checks the count, so guesses sent all at
 * once cannot slip past the limit between a read and a write; five wrong guesses spend the code. With
 * no open reset the code is still checked, against a decoy, so the answer's time tells nothing.
 */
export async function checkResetCode(db: Database, userId: number, code: string): Promise<ResetCheck> {
  const newestOpen = db
    .select({ id: passwordResets.id })
    .from(passwordResets)
    .where(
      and(
        eq(passwordResets.userId, userId),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(passwordResets.id))
    .limit(1);
  const [open] = await db
    .update(passwordResets)
    .set({ attempts: sql`${passwordResets.attempts} + 1` })
    .where(and(eq(passwordResets.id, sql`(${newestOpen})`), lt(passwordResets.attempts, RESET_MAX_ATTEMPTS)))
    .returning({ id: passwordResets.id, codeHash: passwordResets.codeHash });
  if (await verifyPassword(open?.codeHash ?? null, code)) return { status: 'ok', resetId: open!.id };
  return { status: 'rejected' };
}

/**
 * Marks the reset used; false when another request used it first or it was expired meanwhile (a newer
 * code, a deactivation): both checked in the statement that marks it, so single use holds in a race.
 */
export async function claimReset(db: Database, resetId: number): Promise<boolean> {
  const claimed = await db
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(passwordResets.id, resetId),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: passwordResets.id });
  return claimed.length > 0;
}

/** The reset code's mail; the code is in the subject too, as with sign-in codes. */
export async function mailResetCode(c: AppContext, email: string, code: string, newAccount: boolean) {
  await sendResetMail(
    postOf(c),
    { to: email, kind: newAccount ? 'new account' : 'password reset code' },
    code,
    newAccount
      ? 'An account has been made for you on the examinations board portal.'
      : 'The examinations board has sent you a code to set a new password.',
  );
}

/** The mail of 'Forgot your password?': the same code and words, asked for by the account's owner. */
export async function mailRequestedResetCode(post: ResetPost, email: string, code: string) {
  await sendResetMail(
    post,
    { to: email, kind: 'requested reset code' },
    code,
    'Someone, we hope you, asked the examinations board portal for a code to set a new password.',
  );
}

/** What a reset mail needs: the mailer, and the portal's address for the link (a job has no request). */
export interface ResetPost {
  mailer: Mailer;
  publicUrl: string;
}

const postOf = (c: AppContext): ResetPost => ({
  mailer: c.get('deps').mailer,
  publicUrl: c.get('deps').config.publicUrl,
});

async function sendResetMail(
  { mailer, publicUrl }: ResetPost,
  recipient: Pick<Mail, 'to' | 'kind'>,
  code: string,
  opening: string,
) {
  await mailer.send({
    ...recipient,
    subject: `Your password reset code: ${code}`,
    text: [
      opening,
      '',
      `Your code is ${code}. It works once, for ${RESET_CODE_TTL_HOURS} hours.`,
      `Set your password at ${publicUrl}${RESET_PASSWORD_PAGE} with this email address and the code,`,
      'then sign in.',
      '',
      'If you did not expect this email, tell the examinations board.',
    ].join('\n'),
  });
}
