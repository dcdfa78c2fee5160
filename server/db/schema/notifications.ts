import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { createdAt } from './columns';
import { trainingSchools } from './schools';

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
    /**
     * What it is about, as its kind's link needs it (contract/notifications.ts `notificationLink`): a
     * conversation's id, a payment's reference, a candidate's index number, a broadcast's id.
     */
    subject: text('subject'),
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

/**
 * What the board tells one school (registration closing reminders, extensions): shown on that school's
 * dashboard, newest first. Plain text, shown as text.
 */
export const schoolNotices = pgTable(
  'school_notices',
  {
    id: serial('id').primaryKey(),
    trainingSchoolId: integer('training_school_id')
      .notNull()
      .references(() => trainingSchools.id),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('school_notices_school_idx').on(t.trainingSchoolId, t.createdAt)],
);
