import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { RegStatus } from '../../../contract/candidates';
import { users } from './auth';
import { candidates } from './candidates';
import { createdAt, updatedAt } from './columns';
import { trainingSchools } from './schools';

/**
 * Exam diets (contract/diets.ts): the sittings that registration, resits and sanctions belong to. The
 * registration window is two moments (closes exclusive: at `registration_closes_at` it is closed); one
 * diet at most is current (the partial unique index); a closed diet is past.
 */
export const diets = pgTable(
  'diets',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    firstPaperOn: date('first_paper_on', { mode: 'string' }).notNull(),
    lastPaperOn: date('last_paper_on', { mode: 'string' }).notNull(),
    registrationOpensAt: timestamp('registration_opens_at', { withTimezone: true }).notNull(),
    registrationClosesAt: timestamp('registration_closes_at', { withTimezone: true }).notNull(),
    current: boolean('current').notNull().default(false),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: integer('closed_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('diets_code_key').on(t.code),
    uniqueIndex('diets_one_current_key')
      .on(t.current)
      .where(sql`${t.current}`),
    index('diets_first_paper_idx').on(t.firstPaperOn),
  ],
);

/** One school's registration for a diet runs to `until` (exclusive), not the diet's close. */
export const dietExtensions = pgTable(
  'diet_extensions',
  {
    id: serial('id').primaryKey(),
    dietId: integer('diet_id')
      .notNull()
      .references(() => diets.id),
    trainingSchoolId: integer('training_school_id')
      .notNull()
      .references(() => trainingSchools.id),
    until: timestamp('until', { withTimezone: true }).notNull(),
    reason: text('reason').notNull(),
    grantedBy: integer('granted_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('diet_extensions_school_key').on(t.dietId, t.trainingSchoolId)],
);

/**
 * A candidate's registration for a diet (spec: reg_status, per diet here). No row: unregistered. A row
 * is kept when a candidate is unregistered again, so the history of every diet stays.
 */
export const registrations = pgTable(
  'registrations',
  {
    dietId: integer('diet_id')
      .notNull()
      .references(() => diets.id),
    candidateId: integer('candidate_id')
      .notNull()
      .references(() => candidates.id),
    regStatus: text('reg_status').$type<RegStatus>().notNull(),
    changedBy: integer('changed_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.dietId, t.candidateId] }),
    // The registered of a diet, newest indexed first (the list's order is the candidate's id).
    index('registrations_status_idx').on(t.dietId, t.regStatus, t.candidateId),
    index('registrations_candidate_idx').on(t.candidateId),
    // The dashboard's registrations per day.
    index('registrations_diet_created_idx')
      .on(t.dietId, t.createdAt)
      .where(sql`${t.regStatus} = 'registered'`),
  ],
);

/**
 * The closing reminders sent: one a diet, school, threshold (hours before closing) and closing moment,
 * so two workers, a retried job or a restart send each once, and an extension earns its own.
 */
export const registrationReminders = pgTable(
  'registration_reminders',
  {
    dietId: integer('diet_id')
      .notNull()
      .references(() => diets.id),
    trainingSchoolId: integer('training_school_id')
      .notNull()
      .references(() => trainingSchools.id),
    hoursBefore: smallint('hours_before').notNull(),
    closesAt: timestamp('closes_at', { withTimezone: true }).notNull(),
    unregistered: integer('unregistered').notNull(),
    sentAt: createdAt(),
    /** When the school's admins were mailed it (null: still to mail; a later run mails it). */
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.dietId, t.trainingSchoolId, t.hoursBefore, t.closesAt] })],
);
