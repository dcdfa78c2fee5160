import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { createdAt } from './columns';
import { trainingSchools } from './schools';

/**
 * A school's messages with the board (issue 26): a conversation is the school's first message and every
 * answer and reply after it, in order. Plain text, shown as text.
 */
export const conversations = pgTable(
  'conversations',
  {
    id: serial('id').primaryKey(),
    trainingSchoolId: integer('training_school_id')
      .notNull()
      .references(() => trainingSchools.id),
    subject: text('subject').notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    /** When its last message was written, and whether the board wrote it. */
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    lastFromBoard: boolean('last_from_board').notNull().default(false),
    /** When the school last opened it: the board's messages after this are its unread answers. */
    schoolReadAt: timestamp('school_read_at', { withTimezone: true }),
  },
  (t) => [index('conversations_school_idx').on(t.trainingSchoolId, t.lastMessageAt)],
);

export const conversationMessages = pgTable(
  'conversation_messages',
  {
    id: serial('id').primaryKey(),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => conversations.id),
    fromBoard: boolean('from_board').notNull(),
    authorId: integer('author_id').references(() => users.id),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('conversation_messages_conversation_idx').on(t.conversationId, t.id)],
);

/**
 * The outbox of the board's answers: one row per mail (an answer, one school admin's address), written in
 * the answer's transaction, mailed by the `conversation-mail` job and marked mailed in the same
 * transaction as its sending, one row a transaction (server/conversations/mail.ts).
 */
export const conversationMails = pgTable(
  'conversation_mails',
  {
    id: serial('id').primaryKey(),
    messageId: integer('message_id')
      .notNull()
      .references(() => conversationMessages.id),
    toEmail: text('to_email').notNull(),
    createdAt: createdAt(),
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('conversation_mails_message_to_key').on(t.messageId, t.toEmail),
    index('conversation_mails_pending_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.mailedAt} is null`),
  ],
);
