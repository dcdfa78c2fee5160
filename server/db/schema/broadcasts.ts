import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { AudienceKind } from '../../../contract/broadcasts';
import { users } from './auth';
import { createdAt } from './columns';
import { files } from './files';
import { trainingSchools } from './schools';

/**
 * The board's broadcasts (issue 26). The audience is resolved when a broadcast is sent: its schools are
 * the rows of broadcast_recipients, fixed from then on (a school added later, or one that moves state,
 * does not join or leave it); `audience` keeps what was chosen, for the board to read.
 */
export const broadcasts = pgTable('broadcasts', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  /** Plain text, shown as text. */
  body: text('body').notNull(),
  audience: jsonb('audience')
    .$type<{ kind: AudienceKind; description: string; criteria: unknown }>()
    .notNull(),
  requiresAcknowledgement: boolean('requires_acknowledgement').notNull(),
  createdBy: integer('created_by').references(() => users.id),
  createdAt: createdAt(),
  withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
  withdrawnBy: integer('withdrawn_by').references(() => users.id),
  /** Reminders sent, and the last one's time: checked and counted by one statement (the limit). */
  reminders: smallint('reminders').notNull().default(0),
  lastRemindedAt: timestamp('last_reminded_at', { withTimezone: true }),
});

/** A broadcast's files: each a `files` row (kind 'broadcast_attachment'), with the name it came with. */
export const broadcastAttachments = pgTable(
  'broadcast_attachments',
  {
    id: serial('id').primaryKey(),
    broadcastId: integer('broadcast_id')
      .notNull()
      .references(() => broadcasts.id),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id),
    /** The name the file was sent with (shown as text). */
    name: text('name').notNull(),
    position: smallint('position').notNull(),
  },
  (t) => [index('broadcast_attachments_broadcast_idx').on(t.broadcastId, t.position)],
);

/** The schools a broadcast was sent to (fixed at sending), and what each did with it. */
export const broadcastRecipients = pgTable(
  'broadcast_recipients',
  {
    broadcastId: integer('broadcast_id')
      .notNull()
      .references(() => broadcasts.id),
    trainingSchoolId: integer('training_school_id')
      .notNull()
      .references(() => trainingSchools.id),
    readAt: timestamp('read_at', { withTimezone: true }),
    readBy: integer('read_by').references(() => users.id),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: integer('acknowledged_by').references(() => users.id),
  },
  (t) => [
    primaryKey({ columns: [t.broadcastId, t.trainingSchoolId] }),
    // A school's own list and its count to acknowledge.
    index('broadcast_recipients_school_idx').on(t.trainingSchoolId, t.broadcastId),
  ],
);

/**
 * The outbox of broadcast mail: one row a recipient (a school admin) and a round (0: the broadcast,
 * 1 to 3: reminders), written in the transaction that sends or reminds, mailed by the 'broadcast-mail'
 * job. The unique key makes a round's row once; a row is marked sent in the transaction that mails it,
 * taken with `skip locked`, so two workers never mail the same row.
 */
export const broadcastMails = pgTable(
  'broadcast_mails',
  {
    id: serial('id').primaryKey(),
    broadcastId: integer('broadcast_id')
      .notNull()
      .references(() => broadcasts.id),
    trainingSchoolId: integer('training_school_id')
      .notNull()
      .references(() => trainingSchools.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    round: smallint('round').notNull(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    attempts: smallint('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (t) => [
    uniqueIndex('broadcast_mails_once_key').on(t.broadcastId, t.userId, t.round),
    index('broadcast_mails_pending_idx')
      .on(t.id)
      .where(sql`${t.sentAt} is null`),
  ],
);
