import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  CONVERSATION_MESSAGES as M,
  SCHOOL_CONVERSATIONS_SHOWN,
  type Conversation,
  type ConversationSummary,
} from '../../contract/conversations';
import { NOTIFICATION_MESSAGES } from '../../contract/notifications';
import { audit, userOf, type Actor } from '../audit';
import { takeHit } from '../auth/throttle';
import type { Database } from '../db/client';
import {
  conversationMails,
  conversationMessages,
  conversations,
  notifications,
  trainingSchools,
  users,
} from '../db/schema';
import { NotFound, Refused } from '../errors';
import { MESSAGE_LIMIT } from '../notifications/service';
import { notifyBoard } from '../notifications/sources';

/**
 * A school's messages with the board (issue 26, docs/decisions.md "Issue 26: messages and notification
 * sources"). A school's message starts a conversation and tells the board (a 'school.message'
 * notification whose link opens it); a board admin answers it, which mails the school's active admins a
 * link through the outbox (conversation_mails, sent by the `conversation-mail` job); the school reads the
 * answer in the portal and may reply, which tells the board again. Plain text throughout. A school's
 * messages and replies share the message limit (MESSAGE_LIMIT, checked and taken in one statement).
 */

/** Whose conversation: the board sees any, a school admin only their school's (another's is not found). */
type Reader = { kind: 'board' } | { kind: 'school'; schoolId: number | null };

async function takeMessagePlace(tx: Database, actor: Actor) {
  const userId = userOf(actor);
  if (!(await takeHit(tx, [{ bucket: `message-board:user:${userId}`, ...MESSAGE_LIMIT }]))) {
    throw new Refused(429, NOTIFICATION_MESSAGES.tooManyMessages);
  }
  return userId;
}

/** A school admin's message to the board: a new conversation, its first message, the board's notification. */
export async function startConversation(
  tx: Database,
  actor: Actor,
  schoolId: number | null,
  input: { subject: string; message: string },
): Promise<number> {
  const userId = await takeMessagePlace(tx, actor);
  if (schoolId === null) throw new Refused(403, M.notFound);
  const [conversation] = await tx
    .insert(conversations)
    .values({ trainingSchoolId: schoolId, subject: input.subject, createdBy: userId })
    .returning({ id: conversations.id });
  await tx
    .insert(conversationMessages)
    .values({ conversationId: conversation.id, fromBoard: false, authorId: userId, body: input.message });
  await notifyBoard(tx, actor, {
    kind: 'school.message',
    title: input.subject,
    body: input.message,
    schoolId,
    subject: conversation.id,
  });
  await audit(tx, actor, {
    action: 'conversation.started',
    entityId: conversation.id,
    after: { subject: input.subject, training_school_id: schoolId },
  });
  return conversation.id;
}

/** The conversation, locked for a change when `lock`; not found when the reader may not see it. */
async function findConversation(tx: Database, reader: Reader, id: number, lock = false) {
  const query = tx
    .select({ conversation: conversations, school: trainingSchools })
    .from(conversations)
    .innerJoin(trainingSchools, eq(trainingSchools.id, conversations.trainingSchoolId))
    .where(
      and(
        eq(conversations.id, id),
        reader.kind === 'school'
          ? reader.schoolId === null
            ? sql`false`
            : eq(conversations.trainingSchoolId, reader.schoolId)
          : undefined,
      ),
    );
  const [row] = lock ? await query.for('update', { of: conversations }) : await query;
  if (!row) throw new NotFound(M.notFound);
  return row;
}

/** One conversation with every message in order, for the board or for its own school. */
export async function readConversation(tx: Database, reader: Reader, id: number): Promise<Conversation> {
  const { conversation, school } = await findConversation(tx, reader, id);
  const messages = await tx
    .select({ message: conversationMessages, author: users.name })
    .from(conversationMessages)
    .leftJoin(users, eq(users.id, conversationMessages.authorId))
    .where(eq(conversationMessages.conversationId, id))
    .orderBy(asc(conversationMessages.id));
  return {
    id: conversation.id,
    subject: conversation.subject,
    school: { id: school.id, code: school.code, name: school.name },
    created_at: conversation.createdAt.toISOString(),
    messages: messages.map(({ message, author }) => ({
      id: message.id,
      from: message.fromBoard ? 'board' : 'school',
      author,
      body: message.body,
      created_at: message.createdAt.toISOString(),
    })),
  };
}

/**
 * A board admin's answer: the message, the conversation's notifications marked read (it has been
 * answered), and one outbox row per active admin of the school, all in one transaction. The caller
 * wakes the `conversation-mail` job after the commit.
 */
export async function answerConversation(tx: Database, actor: Actor, id: number, body: string) {
  const userId = userOf(actor);
  const { conversation } = await findConversation(tx, { kind: 'board' }, id, true);
  const [message] = await tx
    .insert(conversationMessages)
    .values({ conversationId: id, fromBoard: true, authorId: userId, body })
    .returning({ id: conversationMessages.id });
  await tx
    .update(conversations)
    .set({ lastMessageAt: sql`now()`, lastFromBoard: true })
    .where(eq(conversations.id, id));
  await tx
    .update(notifications)
    .set({ readAt: sql`now()`, readBy: userId })
    .where(
      and(
        eq(notifications.kind, 'school.message'),
        eq(notifications.subject, String(id)),
        isNull(notifications.readAt),
      ),
    );
  const admins = await tx
    .select({ email: users.email })
    .from(users)
    .where(
      and(
        eq(users.role, 'school_admin'),
        eq(users.active, true),
        eq(users.trainingSchoolId, conversation.trainingSchoolId),
      ),
    );
  if (admins.length) {
    await tx
      .insert(conversationMails)
      .values(admins.map((admin) => ({ messageId: message.id, toEmail: admin.email })))
      .onConflictDoNothing();
  }
  await audit(tx, actor, {
    action: 'conversation.answered',
    entityId: id,
    after: { message_id: message.id, mails: admins.length },
  });
  return readConversation(tx, { kind: 'board' }, id);
}

/** A school admin's reply in their school's conversation: the message, and the board told again. */
export async function replyToConversation(
  tx: Database,
  actor: Actor,
  schoolId: number | null,
  id: number,
  body: string,
) {
  const { conversation } = await findConversation(tx, { kind: 'school', schoolId }, id, true);
  const userId = await takeMessagePlace(tx, actor);
  const [message] = await tx
    .insert(conversationMessages)
    .values({ conversationId: id, fromBoard: false, authorId: userId, body })
    .returning({ id: conversationMessages.id });
  // Writing a reply, the school has read what it answers.
  await tx
    .update(conversations)
    .set({ lastMessageAt: sql`now()`, lastFromBoard: false, schoolReadAt: sql`now()` })
    .where(eq(conversations.id, id));
  await notifyBoard(tx, actor, {
    kind: 'school.message',
    title: `Reply: ${conversation.subject}`,
    body,
    schoolId: conversation.trainingSchoolId,
    subject: id,
  });
  await audit(tx, actor, { action: 'conversation.replied', entityId: id, after: { message_id: message.id } });
  return readConversation(tx, { kind: 'school', schoolId }, id);
}

/** The school has read the board's answers in one conversation (when it opens it). */
export async function markAnswersRead(tx: Database, schoolId: number | null, id: number) {
  await findConversation(tx, { kind: 'school', schoolId }, id);
  await tx
    .update(conversations)
    .set({ schoolReadAt: sql`now()` })
    .where(eq(conversations.id, id));
}

// The outer row's columns are named in full: drizzle writes a column in a select's SQL by its name alone,
// which inside the subquery would be the message's own.
/** Board messages of a conversation the school has not read (after its `school_read_at`). */
const unreadOf = sql<number>`(
  select count(*)::int from ${conversationMessages} m
  where m.conversation_id = "conversations"."id" and m.from_board
    and ("conversations"."school_read_at" is null or m.created_at > "conversations"."school_read_at"))`;

/**
 * A school's conversations with the board, the latest first: its Messages page, and the Dashboard's
 * "messages with the board" (dash26's slot: `schoolConversations(tx, schoolId, { limit: 5 })`).
 */
export async function schoolConversations(
  tx: Database,
  schoolId: number,
  { limit = SCHOOL_CONVERSATIONS_SHOWN }: { limit?: number } = {},
): Promise<ConversationSummary[]> {
  const rows = await tx
    .select({
      conversation: conversations,
      messages: sql<number>`(select count(*)::int from ${conversationMessages} m where m.conversation_id = "conversations"."id")`,
      unread: unreadOf,
    })
    .from(conversations)
    .where(eq(conversations.trainingSchoolId, schoolId))
    .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
    .limit(limit);
  return rows.map(({ conversation: c, messages, unread }) => ({
    id: c.id,
    subject: c.subject,
    created_at: c.createdAt.toISOString(),
    last_message_at: c.lastMessageAt.toISOString(),
    last_from: c.lastFromBoard ? 'board' : 'school',
    messages: Number(messages),
    unread_answers: Number(unread),
  }));
}

/** How many of the board's answers a school has not read yet (the Dashboard's count, dash26). */
export async function unreadAnswers(tx: Database, schoolId: number): Promise<number> {
  const [row] = await tx
    .select({ total: count() })
    .from(conversationMessages)
    .innerJoin(conversations, eq(conversations.id, conversationMessages.conversationId))
    .where(
      and(
        eq(conversations.trainingSchoolId, schoolId),
        eq(conversationMessages.fromBoard, true),
        sql`(${conversations.schoolReadAt} is null or ${conversationMessages.createdAt} > ${conversations.schoolReadAt})`,
      ),
    );
  return row.total;
}

/** A school's conversations whose last word is the school's: waiting for the board's answer. */
export async function awaitingBoard(tx: Database, schoolId: number): Promise<number> {
  const [row] = await tx
    .select({ total: count() })
    .from(conversations)
    .where(and(eq(conversations.trainingSchoolId, schoolId), eq(conversations.lastFromBoard, false)));
  return row.total;
}

/** Conversations whose last message is the school's: waiting for the board (the board's Dashboard). */
export async function unansweredMessages(tx: Database): Promise<number> {
  const [row] = await tx
    .select({ total: count() })
    .from(conversations)
    .where(eq(conversations.lastFromBoard, false));
  return row.total;
}
