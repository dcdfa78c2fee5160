import { isNull, sql } from 'drizzle-orm';
import { NOTIFICATION_MESSAGES as M } from '../../contract/notifications';
import type { messageBoardValidator } from '../../contract/notifications.validators';
import { audit, changeAudited, userOf, type Actor } from '../audit';
import { takeHit } from '../auth/throttle';
import type { Database } from '../db/client';
import { notifications } from '../db/schema';
import { Refused } from '../errors';

/**
 * The board's notifications. Read state belongs to the board, not to each admin: one admin marking a
 * notification read marks it for every admin, and `read_by` says who.
 */

type MessageInput = Awaited<ReturnType<typeof messageBoardValidator.validate>>;

/**
 * Messages a school admin may send the board in an hour. Generous: a school writing to the board is
 * welcome; a script flooding it is not.
 */
export const MESSAGE_LIMIT = { max: 200, windowMinutes: 60 };

/** Marks one read; marking a read one again changes nothing: who read it first, and when, stays. */
export async function markRead(tx: Database, actor: Actor, id: number) {
  await changeAudited(tx, actor, {
    table: notifications,
    id,
    notFound: M.notFound,
    action: 'notification.marked_read',
    snapshot: (row) => ({ read_at: row.readAt?.toISOString() ?? null, read_by: row.readBy }),
    set: (row) => (row.readAt ? {} : { readAt: sql`now()`, readBy: actor.userId }),
  });
}

/** Marks every unread one read, as one audit entry with how many. */
export async function markAllRead(tx: Database, actor: Actor) {
  const marked = await tx
    .update(notifications)
    .set({ readAt: sql`now()`, readBy: actor.userId })
    .where(isNull(notifications.readAt))
    .returning({ id: notifications.id });
  if (marked.length) {
    await audit(tx, actor, { action: 'notification.all_marked_read', after: { count: marked.length } });
  }
}

/**
 * A school admin's message to the board: the first source of notifications, stored as plain text.
 * Limited per school admin, the place taken in the same transaction as the message.
 */
export async function sendMessage(tx: Database, actor: Actor, schoolId: number | null, input: MessageInput) {
  const userId = userOf(actor);
  if (!(await takeHit(tx, [{ bucket: `message-board:user:${userId}`, ...MESSAGE_LIMIT }]))) {
    throw new Refused(429, M.tooManyMessages);
  }
  const [row] = await tx
    .insert(notifications)
    .values({
      kind: 'school.message',
      title: input.subject,
      body: input.message,
      trainingSchoolId: schoolId,
      createdBy: userId,
    })
    .returning({ id: notifications.id });
  await audit(tx, actor, {
    action: 'notification.created',
    entityId: row.id,
    after: { kind: 'school.message', title: input.subject, training_school_id: schoolId },
  });
}
