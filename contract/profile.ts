import type { Role } from './roles';

/** The profile and password dialogs (spec sections 2, 7 and 8). */

/** The method override each role's profile form carries, multipart, as the spec names it
 * (contract/profile.endpoints.ts has where each posts). */
export const PROFILE_METHOD_OVERRIDE: Record<Role, 'PUT' | 'POST'> = { admin: 'PUT', school_admin: 'POST' };

/** The multipart field carrying the method override. */
export const METHOD_OVERRIDE_FIELD = '_method';

export const PASSWORD_MIN_LENGTH = 8;

export const PROFILE_MESSAGES = {
  updated: 'Your profile has been updated.',
  nameRequired: 'Full name is required',
  emailRequired: 'Email address is required',
  emailInvalid: 'Enter a valid email address',
  emailTaken: 'This email address is already used by another account',
  phoneInvalid: 'Enter a valid phone number',
  genderInvalid: 'Choose female or male',
  photoTooLarge: 'File is too large',
  photoNotImage: 'The photo must be a JPEG, PNG, GIF or WebP image',
  tooLong: 'This is too long',
  /** Sign-in codes go to it: like the password, it is the school admin's alone. */
  emailNotWhileImpersonating: 'An email address cannot be changed while you are signed in as someone else.',
} as const;

/** The longest name, email and phone number the profile takes. */
export const PROFILE_LIMITS = { nameMax: 150, emailMax: 254, phoneMax: 25 } as const;

export const PASSWORD_MESSAGES = {
  /** Word for word from the spec. */
  changed: 'Password changed successfully',
  /** Word for word from the spec. */
  oldIncorrect: 'old password incorrect',
  currentRequired: 'Enter your old password',
  newRequired: 'Enter a new password',
  tooShort: `The new password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  mismatch: 'The new password and its confirmation do not match',
  sameAsOld: 'The new password must be different from the old one',
  tooLong: 'The new password is too long',
  /** The school admin's password is theirs alone, even to an admin signed in as them. */
  notWhileImpersonating: 'A password cannot be changed while you are signed in as someone else.',
} as const;

/** argon2 takes any length; this only stops a megabyte of "password" from being hashed. */
export const PASSWORD_MAX_LENGTH = 200;

export interface ChangePasswordPayload {
  current_password: string;
  password: string;
  password_confirmation: string;
}
