import { ADMIN, endpoint, SCHOOL_ADMIN, shape } from './endpoint';
import type { SchoolNotice } from './notifications';

/**
 * The reads the shell and the Dashboards make at first paint (NOTIFICATION_ENDPOINTS.count and
 * .schoolNotices): a module without the notifications' validators, so those pages do not fetch VineJS.
 */
export const NOTIFICATION_READS = {
  count: endpoint({
    method: 'GET',
    path: '/api/admin/count-unread-notification',
    roles: ADMIN,
    summary: 'How many notifications are unread',
    answer: shape<number>(),
  }),
  schoolNotices: endpoint({
    method: 'GET',
    path: '/api/training-school-admin/notices',
    roles: SCHOOL_ADMIN,
    summary: "What the board has told the caller's school, newest first",
    answer: shape<SchoolNotice[]>(),
  }),
} as const;
