import { count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  NOTIFICATION_MESSAGES,
  NOTIFICATION_PATHS,
  type BoardNotification,
} from '../../contract/notifications';
import { markReadValidator, messageBoardValidator } from '../../contract/notifications.validators';
import { notifications, trainingSchools } from '../db/schema';
import { Invalid } from '../errors';
import { callerOf, dbOf, transact, type AppContext } from '../http/context';
import { readPage, readPaging } from '../http/paging';
import { ok } from '../http/respond';
import { ADMIN, get, post, SCHOOL_ADMIN, type Route } from '../http/route';
import { json } from '../http/validate';
import { markAllRead, markRead, sendMessage } from '../notifications/service';

/** One page of the unread or the read notifications, newest first (each list has its partial index). */
async function listNotifications(c: AppContext, read: boolean) {
  const paging = readPaging(c);
  const db = c.get('deps').database.db;
  const where = read ? isNotNull(notifications.readAt) : isNull(notifications.readAt);
  // Newest first by the partial indexes on (created_at, id); paged by number (unread lists stay short).
  const page = await readPage(
    db,
    paging,
    {
      rows: () =>
        db
          .select({ notification: notifications, school: trainingSchools })
          .from(notifications)
          .leftJoin(trainingSchools, eq(trainingSchools.id, notifications.trainingSchoolId))
          .$dynamic(),
      where,
      matching: () =>
        db
          .select({ one: sql`1` })
          .from(notifications)
          .$dynamic(),
      order: { orderBy: [desc(notifications.createdAt), desc(notifications.id)] },
    },
    ({ notification: n, school }): BoardNotification => ({
      id: n.id,
      kind: n.kind,
      title: n.title,
      body: n.body,
      school: school ? { id: school.id, code: school.code, name: school.name } : null,
      created_at: n.createdAt.toISOString(),
      read_at: n.readAt?.toISOString() ?? null,
    }),
  );
  return ok(c, page);
}

/** The board's notifications (spec section 7; server/notifications/service.ts). */
export const notificationRoutes: Route[] = [
  get(NOTIFICATION_PATHS.unread, ADMIN, (c) => listNotifications(c, false)),
  get(NOTIFICATION_PATHS.read, ADMIN, (c) => listNotifications(c, true)),

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
