import { ADMIN, endpoint, SCHOOL_ADMIN, shape } from './endpoint';
import type { ImpersonationStarted, SwitchedBack } from './impersonation';
import { startImpersonationValidator, switchBackValidator } from './impersonation.validators';

/** An admin signing in as a school admin, and back (spec sections 2, 4 and 7). */
export const IMPERSONATION_ENDPOINTS = {
  start: endpoint({
    method: 'POST',
    path: '/api/admin/impersonate',
    roles: ADMIN,
    summary: 'Sign in as an active school admin, with a reason; answers a switch-back token too',
    input: { in: 'json', validator: startImpersonationValidator },
    answer: shape<ImpersonationStarted>(),
  }),
  /**
   * Spec section 7, word for word: `{ token }` in, `success, data.user, data.access_token` out. Redeemed
   * with the impersonated session's token, which is a school admin's.
   */
  switchBack: endpoint({
    method: 'POST',
    path: '/api/auth/switch-back-to-admin',
    roles: SCHOOL_ADMIN,
    summary: "End an impersonation and return to the admin's own session",
    input: { in: 'json', validator: switchBackValidator },
    answer: shape<SwitchedBack>(),
  }),
} as const;
