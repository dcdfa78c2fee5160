import { PROFILE_MESSAGES } from './profile';

/** Training schools as the board's lists show them (spec section 3: a school row has a status). */

export const SCHOOL_STATUSES = ['active', 'suspended'] as const;
export type SchoolStatus = (typeof SCHOOL_STATUSES)[number];

/** A school admin of a school, as the list shows them: enough to choose whom to sign in as. */
export interface SchoolAdminSummary {
  id: number;
  name: string;
  email: string;
  phone_number: string | null;
  active: boolean;
}

export interface SchoolRow {
  id: number;
  code: string;
  name: string;
  state: string;
  /** ISO 3166-1 alpha-2, as the nationality list. */
  country: string;
  address: string;
  contact_email: string | null;
  contact_phone: string | null;
  status: SchoolStatus;
  admins: SchoolAdminSummary[];
}

/** The longest search text the list takes. */
export const SCHOOL_SEARCH_MAX = 100;

export const SCHOOL_LIMITS = {
  codeMin: 2,
  codeMax: 20,
  nameMax: 200,
  stateMax: 100,
  addressMax: 500,
  emailMax: 254,
  phoneMax: 25,
} as const;

/** Letters, digits and dashes (SHT-IB); stored upper-cased, so two codes differing in case are one. */
export const SCHOOL_CODE_PATTERN = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;

export const normaliseSchoolCode = (code: string) => code.trim().toUpperCase();

export const SCHOOL_MESSAGES = {
  /** What a suspended school's admin is told on the dashboard and above the registration list. */
  suspendedNotice:
    'You can still sign in, see your candidates and pay, but you cannot register candidates until the board lifts the suspension. Ask the board if you need to know why.',
  statusInvalid: 'Choose active or suspended',
  searchTooLong: 'This is too long',
  notFound: 'There is no such training school.',
  codeRequired: 'School code is required',
  codeInvalid: `Use ${SCHOOL_LIMITS.codeMin} to ${SCHOOL_LIMITS.codeMax} letters or digits, with dashes between them`,
  codeTaken: 'Another training school already has this code',
  nameRequired: 'School name is required',
  stateRequired: 'State is required',
  countryRequired: 'Country is required',
  countryInvalid: 'Choose a country from the list',
  emailInvalid: 'Enter a valid email address',
  phoneInvalid: 'Enter a valid phone number',
  tooLong: 'This is too long',
  created: 'The training school has been created.',
  updated: 'The training school has been updated.',
  activated: 'The training school is active again.',
  suspended: 'The training school has been suspended.',
} as const;

/** The confirmation asked before suspending (the status toggle's confirmValues). */
export const SUSPEND_CONFIRMATION =
  'Suspend this training school? Its admins can still sign in and see their records, but cannot register candidates until it is active again.';

/** A school admin's fields are a profile's, so they say what the profile dialog says. */
export const SCHOOL_ADMIN_MESSAGES = {
  notFound: 'There is no such school admin.',
  nameRequired: PROFILE_MESSAGES.nameRequired,
  emailRequired: PROFILE_MESSAGES.emailRequired,
  emailInvalid: PROFILE_MESSAGES.emailInvalid,
  emailTaken: PROFILE_MESSAGES.emailTaken,
  phoneInvalid: PROFILE_MESSAGES.phoneInvalid,
  tooLong: PROFILE_MESSAGES.tooLong,
  activeInvalid: 'Choose whether the account is active',
  created: 'The school admin has been added and emailed a code to set their password.',
  deactivated: 'The account has been deactivated and signed out everywhere.',
  reactivated: 'The account has been reactivated.',
  resetSent: 'A password-reset code has been emailed.',
  resetInactive: 'This account is deactivated. Reactivate it before sending a reset code.',
} as const;

/** A code mailed by the board lasts a day: long enough for a new admin to find the mail. */
export const RESET_CODE_TTL_HOURS = 24;
/** Wrong codes allowed before a reset code stops working. */
export const RESET_MAX_ATTEMPTS = 5;

export const RESET_MESSAGES = {
  emailRequired: 'Email address is required',
  emailInvalid: 'Enter a valid email address',
  codeRequired: 'Enter the 6-digit code from the email',
  /** One answer for a wrong, used, expired or unknown code, so it tells nobody which accounts have one. */
  codeRejected:
    'This code is wrong or no longer valid. Check the newest email, or ask the board for a new code.',
  passwordRequired: 'Enter a new password',
  done: 'Your password has been set. You can sign in with it now.',
  /** The one answer to 'Forgot your password?', whether or not an account has the address. */
  codeMailed:
    'If an account uses this email address, a code to set a new password is on its way to it. It may take a few minutes to arrive.',
} as const;
