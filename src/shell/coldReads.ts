import { DASHBOARD_ENDPOINTS } from '../../contract/dashboard.endpoints';
import { DIET_CHOICES } from '../../contract/diets.choices';
import { DOCUMENT_PARAMS } from '../../contract/documents';
import { DOCUMENT_ENDPOINTS } from '../../contract/documents.endpoints';
import { PRINT_DOCUMENT_ENDINGS } from '../../contract/navigation';
import { NOTIFICATION_READS } from '../../contract/notifications.reads';
import { HOME_PATH } from '../../contract/paths';
import { PROFILE_READ } from '../../contract/profile.read';
import { REGISTRATION_WINDOW } from '../../contract/registration.window';
import type { Role } from '../../contract/roles';
import { REGISTERED_PAGE } from './pageTable';

type Reads = Record<Role, readonly string[]>;

/**
 * The GETs a signed-in page opened cold (a bookmark, a reload) makes first, by role: the shell's own
 * (the session's profile, the board's unread count) on every shell page, the first paint's of the
 * pages that show data at once, and a print page's document. A page's first script asks for them beside the entry, with the token,
 * as the API client would (scripts/prerenderLogin.ts writes this table into it at build time); the
 * client takes each answer once (src/api/coldAnswers.ts). On slow 3G they otherwise waited for the
 * entry, React and the client to arrive and run, and then for the profile. A path listed here that the
 * page does not ask for is a request for nothing, and one it asks for differently is asked twice:
 * tests/e2e/signed-in-cold.spec.ts holds the board Dashboard's and a school's Registered list's reads to
 * one request each.
 */
export const COLD_READS: {
  shell: Reads;
  pages: Record<string, Reads>;
  /**
   * A print page's document (/print-document/<ending>?<its query>): its path by role, the endings it
   * is asked for, and its query's parameters in the order the page sends them (the empty ones left out).
   */
  print: { paths: Record<Role, string>; endings: readonly string[]; params: readonly string[] };
} = {
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
  print: {
    paths: {
      admin: DOCUMENT_ENDPOINTS.print.admin.path,
      school_admin: DOCUMENT_ENDPOINTS.print.school_admin.path,
    },
    endings: PRINT_DOCUMENT_ENDINGS,
    params: DOCUMENT_PARAMS,
  },
};
