import { ADMIN, SCHOOL_ADMIN, endpoint, shape } from './endpoint';
import { REGISTERED_LISTS } from './lists';
import type { BulkRegistrationResult } from './registration';
import { bulkRegistrationValidator } from './registration.validators';
import { REGISTRATION_WINDOW } from './registration.window';

/**
 * Registration for the diet current for registration, each role on its own path: the registered
 * candidates' lists, many candidates at once, and the window as it applies to the caller. One
 * candidate's toggle is the candidates' (candidates.endpoints.ts `regStatus`).
 */
export const REGISTRATION_ENDPOINTS = {
  /** A school admin's list is their school's. */
  registered: REGISTERED_LISTS,
  /** `{ candidate_ids }` or `{ all_verified: true, diet, course_header?, year? }`: the count and each row. */
  bulk: {
    admin: endpoint({
      method: 'POST',
      path: '/api/admin/registrations/bulk',
      roles: ADMIN,
      summary: 'Register many candidates: the ticked ones, or every verified one of the diet',
      input: { in: 'json', validator: bulkRegistrationValidator },
      answer: shape<BulkRegistrationResult>(),
    }),
    school_admin: endpoint({
      method: 'POST',
      path: '/api/training-school-admin/registrations/bulk',
      roles: SCHOOL_ADMIN,
      summary: "Register many of the school's candidates: the ticked ones, or every verified one",
      input: { in: 'json', validator: bulkRegistrationValidator },
      answer: shape<BulkRegistrationResult>(),
    }),
  },
  window: REGISTRATION_WINDOW,
} as const;
