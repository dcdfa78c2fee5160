import { isNull, sql } from 'drizzle-orm';
import { NOTIFICATION_MESSAGES as M } from '../../contract/notifications';
import { audit, changeAudited, type Actor } from '../audit';
import type { Database } from '../db/client';
import { notifications } from '../db/schema';

/**
 * The board's notifications. Read state belongs to the board, not to each admin: one admin marking a
 * notification read marks it for every admin, and `read_by` says who.
 */

/**
 * Messages a school admin may send the board in an hour (a new conversation or a reply: server/conversations). Generous: a school writing to the board is
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
