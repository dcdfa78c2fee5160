import type { Gender } from './constants';
import type { Role } from './roles';
import type { SchoolStatus } from './schools';

/** The signed-in user's profile (spec section 3, User). */
export interface User {
  id: number;
  name: string;
  email: string;
  phone_number: string | null;
  /** A URL; shown only when it is on the portal's own file storage. */
  photo: string | null;
  gender: Gender | null;
  user_role: Role;
  operator_id: string | null;
  /** The school a school admin belongs to (its status, so a suspension is said before anything is
   * refused); null for board admins. */
  training_school: { id: number; code: string; name: string; status: SchoolStatus } | null;
  /** While an admin is signed in as this user: that admin. */
  impersonator: { id: number; name: string; email: string } | null;
}

/** Where the portal's own file storage is served from. */
export const FILES_PATH_PREFIX = '/files/';

/** A photo is shown only when it is on the portal's own file storage (spec section 3); anything else,
 * or nothing, shows the placeholder. */
export function isPortalFileUrl(url: string | null | undefined, origin: string): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url, origin);
    return parsed.origin === origin && parsed.pathname.startsWith(FILES_PATH_PREFIX);
  } catch {
    return false;
  }
}

export const PLACEHOLDER_PHOTO = '/placeholder-avatar.svg';
