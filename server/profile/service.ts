import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { AUTH_MESSAGES } from '../../contract/auth';
import { PASSWORD_MESSAGES, PROFILE_MESSAGES } from '../../contract/profile';
import type { adminProfileValidator, changePasswordValidator } from '../../contract/profile.validators';
import { voidOpenChallenges } from '../auth/challenges';
import { audit, changeAudited, userOf, type Actor } from '../audit';
import { hashPassword, verifyPassword } from '../secrets';
import { giveBack, takeHit } from '../auth/throttle';
import type { Database } from '../db/client';
import { duplicateAs } from '../db/errors';
import { accessTokens, files, users } from '../db/schema';
import { Invalid, Refused, Unauthenticated } from '../errors';
import { newKey, type WithStorage } from '../storage/storage';
import { fileUrl, IMAGE_TYPES, keyOfUrl, type Upload, type UploadRule } from '../storage/uploads';
import { normaliseEmail } from '../users';
import { forgetCallers } from '../auth/callerCache';

/** The signed-in user's own profile and password (spec sections 2 and 7). */

/** The profile form's fields; a school admin's has no gender (its validator leaves it out). */
export type ProfileInput = Omit<Awaited<ReturnType<typeof adminProfileValidator.validate>>, 'gender'> & {
  gender?: string | null;
};
type PasswordInput = Awaited<ReturnType<typeof changePasswordValidator.validate>>;

export const PHOTO_RULE: UploadRule = {
  types: IMAGE_TYPES,
  tooLarge: PROFILE_MESSAGES.photoTooLarge,
  notAccepted: PROFILE_MESSAGES.photoNotImage,
};
const PHOTO_FOLDER = 'profile-photos';

/** Wrong current passwords a user may give before being made to wait (guessing from a stolen session). */
export const WRONG_PASSWORD_LIMIT = { max: 10, windowMinutes: 15 };

type UserRow = typeof users.$inferSelect;

/** What the audit log keeps of a profile: never the password hash. */
const profileOf = (user: UserRow) => ({
  name: user.name,
  email: user.email,
  phone_number: user.phoneNumber,
  gender: user.gender,
  photo: user.photo,
});

const emailTaken = { email: [PROFILE_MESSAGES.emailTaken] };

/**
 * The profile form: name, email, phone_number, an optional photo, and gender for admins only. The photo
 * is stored before the database changes and removed again if they fail, so a failed update changes
 * nothing; the old photo goes once the new one is in place. Always audited: saving the form is an event.
 */
export async function updateProfile(
  { db, storage, log }: WithStorage,
  actor: Actor,
  input: ProfileInput,
  upload: Upload | undefined,
): Promise<void> {
  const userId = userOf(actor);
  const email = normaliseEmail(input.email);
  if (actor.impersonatorId !== null) {
    // Sign-in codes and reset codes go to this address: as with the password, whoever signs in as
    // someone must not be able to take the account over.
    const [own] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (own && own.email !== email) throw new Refused(403, PROFILE_MESSAGES.emailNotWhileImpersonating);
  }
  const [holder] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), ne(users.id, userId)));
  if (holder) throw new Invalid(emailTaken);

  const photo = upload ? { ...upload, key: newKey(PHOTO_FOLDER, upload.extension) } : null;
  if (photo) await storage.put(photo.key, photo.bytes, photo.contentType);

  let replaced: string | null = null;
  try {
    await db.transaction((tx) =>
      changeAudited(tx, actor, {
        table: users,
        id: userId,
        notFound: new Unauthenticated(),
        action: 'user.profile_updated',
        always: true,
        snapshot: profileOf,
        set: (before) => ({
          name: input.name,
          email,
          // Not sent: kept; sent empty: cleared.
          phoneNumber: input.phone_number === undefined ? before.phoneNumber : input.phone_number,
          gender: input.gender ?? before.gender,
          photo: photo ? fileUrl(photo.key) : before.photo,
        }),
        then: async (_after, before) => {
          if (!photo) return;
          await tx.insert(files).values({
            key: photo.key,
            kind: 'profile_photo',
            ownerId: userId,
            contentType: photo.contentType,
            size: photo.size,
          });
          // Only a file of ours, recorded as this user's, is ever removed.
          const oldKey = keyOfUrl(before.photo);
          if (!oldKey) return;
          const [gone] = await tx
            .delete(files)
            .where(and(eq(files.key, oldKey), eq(files.ownerId, userId)))
            .returning({ key: files.key });
          replaced = gone?.key ?? null;
        },
      }),
    );
  } catch (error) {
    if (photo) await storage.remove(photo.key).catch(() => {});
    // Two users taking the same address at once: the unique index decides, the loser hears why.
    duplicateAs('users_email_key', emailTaken)(error);
  }
  if (replaced) {
    // The database no longer points at it; a failure here leaves an orphan file, not a broken profile.
    await storage
      .remove(replaced)
      .catch((error: unknown) => log.error('storage.remove_failed', { key: replaced, error: String(error) }));
  }
}

/**
 * A new password, given the current one. Wrong current passwords are counted outside any transaction
 * (a refusal must not roll its own count back), so this takes the database, not a transaction. Whoever
 * else holds a session of this account is signed out; the session it is called from goes on.
 */
export async function changePassword(
  db: Database,
  actor: Actor,
  session: { tokenId: number; impersonated: boolean },
  input: PasswordInput,
): Promise<void> {
  if (session.impersonated) throw new Refused(403, PASSWORD_MESSAGES.notWhileImpersonating);
  const userId = userOf(actor);
  // Taken before the check (so a burst cannot all be checked first), given back when it was right.
  const failure = await takeHit(db, [{ bucket: `password:user:${userId}`, ...WRONG_PASSWORD_LIMIT }]);
  if (!failure) throw new Refused(429, AUTH_MESSAGES.tooManyAttempts);
  const [user] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new Unauthenticated();
  if (!(await verifyPassword(user.passwordHash, input.current_password))) {
    // Word for word from the spec, and a string, not field messages (spec section 8).
    throw new Invalid(PASSWORD_MESSAGES.oldIncorrect);
  }
  await giveBack(db, failure);

  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
    // Whoever else holds a session of this account (perhaps the one who learnt the old password)
    // is signed out; this session goes on.
    forgetCallers();
    const revoked = await tx
      .update(accessTokens)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(accessTokens.userId, userId),
          ne(accessTokens.id, session.tokenId),
          isNull(accessTokens.revokedAt),
        ),
      )
      .returning({ id: accessTokens.id });
    // A sign-in begun with the old password must not finish with its mailed code.
    await voidOpenChallenges(tx, userId);
    await audit(tx, actor, {
      action: 'user.password_changed',
      entityId: userId,
      after: { revoked_tokens: revoked.map((row) => row.id) },
    });
  });
}
