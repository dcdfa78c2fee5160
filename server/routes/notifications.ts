import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { NOTIFICATION_MESSAGES } from '../../contract/notifications';
import { markReadValidator, messageBoardValidator } from '../../contract/notifications.validators';
import { audit } from '../audit';
import { isLimited, recordHit } from '../auth/throttle';
import { notifications } from '../db/schema';
import { auditActor, callerOf, type AppEnv } from '../http/context';
import { invalid, ok, refuse } from '../http/respond';
import { readBody } from '../http/validate';

/** Generous: a school writing to the board is welcome; a script flooding it is not. */
const MESSAGE_LIMIT = { max: 200, windowMinutes: 60 };

/**
 * The board's notifications (spec section 7). Read state belongs to the board, not to each admin: one
 * admin marking a notification read marks it for every admin, and `read_by` says who.
 */
export const notificationRoutes = new Hono<AppEnv>()
  .get('/count-unread-notification', async (c) => {
    const [{ total }] = await c
      .get('deps')
      .database.db.select({ total: count() })
      .from(notifications)
      .where(isNull(notifications.readAt));
    return ok(c, total);
  })

  .post('/notifications/mark-read', async (c) => {
    const caller = callerOf(c);
    const input = await readBody(c, markReadValidator);
    if (input instanceof Response) return input;
    const one = input.id !== undefined && input.all !== true;
    const all = input.all === true && input.id === undefined;
    if (!one && !all) return invalid(c, { id: [NOTIFICATION_MESSAGES.markWhich] });
    const db = c.get('deps').database.db;

    if (all) {
      await db.transaction(async (tx) => {
        const marked = await tx
          .update(notifications)
          .set({ readAt: sql`now()`, readBy: caller.userId })
          .where(isNull(notifications.readAt))
          .returning({ id: notifications.id });
        if (marked.length) {
          await audit(tx, auditActor(c), {
            action: 'notification.all_marked_read',
            entity: 'notification',
            after: { count: marked.length },
          });
        }
      });
      return ok(c, undefined, NOTIFICATION_MESSAGES.allMarkedRead);
    }

    const id = input.id!;
    const found = await db.transaction(async (tx) => {
      const [notification] = await tx
        .select({ readAt: notifications.readAt })
        .from(notifications)
        .where(eq(notifications.id, id))
        .for('update');
      if (!notification) return false;
      // Marking a read one again changes nothing: who read it first, and when, stays.
      if (!notification.readAt) {
        await tx
          .update(notifications)
          .set({ readAt: sql`now()`, readBy: caller.userId })
          .where(and(eq(notifications.id, id), isNull(notifications.readAt)));
        await audit(tx, auditActor(c), {
          action: 'notification.marked_read',
          entity: 'notification',
          entityId: id,
        });
      }
      return true;
    });
    if (!found) return refuse(c, 404, NOTIFICATION_MESSAGES.notFound);
    return ok(c, undefined, NOTIFICATION_MESSAGES.markedRead);
  });

/** A school admin's message to the board: the first source of notifications. Stored as plain text. */
export const messageBoardRoutes = new Hono<AppEnv>().post('/message-board', async (c) => {
  const caller = callerOf(c);
  const input = await readBody(c, messageBoardValidator);
  if (input instanceof Response) return input;
  const db = c.get('deps').database.db;
  const bucket = `message-board:user:${caller.userId}`;
  if (await isLimited(db, [{ bucket, ...MESSAGE_LIMIT }])) {
    return refuse(c, 429, NOTIFICATION_MESSAGES.tooManyMessages);
  }
  await recordHit(db, [bucket]);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(notifications)
      .values({
        kind: 'school.message',
        title: input.subject,
        body: input.message,
        trainingSchoolId: caller.trainingSchoolId,
        createdBy: caller.userId,
      })
      .returning({ id: notifications.id });
    await audit(tx, auditActor(c), {
      action: 'notification.created',
      entity: 'notification',
      entityId: row.id,
      after: { kind: 'school.message', title: input.subject, training_school_id: caller.trainingSchoolId },
    });
  });
  return ok(c, undefined, NOTIFICATION_MESSAGES.messageSent);
});
