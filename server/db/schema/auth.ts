import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { trainingSchools } from './schools';

/** Accounts, sessions, sign-in codes, rate-limit hits, impersonations and password resets. */

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** Stored lower-cased, so the unique index is case-blind. */
    email: text('email').notNull(),
    phoneNumber: text('phone_number'),
    photo: text('photo'),
    gender: text('gender'),
    /** admin or school_admin. */
    role: text('role').notNull(),
    operatorId: text('operator_id'),
    trainingSchoolId: integer('training_school_id').references(() => trainingSchools.id),
    passwordHash: text('password_hash').notNull(),
    /** False: deactivated (a school admin) or suspended (a board admin); no token of theirs resolves. */
    active: boolean('active').notNull().default(true),
    /** A board admin added by invitation (issue 26): when they were invited, and when they first set a
     * password through the mailed link (null until then: their status is 'invited'). */
    invitedAt: timestamp('invited_at', { withTimezone: true }),
    joinedAt: timestamp('joined_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), index('users_school_idx').on(t.trainingSchoolId)],
);

/** Sanctum-style tokens: the client holds `id|secret`, we keep only the SHA-256 of the secret. */
export const accessTokens = pgTable(
  'access_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    /** The admin who is signed in as this user, when the token is an impersonation. */
    impersonatorId: integer('impersonator_id').references(() => users.id),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('access_tokens_hash_key').on(t.tokenHash),
    index('access_tokens_user_idx').on(t.userId),
  ],
);

/** A sign-in waiting for its mailed code. `login_id` and code are both stored as hashes. */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    loginIdHash: text('login_id_hash').notNull(),
    codeHash: text('code_hash').notNull(),
    wrongTries: smallint('wrong_tries').notNull().default(0),
    sends: smallint('sends').notNull().default(1),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sign_in_challenges_login_id_key').on(t.loginIdHash),
    index('sign_in_challenges_user_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * A browser that completed a sign-in to this account (OWASP's device cookie): it holds `id.secret` in
 * an HttpOnly cookie, and only the secret's SHA-256 is kept here. A known browser is not held back by
 * the account-wide limit on wrong passwords from unknown browsers (server/auth/service.ts).
 */
export const knownBrowsers = pgTable(
  'known_browsers',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    secretHash: text('secret_hash').notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('known_browsers_user_idx').on(t.userId)],
);

/** Attempts counted for rate limits (per account and per address), kept in the database so every
 * API process behind a load balancer sees the same counts. */
export const throttleHits = pgTable(
  'throttle_hits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    bucket: text('bucket').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('throttle_hits_bucket_at_idx').on(t.bucket, t.at)],
);

/** An admin signed in as a school admin: who, why, with which token, and how it ended. */
export const impersonations = pgTable(
  'impersonations',
  {
    id: serial('id').primaryKey(),
    adminId: integer('admin_id')
      .notNull()
      .references(() => users.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    reason: text('reason').notNull(),
    /** The school admin's token minted for this impersonation: only its bearer can switch back. */
    accessTokenId: integer('access_token_id')
      .notNull()
      .references(() => accessTokens.id),
    /** SHA-256 of the switch-back token the browser holds. */
    switchBackHash: text('switch_back_hash').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** How it ended: 'switch_back' or 'logout'. */
    endedBy: text('ended_by'),
  },
  (t) => [
    uniqueIndex('impersonations_access_token_key').on(t.accessTokenId),
    index('impersonations_admin_idx').on(t.adminId, t.startedAt),
    index('impersonations_user_idx').on(t.userId, t.startedAt),
  ],
);

/**
 * Password-reset codes a board admin sends a school admin: stored hashed, single use, with an expiry
 * and a count of wrong tries, like sign-in codes.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);

/**
 * The outbox of board-staff invitations (issue 26): one row per invitation mail asked for (the first,
 * and each re-send). The job 'staff-invitation' mails a row once: it locks the row, issues the reset
 * code the link carries, sends, and marks it mailed in one transaction; a second worker skips the
 * locked row, and a mailed one is never sent again.
 */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    invitedBy: integer('invited_by').references(() => users.id),
    createdAt: createdAt(),
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
  },
  (t) => [index('staff_invitations_user_idx').on(t.userId)],
);
