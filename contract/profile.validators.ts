import vine from '@vinejs/vine';
import { formValidator } from './formValidator';
import { GENDERS } from './constants';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MESSAGES,
  PASSWORD_MIN_LENGTH,
  PROFILE_LIMITS,
  PROFILE_MESSAGES,
} from './profile';

/**
 * The profile and password validators (spec section 7), kept apart from contract/profile.ts so the
 * shell's chunk stays free of VineJS; the server runs them on every call. The profile arrives as a
 * multipart form, where an empty input is an empty string: those count as not given.
 */

/** Digits, spaces, brackets and dashes, an optional leading +, and 7 to 15 digits in all (E.164). */
export const PHONE_PATTERN = /^(?=(?:\D*\d){7,15}\D*$)\+?[\d\s()-]+$/;

/** The name, email and phone fields a profile has, shared with the school admin's form. */
export const PROFILE_FIELDS = {
  name: vine.string().trim().minLength(1).maxLength(PROFILE_LIMITS.nameMax),
  email: vine.string().trim().maxLength(PROFILE_LIMITS.emailMax).email(),
  phone_number: vine
    .string()
    .trim()
    .maxLength(PROFILE_LIMITS.phoneMax)
    .regex(PHONE_PATTERN)
    .nullable()
    .optional(),
};

const adminProfileSchema = vine.object({
  ...PROFILE_FIELDS,
  /** Admin only (spec section 2); left as it is when not given. */
  gender: vine.enum(GENDERS).nullable().optional(),
});

/** A school admin's form has no gender; one sent anyway is dropped, not refused. */
const schoolProfileSchema = vine.object(PROFILE_FIELDS);

const changePasswordSchema = vine.object({
  current_password: vine.string().maxLength(PASSWORD_MAX_LENGTH),
  password: vine
    .string()
    .minLength(PASSWORD_MIN_LENGTH)
    .maxLength(PASSWORD_MAX_LENGTH)
    .confirmed()
    .notSameAs('current_password'),
  // Checked by password's confirmed() above; declared so a missing one is its own message.
  password_confirmation: vine.string(),
});

/** The messages of PROFILE_FIELDS. */
export const PROFILE_FIELD_MESSAGES = {
  'name.required': PROFILE_MESSAGES.nameRequired,
  'name.string': PROFILE_MESSAGES.nameRequired,
  'name.minLength': PROFILE_MESSAGES.nameRequired,
  'name.maxLength': PROFILE_MESSAGES.tooLong,
  'email.required': PROFILE_MESSAGES.emailRequired,
  'email.string': PROFILE_MESSAGES.emailInvalid,
  'email.email': PROFILE_MESSAGES.emailInvalid,
  'email.maxLength': PROFILE_MESSAGES.emailInvalid,
  'phone_number.string': PROFILE_MESSAGES.phoneInvalid,
  'phone_number.regex': PROFILE_MESSAGES.phoneInvalid,
  'phone_number.maxLength': PROFILE_MESSAGES.phoneInvalid,
};

const profileMessages = {
  ...PROFILE_FIELD_MESSAGES,
  'gender.enum': PROFILE_MESSAGES.genderInvalid,
};

const passwordMessages = {
  'current_password.required': PASSWORD_MESSAGES.currentRequired,
  'current_password.string': PASSWORD_MESSAGES.currentRequired,
  'current_password.maxLength': PASSWORD_MESSAGES.oldIncorrect,
  'password.required': PASSWORD_MESSAGES.newRequired,
  'password.string': PASSWORD_MESSAGES.newRequired,
  'password.minLength': PASSWORD_MESSAGES.tooShort,
  'password.maxLength': PASSWORD_MESSAGES.tooLong,
  'password.notSameAs': PASSWORD_MESSAGES.sameAsOld,
  // confirmed() reports on the confirmation field.
  'password_confirmation.confirmed': PASSWORD_MESSAGES.mismatch,
  'password_confirmation.required': PASSWORD_MESSAGES.mismatch,
  'password_confirmation.string': PASSWORD_MESSAGES.mismatch,
};

export const adminProfileValidator = formValidator(adminProfileSchema, profileMessages);
export const schoolProfileValidator = formValidator(schoolProfileSchema, profileMessages);
export const changePasswordValidator = formValidator(changePasswordSchema, passwordMessages);
