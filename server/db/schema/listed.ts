import { sql } from 'drizzle-orm';
import {
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ResitPaper } from '../../../contract/resits';
import { users } from './auth';
import { candidates } from './candidates';
import { createdAt } from './columns';

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
