import { sql } from 'drizzle-orm';
import {
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ResitPaper } from '../../../contract/resits';
import { users } from './auth';
import { candidates } from './candidates';
import { createdAt } from './columns';
import { diets } from './diets';

/** The board's lists of candidates: exam offenders and resit entries (server/listed.ts). */

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
 * Offences recorded against an indexed candidate at a diet. A sanction runs for a number of diets after
 * that one (`sanctionDiets`), or from `sanctionFrom` to `sanctionUntil` (inclusive; none: indefinitely);
 * a diet it covers cannot be registered for (server/sanctions.ts). Removing a row from the list keeps it
 * (removed_at, removed_by) for the audit trail.
 */
export const examOffences = pgTable(
  'exam_offences',
  {
    id: serial('id').primaryKey(),
    candidateId: integer('candidate_id')
      .notNull()
      .references(() => candidates.id),
    /** The diet the offence was committed at. */
    dietId: integer('diet_id')
      .notNull()
      .references(() => diets.id),
    /** The exam as typed before diets existed (kept by the migration to diets; null since). */
    exam: text('exam'),
    offence: text('offence').notNull(),
    sanction: text('sanction').notNull(),
    /** A sanction by diets: the candidate sits none of this many diets after the offence's. */
    sanctionDiets: smallint('sanction_diets'),
    /** A sanction by dates (when sanction_diets is null). */
    sanctionFrom: date('sanction_from', { mode: 'string' }),
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
 * Resit entries: an indexed candidate sitting some papers again at a diet. Removing a row from the list
 * keeps it (removed_at, removed_by); a candidate has at most one listed entry per diet.
 */
export const resits = pgTable(
  'resits',
  {
    id: serial('id').primaryKey(),
    candidateId: integer('candidate_id')
      .notNull()
      .references(() => candidates.id),
    dietId: integer('diet_id')
      .notNull()
      .references(() => diets.id),
    /** The exam as typed before diets existed (kept by the migration to diets; null since). */
    exam: text('exam'),
    /** The papers sat again, e.g. ['Paper I', 'Practical']. */
    papers: jsonb('papers').$type<ResitPaper[]>().notNull(),
    ...listedRowColumns(),
  },
  (t) => [
    uniqueIndex('resits_listed_key')
      .on(t.candidateId, t.dietId)
      .where(sql`${t.removedAt} is null`),
    index('resits_listed_idx')
      .on(t.id)
      .where(sql`${t.removedAt} is null`),
  ],
);
