import { PROFILE_MESSAGES } from './profile';

/**
 * The board's own staff (issue 26): board admins, added by invitation and suspended or reinstated by
 * another board admin. Markers are chosen from the active ones.
 */

/** invited: added, has not yet set a password through the mailed link; suspended: cannot sign in. */
export type StaffStatus = 'invited' | 'active' | 'suspended';

export const STAFF_STATUS_LABELS: Record<StaffStatus, string> = {
  invited: 'Invited',
  active: 'Active',
  suspended: 'Suspended',
};

/** A score sheet a board admin marks, and as which marker. */
export interface MarkedSheet {
  id: number;
  marker: 1 | 2 | 3;
  diet: string;
  course_header: string;
  /** Null: an in-course sheet. */
  paper: string | null;
  state: string;
}

/** One board admin as the Board staff page shows them. */
export interface StaffMember {
  id: number;
  name: string;
  email: string;
  status: StaffStatus;
  invited_at: string | null;
  /** The last completed sign-in (a token issued to them, not an impersonation), if any. */
  last_signed_in_at: string | null;
  /** The caller themself: a board admin cannot suspend themselves. */
  is_you: boolean;
  sheets: MarkedSheet[];
}

/** How long an invitation's link works: longer than a reset code's day, for a mail read after a weekend. */
export const INVITATION_TTL_HOURS = 72;

/** Invitation mails one board admin may be sent in a day (the first and its re-sends). */
export const INVITATION_SENDS_PER_DAY = 3;

export const STAFF_MESSAGES = {
  notFound: 'There is no such board admin.',
  nameRequired: PROFILE_MESSAGES.nameRequired,
  emailRequired: PROFILE_MESSAGES.emailRequired,
  emailInvalid: PROFILE_MESSAGES.emailInvalid,
  emailTaken: PROFILE_MESSAGES.emailTaken,
  tooLong: PROFILE_MESSAGES.tooLong,
  suspendedInvalid: 'Choose whether the board admin is suspended',
  invited: 'The board admin has been added and emailed an invitation to set their password.',
  invitationResent: 'The invitation has been emailed again.',
  notInvited: 'This board admin has already set their password; they can sign in.',
  invitationSuspended: 'This board admin is suspended. Reinstate them before sending the invitation again.',
  tooManyInvitations: `An invitation can be sent ${INVITATION_SENDS_PER_DAY} times a day. Try again tomorrow.`,
  suspended: 'The board admin has been suspended and signed out everywhere.',
  reinstated: 'The board admin has been reinstated.',
  notSelf: 'You cannot suspend yourself. Ask another board admin.',
  lastAdmin: 'This is the last active board admin: the board needs at least one.',
} as const;
