import { count, desc, eq, isNull } from 'drizzle-orm';
import { NOTIFICATION_MESSAGES, SCHOOL_NOTICES_SHOWN, type SchoolNotice } from '../../contract/notifications';
import { NOTIFICATION_ENDPOINTS as E } from '../../contract/notifications.endpoints';
import { notifications, schoolNotices } from '../db/schema';
import { Invalid } from '../errors';
import { callerOf, dbOf, transact } from '../http/context';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';
import { startConversation } from '../conversations/service';
import { markAllRead, markRead } from '../notifications/service';

/** The board's notifications (spec section 7; server/notifications/service.ts). */
export const notificationRoutes: Route[] = [
  serve(E.count, async (c) => {
    const [{ total }] = await dbOf(c)
      .select({ total: count() })
      .from(notifications)
      .where(isNull(notifications.readAt));
    return ok(c, total);
  }),

  serve(E.markRead, async (c) => {
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

/** A school admin's message to the board; what the board has told their school. */
export const messageBoardRoutes: Route[] = [
  serve(E.schoolNotices, async (c) => {
    const schoolId = callerOf(c).trainingSchoolId;
    if (schoolId === null) return ok(c, [] as SchoolNotice[]);
    const rows = await dbOf(c)
      .select()
      .from(schoolNotices)
      .where(eq(schoolNotices.trainingSchoolId, schoolId))
      .orderBy(desc(schoolNotices.createdAt), desc(schoolNotices.id))
      .limit(SCHOOL_NOTICES_SHOWN);
    const notices: SchoolNotice[] = rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      title: row.title,
      body: row.body,
      created_at: row.createdAt.toISOString(),
    }));
    return ok(c, notices);
  }),

  serve(E.messageBoard, async (c) => {
    const schoolId = callerOf(c).trainingSchoolId;
    const id = await transact(c, (tx, actor) => startConversation(tx, actor, schoolId, c.req.valid('json')));
    return ok(c, { id }, NOTIFICATION_MESSAGES.messageSent);
  }),
];
