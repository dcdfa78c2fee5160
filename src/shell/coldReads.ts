import { DASHBOARD_ENDPOINTS } from '../../contract/dashboard.endpoints';
import { DIET_CHOICES } from '../../contract/diets.choices';
import { NOTIFICATION_READS } from '../../contract/notifications.reads';
import { HOME_PATH } from '../../contract/paths';
import { PROFILE_READ } from '../../contract/profile.read';
import { REGISTRATION_WINDOW } from '../../contract/registration.window';
import type { Role } from '../../contract/roles';
import { REGISTERED_PAGE } from './pageTable';

type Reads = Record<Role, readonly string[]>;

/**
 * The GETs a signed-in shell page opened cold (a bookmark, a reload) makes first, by role: the shell's
 * own (the session's profile, the board's unread count) on every page, and the first paint's of the
 * pages that show data at once. A page's first script asks for them beside the entry, with the token,
 * as the API client would (scripts/prerenderLogin.ts writes this table into it at build time); the
 * client takes each answer once (src/api/coldAnswers.ts). On slow 3G they otherwise waited for the
 * entry, React and the client to arrive and run, and then for the profile. A path listed here that the
 * page does not ask for is a request for nothing: tests/e2e/cold-open.spec.ts holds every one to a use.
 */
export const COLD_READS: { shell: Reads; pages: Record<string, Reads> } = {
  shell: {
    admin: [PROFILE_READ.admin.path, NOTIFICATION_READS.count.path],
    school_admin: [PROFILE_READ.school_admin.path],
  },
  pages: {
    [HOME_PATH]: {
      admin: [DASHBOARD_ENDPOINTS.overview.admin.path, REGISTRATION_WINDOW.admin.path],
      school_admin: [DASHBOARD_ENDPOINTS.overview.school_admin.path, REGISTRATION_WINDOW.school_admin.path],
    },
    [REGISTERED_PAGE]: {
      admin: [REGISTRATION_WINDOW.admin.path, DIET_CHOICES.admin.path],
      school_admin: [REGISTRATION_WINDOW.school_admin.path, DIET_CHOICES.school_admin.path],
    },
  },
};
