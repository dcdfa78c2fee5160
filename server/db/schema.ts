import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { CERTIFICATE_FIELDS, SUBJECT_FIELDS } from '../../contract/candidates';
import type { CourseStatus } from '../../contract/courses';
import type { ResitPaper } from '../../contract/resits';
import type { SchoolStatus } from '../../contract/schools';

/**
 * One schema for both drivers (PGlite and PostgreSQL); drizzle-kit turns it into the SQL migrations
 * under server/db/migrations, which are applied at start.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const trainingSchools = pgTable(
  'training_schools',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    state: text('state').notNull(),
    country: text('country').notNull().default('NG'),
    address: text('address').notNull().default(''),
    contactEmail: text('contact_email'),
    contactPhone: text('contact_phone'),
    /** active or suspended. */
    status: text('status').$type<SchoolStatus>().notNull().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('training_schools_code_key').on(t.code), index('training_schools_name_idx').on(t.name)],
);

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
    active: boolean('active').notNull().default(true),
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

export const courseHeaders = pgTable(
  'course_headers',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    title: text('title').notNull(),
    /** open or closed. */
    indexingStatus: text('indexing_status').$type<CourseStatus>().notNull().default('open'),
    registrationStatus: text('registration_status').$type<CourseStatus>().notNull().default('open'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('course_headers_code_key').on(t.code)],
);

export const nationalities = pgTable(
  'nationalities',
  {
    id: serial('id').primaryKey(),
    /** ISO 3166-1 alpha-2. */
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** Nigeria 0, the rest by name. */
    position: integer('position').notNull(),
  },
  (t) => [
    uniqueIndex('nationalities_code_key').on(t.code),
    index('nationalities_position_idx').on(t.position),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: integer('actor_id').references(() => users.id),
    impersonatorId: integer('impersonator_id').references(() => users.id),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    requestId: text('request_id'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_entity_idx').on(t.entity, t.entityId),
    index('audit_log_actor_idx').on(t.actorId),
  ],
);

/** Every file the portal stores (server/storage): the key is made by the server, never by the user. */
export const files = pgTable(
  'files',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    /** What the file is for, which decides who may see it: 'profile_photo' or 'candidate_upload'. */
    kind: text('kind').notNull(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    /** Found by the file's content, never taken from the upload's headers. */
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    /** A candidate's upload: whose, and which field of the form (contract UPLOAD_FIELDS). */
    candidateId: integer('candidate_id').references((): AnyPgColumn => candidates.id),
    field: text('field'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('files_key_key').on(t.key),
    index('files_owner_idx').on(t.ownerId),
    // One stored file a field of a candidate; a replaced one is deleted in the same transaction.
    uniqueIndex('files_candidate_field_key').on(t.candidateId, t.field),
  ],
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
 * What schools did, for the board to read. Read state is the board's, not each admin's: one admin
 * marking a notification read marks it for all (read_by says who).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    /** Plain text, shown as text. */
    body: text('body').notNull(),
    trainingSchoolId: integer('training_school_id').references(() => trainingSchools.id),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
    readBy: integer('read_by').references(() => users.id),
    /** Facts of a kind that groups (candidates.registered: `{ count }`), so a group can be updated. */
    data: jsonb('data'),
  },
  (t) => [
    // Partial indexes, read backwards for the lists' newest-first order: the unread count and the
    // unread list touch only the unread rows, however many have been read over the years.
    index('notifications_unread_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.readAt} is null`),
    index('notifications_read_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.readAt} is not null`),
  ],
);

/** Index numbers come from one sequence for the whole board: a number is never given twice, even after
 * a failed insert or a removed candidate (gaps are fine, reuse is not). */
export const candidateIndexSequence = pgSequence('candidate_index_seq', { startWith: 1 });

/** Optional text columns named as the form's fields (contract/candidates.ts). */
const textColumns = <const F extends readonly string[]>(fields: F) =>
  Object.fromEntries(fields.map((field) => [field, text(field)])) as {
    [K in F[number]]: ReturnType<typeof text>;
  };

/**
 * Indexed candidates. The form's text fields are columns under the form's own names (snake_case, so the
 * record maps onto contract TextField without a table of renames); school_code and course_header are
 * the foreign keys to the school and the course header. `search_text` is generated by the database from
 * the names and the index number, lower-cased, so it can never drift from them whoever writes the row.
 */
export const candidates = pgTable(
  'candidates',
  {
    id: serial('id').primaryKey(),
    /** WHB/<yy>/<course header>/<6-digit sequence> (contract formatCandidateIndex). */
    candidateIndex: text('candidate_index').notNull(),
    trainingSchoolId: integer('training_school_id')
      .notNull()
      .references(() => trainingSchools.id),
    courseHeaderId: integer('course_header_id')
      .notNull()
      .references(() => courseHeaders.id),
    /** The year the candidate was indexed in (Lagos time). */
    year: smallint('year').notNull(),
    first_name: text('first_name').notNull(),
    last_name: text('last_name').notNull(),
    middle_name: text('middle_name'),
    title: text('title'),
    date_of_birth: date('date_of_birth', { mode: 'string' }).notNull(),
    candidate_category: text('candidate_category').notNull(),
    marital_status: text('marital_status').notNull(),
    gender: text('gender').notNull(),
    /** ISO 3166-1 alpha-2, one of `nationalities`. */
    nationality: text('nationality').notNull(),
    ...textColumns(CERTIFICATE_FIELDS),
    ...textColumns(SUBJECT_FIELDS),
    /** unregistered or registered (contract REG_STATUSES). */
    regStatus: text('reg_status').notNull().default('unregistered'),
    /** The board has checked the candidate's documents. */
    verified: boolean('verified').notNull().default(false),
    verifiedBy: integer('verified_by').references(() => users.id),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** The form's key for one submission: a retry with it answers the first result (idempotency). */
    submissionKey: text('submission_key'),
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        sql.raw(
          `lower(first_name || ' ' || coalesce(middle_name || ' ', '') || last_name || ' ' || candidate_index)`,
        ),
      ),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('candidates_index_key').on(t.candidateIndex),
    uniqueIndex('candidates_submission_key').on(t.submissionKey),
    // The duplicate rule (same person, school and course header), also when two submissions race.
    uniqueIndex('candidates_person_key').on(
      t.trainingSchoolId,
      t.courseHeaderId,
      sql`lower(${t.first_name})`,
      sql`lower(${t.last_name})`,
      t.date_of_birth,
    ),
    // Every list filter, each with the id for the lists' newest-first order (id desc).
    index('candidates_school_idx').on(t.trainingSchoolId, t.id),
    index('candidates_course_header_idx').on(t.courseHeaderId, t.id),
    index('candidates_year_idx').on(t.year, t.id),
    index('candidates_reg_status_idx').on(t.regStatus, t.id),
    index('candidates_verified_idx').on(t.verified, t.id),
    // Search words of 3 characters or more: anywhere in the names and the index number, by trigrams
    // (pg_trgm) for LIKE '%word%'. Shorter words: the start of the first or last name, by these two.
    index('candidates_search_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    index('candidates_first_name_prefix_idx').on(sql`lower(${t.first_name}) text_pattern_ops`),
    index('candidates_last_name_prefix_idx').on(sql`lower(${t.last_name}) text_pattern_ops`),
  ],
);

/**
 * Who added a row to one of the board's lists and when, and who removed it from the list and when: a
 * removed row is kept for the audit trail, and only rows with no `removed_at` are listed.
 */
const listedRowColumns = () => ({
  createdBy: integer('created_by')
    .notNull()
    .references(() => users.id),
  createdAt: createdAt(),
  removedAt: timestamp('removed_at', { withTimezone: true }),
  removedBy: integer('removed_by').references(() => users.id),
});

/**
 * Offences recorded against an indexed candidate. A sanction runs from `sanctionFrom` to `sanctionUntil`
 * (inclusive; none: indefinitely); while it runs the candidate cannot be registered. Removing a row from
 * the list keeps it (removed_at, removed_by) for the audit trail.
 */
export const examOffences = pgTable(
  'exam_offences',
  {
    id: serial('id').primaryKey(),
    candidateId: integer('candidate_id')
      .notNull()
      .references(() => candidates.id),
    /** The exam the offence was committed at, e.g. 'May 2026 Professional Examination'. */
    exam: text('exam').notNull(),
    offence: text('offence').notNull(),
    sanction: text('sanction').notNull(),
    sanctionFrom: date('sanction_from', { mode: 'string' }).notNull(),
    sanctionUntil: date('sanction_until', { mode: 'string' }),
    ...listedRowColumns(),
  },
  (t) => [
    index('exam_offences_candidate_idx').on(t.candidateId),
    index('exam_offences_listed_idx')
      .on(t.id)
      .where(sql`${t.removedAt} is null`),
  ],
);

/**
 * Resit entries: an indexed candidate sitting some papers again at an exam. Removing a row from the list
 * keeps it (removed_at, removed_by); a candidate has at most one listed entry per exam.
 */
export const resits = pgTable(
  'resits',
  {
    id: serial('id').primaryKey(),
    candidateId: integer('candidate_id')
      .notNull()
      .references(() => candidates.id),
    exam: text('exam').notNull(),
    /** The papers sat again, e.g. ['Paper I', 'Practical']. */
    papers: jsonb('papers').$type<ResitPaper[]>().notNull(),
    ...listedRowColumns(),
  },
  (t) => [
    uniqueIndex('resits_listed_key')
      .on(t.candidateId, t.exam)
      .where(sql`${t.removedAt} is null`),
    index('resits_listed_idx')
      .on(t.id)
      .where(sql`${t.removedAt} is null`),
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

export const schema = {
  trainingSchools,
  users,
  accessTokens,
  signInChallenges,
  throttleHits,
  courseHeaders,
  nationalities,
  auditLog,
  files,
  impersonations,
  notifications,
  candidates,
  examOffences,
  resits,
  passwordResets,
};
