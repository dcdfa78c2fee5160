import { ADMIN, endpoint, SCHOOL_ADMIN, shape } from './endpoint';
import { NOTIFICATION_LISTS } from './lists';
import { NOTIFICATION_READS } from './notifications.reads';
import { markReadValidator, messageBoardValidator } from './notifications.validators';

/**
 * The board's notifications (spec section 7), and the school admin's side of them: a message to the
 * board, and what the board has told their school.
 */
export const NOTIFICATION_ENDPOINTS = {
  unread: NOTIFICATION_LISTS.unread,
  read: NOTIFICATION_LISTS.read,
  count: NOTIFICATION_READS.count,
  /** `{ id }` for one, `{ all: true }` for every unread one. */
  markRead: endpoint({
    method: 'POST',
    path: '/api/admin/notifications/mark-read',
    roles: ADMIN,
    summary: 'Mark one notification read, or every unread one',
    input: { in: 'json', validator: markReadValidator },
    answer: shape<void>(),
  }),
  /** The first source of notifications. */
  messageBoard: endpoint({
    method: 'POST',
    path: '/api/training-school-admin/message-board',
    roles: SCHOOL_ADMIN,
    summary: "Send the board a message from the caller's school (it starts a conversation)",
    input: { in: 'json', validator: messageBoardValidator },
    /** The conversation it started. */
    answer: shape<{ id: number }>(),
  }),
  /** Closing reminders and extensions, newest first (SCHOOL_NOTICES_SHOWN of them). */
  schoolNotices: NOTIFICATION_READS.schoolNotices,
} as const;
