import type { User } from './user';

/**
 * An admin signs in as a school admin (spec sections 2, 4 and 7). The server mints a token for the
 * school admin that records the admin, and a switch-back token that only that pairing can redeem.
 */
export const IMPERSONATION_COOKIE = 'impersonation_token';

export const REASON_MIN_LENGTH = 10;

export interface StartImpersonationPayload {
  user_id: number;
  reason: string;
}

export interface ImpersonationStarted {
  user: User;
  access_token: string;
  /** Kept by the browser while impersonating; posted back to switch to the admin. */
  impersonation_token: string;
}

export interface SwitchedBack {
  user: User;
  access_token: string;
}

export const IMPERSONATION_MESSAGES = {
  reasonRequired: `Say why you need to sign in as this user (at least ${REASON_MIN_LENGTH} characters)`,
  notSchoolAdmin: 'Only an active school admin can be signed in as.',
  nested: 'You are already signed in as someone else. Switch back to your admin account first.',
  switchBackRefused: 'This switch-back is not valid any more. Please sign in again.',
  notFound: 'There is no such user.',
} as const;

export const REASON_MAX_LENGTH = 500;
