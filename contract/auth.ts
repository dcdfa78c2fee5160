import type { User } from './user';

/** Sign-in: email and password, then a 6-digit code sent by mail. */
export const CONFIRM_CODE_LENGTH = 6;

export const AUTH_MESSAGES = {
  emailRequired: 'Email address is required',
  emailInvalid: 'Enter a valid email address',
  passwordRequired: 'Password is required',
  /** The same for an unknown email and a wrong password, so no one learns who is registered. */
  credentialsRejected: 'These credentials do not match our records.',
  codeSent: 'We have sent a 6-digit confirmation code to your email address.',
  codeRequired: 'Enter the 6-digit code from your email',
  codeRejected: 'That code is not right or has expired. Check the latest email or send a new code.',
  codeVoided: 'Too many wrong codes. Sign in again to get a new one.',
  loginExpired: 'This sign-in has expired. Please sign in again.',
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  resendTooSoon: 'A code was sent less than a minute ago. Please wait before asking for another.',
  loggedOut: 'You have been logged out.',
  /** A suspended board admin with the right password (issue 26); a wrong one is told what anyone is. */
  accountSuspended:
    'Your account has been suspended by the examinations board. Ask another board admin to reinstate it.',
} as const;

export interface LoginPayload {
  email: string;
  password: string;
}

/** What POST /api/auth/login answers: the pending sign-in to confirm with the mailed code. */
export interface LoginChallenge {
  login_id: string;
  email: string;
}

export interface ConfirmCodePayload {
  login_id: string;
  code: string;
}

/** What POST /api/auth/confirm-code answers. */
export interface SignedIn {
  user: User;
  access_token: string;
}
