import { ADMIN, endpoint, SCHOOL_ADMIN, shape } from './endpoint';
import type { User } from './user';

/**
 * The signed-in user's own profile, read (PROFILE_ENDPOINTS.read): a module without the profile form's
 * validators, so the SPA reads the profile at start without fetching VineJS first.
 */
export const PROFILE_READ = {
  admin: endpoint({
    method: 'GET',
    path: '/api/admin/user-profile-information',
    roles: ADMIN,
    summary: "The signed-in admin's profile",
    answer: shape<User>(),
  }),
  school_admin: endpoint({
    method: 'GET',
    path: '/api/training-school-admin/user-profile-information',
    roles: SCHOOL_ADMIN,
    summary: "The signed-in school admin's profile",
    answer: shape<User>(),
  }),
} as const;
