import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  pgTable,
  real,
  serial,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './auth';
import { candidates } from './candidates';
import { files } from './files';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * The integrity reports (issue 27, server/integrity/): what a candidate's photo looks like to the
 * duplicate finder, kept so that a full run reads numbers rather than photos. One row a stored photo
 * (the `files` row of field 'photo'); it goes with the file (a replaced photo's row is deleted, and so is
 * this). `hash` is a 64-bit similarity hash of the photo's normalised 16×16 greyscale (close photos,
 * close hashes) and `thumb` that greyscale itself (256 signed bytes), which decides a pair the hash
 * brought together. Both null: the photo could not be read (recorded, so no run reads it again).
 */
export const photoHashes = pgTable(
  'photo_hashes',
  {
    fileId: integer('file_id')
      .primaryKey()
      .references(() => files.id, { onDelete: 'cascade' }),
    candidateId: integer('candidate_id')
      .notNull()
      .references(() => candidates.id, { onDelete: 'cascade' }),
    hash: bigint('hash', { mode: 'bigint' }),
    thumb: bytea('thumb'),
  },
  (t) => [index('photo_hashes_candidate_idx').on(t.candidateId)],
);

/**
 * Candidates to check against the rest, queued in the transaction that indexes one or changes their
 * photo or identity, and taken by the 'integrity-check' job (skip locked): a check is never lost to a
 * crash between the commit and the job.
 */
export const integrityPending = pgTable('integrity_pending', {
  candidateId: integer('candidate_id')
    .primaryKey()
    .references(() => candidates.id, { onDelete: 'cascade' }),
  queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Two candidates who may be one person: the same photo (by its hash and greyscale) and/or the same
 * name and date of birth. `candidate_a` < `candidate_b`, one row a pair. A pair marked 'not the same
 * person' keeps its row (not_same_at, not_same_by), so no later run reports it again; the other rows are
 * what the last runs found (`checked_at`), and a run removes those it no longer finds.
 */
export const duplicatePairs = pgTable(
  'duplicate_pairs',
  {
    id: serial('id').primaryKey(),
    candidateA: integer('candidate_a')
      .notNull()
      .references(() => candidates.id, { onDelete: 'cascade' }),
    candidateB: integer('candidate_b')
      .notNull()
      .references(() => candidates.id, { onDelete: 'cascade' }),
    samePhoto: boolean('same_photo').notNull(),
    sameIdentity: boolean('same_identity').notNull(),
    /** The photos' likeness, 0 to 1 (the greyscales' correlation), when both have one. */
    photoLikeness: real('photo_likeness'),
    foundAt: timestamp('found_at', { withTimezone: true }).notNull().defaultNow(),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
    notSameAt: timestamp('not_same_at', { withTimezone: true }),
    notSameBy: integer('not_same_by').references(() => users.id),
  },
  (t) => [
    uniqueIndex('duplicate_pairs_key').on(t.candidateA, t.candidateB),
    index('duplicate_pairs_b_idx').on(t.candidateB),
    index('duplicate_pairs_open_idx')
      .on(t.id)
      .where(sql`${t.notSameAt} is null`),
  ],
);

/** When the last full run over every candidate finished (one row). */
export const integrityScans = pgTable('integrity_scans', {
  id: integer('id').primaryKey().default(1),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true }).notNull(),
  candidates: integer('candidates').notNull(),
  pairs: integer('pairs').notNull(),
  ms: integer('ms').notNull(),
});
