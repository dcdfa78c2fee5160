import { count, isNull } from 'drizzle-orm';
import { NOTIFICATION_MESSAGES, NOTIFICATION_PATHS } from '../../contract/notifications';
import { markReadValidator, messageBoardValidator } from '../../contract/notifications.validators';
import { notifications } from '../db/schema';
import { Invalid } from '../errors';
import { callerOf, dbOf, transact } from '../http/context';
import { ok } from '../http/respond';
import { ADMIN, get, post, SCHOOL_ADMIN, type Route } from '../http/route';
import { json } from '../http/validate';
import { markAllRead, markRead, sendMessage } from '../notifications/service';

/** The board's notifications (spec section 7; server/notifications/service.ts). */
export const notificationRoutes: Route[] = [
  get(NOTIFICATION_PATHS.count, ADMIN, async (c) => {
    const [{ total }] = await dbOf(c)
      .select({ total: count() })
      .from(notifications)
      .where(isNull(notifications.readAt));
    return ok(c, total);
  }),

  /** `{ id }` for one, `{ all: true }` for every unread one. */
  post(NOTIFICATION_PATHS.markRead, ADMIN, json(markReadValidator), async (c) => {
    const { id, all } = c.req.valid('json');
    if (all === true && id === undefined) {
      await transact(c, markAllRead);
      return ok(c, undefined, NOTIFICATION_MESSAGES.allMarkedRead);
    }
    if (id === undefined || all === true) throw new Invalid({ id: [NOTIFICATION_MESSAGES.markWhich] });
    await transact(c, (tx, actor) => markRead(tx, actor, id));
    return ok(c, undefined, NOTIFICATION_MESSAGES.markedRead);
  }),
];

/** A school admin's message to the board. */
export const messageBoardRoutes: Route[] = [
  post(NOTIFICATION_PATHS.messageBoard, SCHOOL_ADMIN, json(messageBoardValidator), async (c) => {
    const schoolId = callerOf(c).trainingSchoolId;
    await transact(c, (tx, actor) => sendMessage(tx, actor, schoolId, c.req.valid('json')));
    return ok(c, undefined, NOTIFICATION_MESSAGES.messageSent);
  }),
];
