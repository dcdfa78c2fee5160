import { ADMIN, SCHOOL_ADMIN, endpoint, shape } from './endpoint';
import { RESITS_LISTS } from './lists';
import type { ResitRow } from './resits';
import { resitValidator } from './resits.validators';

/**
 * Resit candidates, each role on its own path: a school admin lists, adds and removes their own
 * school's entries while the course header's registration is open; the board any, at any time.
 */
export const RESIT_ENDPOINTS = {
  list: RESITS_LISTS,
  /** `{ candidate_index, diet, papers }` (the diet by its code). */
  add: {
    admin: endpoint({
      method: 'POST',
      path: '/api/admin/resit-candidates',
      roles: ADMIN,
      summary: 'Enter a candidate for a resit: the diet and the papers sat again',
      input: { in: 'json', validator: resitValidator },
      answer: shape<ResitRow>(),
    }),
    school_admin: endpoint({
      method: 'POST',
      path: '/api/training-school-admin/resit-candidates',
      roles: SCHOOL_ADMIN,
      summary: "Enter one of the school's candidates for a resit at the diet open for registration",
      input: { in: 'json', validator: resitValidator },
      answer: shape<ResitRow>(),
    }),
  },
  /** The row leaves the list; it is kept for the audit trail. */
  remove: {
    admin: endpoint({
      method: 'POST',
      path: '/api/admin/resit-candidates/:id/remove',
      roles: ADMIN,
      summary: 'Remove a resit entry from the list',
      answer: shape<void>(),
    }),
    school_admin: endpoint({
      method: 'POST',
      path: '/api/training-school-admin/resit-candidates/:id/remove',
      roles: SCHOOL_ADMIN,
      summary: "Remove one of the school's resit entries from the list",
      answer: shape<void>(),
    }),
  },
} as const;
