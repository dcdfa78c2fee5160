import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { AUTH_MESSAGES } from '../../contract/auth';
import { PASSWORD_MESSAGES, PROFILE_MESSAGES } from '../../contract/profile';
import {
  adminProfileValidator,
  changePasswordValidator,
  schoolProfileValidator,
} from '../../contract/profile.validators';
import type { Role } from '../../contract/roles';
import { audit } from '../audit';
import { hashPassword, verifyPassword } from '../auth/secrets';
import { isLimited, recordHit } from '../auth/throttle';
import { isUniqueViolation } from '../db/errors';
import { accessTokens, files, signInChallenges, users } from '../db/schema';
import { auditActor, callerOf, type AppContext, type AppEnv } from '../http/context';
import { invalid, ok, refuse, unauthenticated } from '../http/respond';
import { readBody, readForm } from '../http/validate';
import { newKey } from '../storage/storage';
import { fileUrl, IMAGE_TYPES, keyOfUrl, type UploadRule } from '../storage/uploads';
import { findUserView, normaliseEmail } from '../users';

const PHOTO_RULE: UploadRule = {
  types: IMAGE_TYPES,
  tooLarge: PROFILE_MESSAGES.photoTooLarge,
  notAccepted: PROFILE_MESSAGES.photoNotImage,
};
const PHOTO_FOLDER = 'profile-photos';

/** Wrong current passwords a user may give before being made to wait (guessing from a stolen session). */
const WRONG_PASSWORD_LIMIT = { max: 10, windowMinutes: 15 };

type UserRow = typeof users.$inferSelect;

/** What the audit log keeps of a profile: never the password hash. */
const profileOf = (user: Pick<UserRow, 'name' | 'email' | 'phoneNumber' | 'gender' | 'photo'>) => ({
  name: user.name,
  email: user.email,
  phone_number: user.phoneNumber,
  gender: user.gender,
  photo: user.photo,
});

/**
 * The profile form (spec section 7): name, email, phone_number, an optional photo, and gender for
 * admins only. The photo is stored before the database changes and removed again if they fail, so a
 * failed update changes nothing; the old photo goes once the new one is in place.
 */
async function updateProfile(c: AppContext, role: Role) {
  const caller = callerOf(c);
  const form = await readForm(c, role === 'admin' ? adminProfileValidator : schoolProfileValidator, {
    photo: PHOTO_RULE,
  });
  if (form instanceof Response) return form;
  const { input, files: uploads } = form;
  const { database, storage, log } = c.get('deps');
  const db = database.db;

  const email = normaliseEmail(input.email);
  const [holder] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), ne(users.id, caller.userId)));
  if (holder) return invalid(c, { email: [PROFILE_MESSAGES.emailTaken] });

  const photo = uploads.photo
    ? { ...uploads.photo, key: newKey(PHOTO_FOLDER, uploads.photo.extension) }
    : null;
  if (photo) await storage.put(photo.key, photo.bytes, photo.contentType);

  let replaced: string | null = null;
  try {
    const found = await db.transaction(async (tx) => {
      const [before] = await tx.select().from(users).where(eq(users.id, caller.userId)).for('update');
      if (!before) return false;
      const sentGender = 'gender' in input ? (input.gender as string | null | undefined) : null;
      const gender = sentGender ?? before.gender;
      const changes = {
        name: input.name,
        email,
        // Not sent: kept; sent empty: cleared.
        phoneNumber: input.phone_number === undefined ? before.phoneNumber : input.phone_number,
        gender,
        photo: photo ? fileUrl(photo.key) : before.photo,
      };
      await tx
        .update(users)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(eq(users.id, before.id));
      if (photo) {
        await tx.insert(files).values({
          key: photo.key,
          kind: 'profile_photo',
          ownerId: before.id,
          contentType: photo.contentType,
          size: photo.size,
        });
        // Only a file of ours, recorded as this user's, is ever removed.
        const oldKey = keyOfUrl(before.photo);
        if (oldKey) {
          const [gone] = await tx
            .delete(files)
            .where(and(eq(files.key, oldKey), eq(files.ownerId, before.id)))
            .returning({ key: files.key });
          replaced = gone?.key ?? null;
        }
      }
      await audit(tx, auditActor(c), {
        action: 'user.profile_updated',
        entity: 'user',
        entityId: before.id,
        before: profileOf(before),
        after: profileOf(changes),
      });
      return true;
    });
    if (!found) {
      if (photo) await storage.remove(photo.key);
      return unauthenticated(c);
    }
  } catch (error) {
    if (photo) await storage.remove(photo.key).catch(() => {});
    // Two users taking the same address at once: the unique index decides, the loser hears why.
    if (isUniqueViolation(error, 'users_email_key'))
      return invalid(c, { email: [PROFILE_MESSAGES.emailTaken] });
    throw error;
  }
  if (replaced) {
    // The database no longer points at it; a failure here leaves an orphan file, not a broken profile.
    await storage
      .remove(replaced)
      .catch((error: unknown) => log.error('storage.remove_failed', { key: replaced, error: String(error) }));
  }
  return ok(c, undefined, PROFILE_MESSAGES.updated);
}

/** The signed-in user's own profile and password; mounted under each role's prefix (spec section 7). */
export const profileRoutes = new Hono<AppEnv>()
  .get('/user-profile-information', async (c) => {
    const caller = callerOf(c);
    const user = await findUserView(c.get('deps').database.db, caller.userId, caller.impersonatorId);
    return user ? ok(c, user) : unauthenticated(c);
  })

  .post('/change-password', async (c) => {
    const caller = callerOf(c);
    if (caller.impersonatorId) return refuse(c, 403, PASSWORD_MESSAGES.notWhileImpersonating);
    const input = await readBody(c, changePasswordValidator);
    if (input instanceof Response) return input;
    const db = c.get('deps').database.db;

    const bucket = `password:user:${caller.userId}`;
    if (await isLimited(db, [{ bucket, ...WRONG_PASSWORD_LIMIT }])) {
      return refuse(c, 429, AUTH_MESSAGES.tooManyAttempts);
    }
    const [user] = await db
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, caller.userId));
    if (!user) return unauthenticated(c);
    if (!(await verifyPassword(user.passwordHash, input.current_password))) {
      await recordHit(db, [bucket]);
      // Word for word from the spec, and a string, not field messages (spec section 8).
      return c.json({ success: false, message: PASSWORD_MESSAGES.oldIncorrect }, 422);
    }

    const passwordHash = await hashPassword(input.password);
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ passwordHash, updatedAt: sql`now()` })
        .where(eq(users.id, caller.userId));
      // Whoever else holds a session of this account (perhaps the one who learnt the old password)
      // is signed out; this session goes on.
      const revoked = await tx
        .update(accessTokens)
        .set({ revokedAt: sql`now()` })
        .where(
          and(
            eq(accessTokens.userId, caller.userId),
            ne(accessTokens.id, caller.tokenId),
            isNull(accessTokens.revokedAt),
          ),
        )
        .returning({ id: accessTokens.id });
      // A sign-in begun with the old password must not finish with its mailed code.
      await tx
        .update(signInChallenges)
        .set({ voidedAt: sql`now()` })
        .where(
          and(
            eq(signInChallenges.userId, caller.userId),
            isNull(signInChallenges.usedAt),
            isNull(signInChallenges.voidedAt),
          ),
        );
      await audit(tx, auditActor(c), {
        action: 'user.password_changed',
        entity: 'user',
        entityId: caller.userId,
        after: { revoked_tokens: revoked.map((row) => row.id) },
      });
    });
    return ok(c, { message: PASSWORD_MESSAGES.changed });
  });

/** Spec section 7: the admin's form posts multipart with `_method=PUT`; the route is the POST itself. */
export const adminProfileRoutes = new Hono<AppEnv>().post('/user-profile-update', (c) =>
  updateProfile(c, 'admin'),
);

/** Spec section 7: the school admin's form posts multipart with `_method=POST`. */
export const schoolProfileRoutes = new Hono<AppEnv>().post('/update-user-training-school-profile', (c) =>
  updateProfile(c, 'school_admin'),
);
