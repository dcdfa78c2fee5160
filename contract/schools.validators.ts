import vine from '@vinejs/vine';
import { formValidator } from './formValidator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES, PASSWORD_MIN_LENGTH } from './profile';
import { PHONE_PATTERN, PROFILE_FIELDS, PROFILE_FIELD_MESSAGES } from './profile.validators';
import {
  RESET_MESSAGES,
  SCHOOL_ADMIN_MESSAGES as A,
  SCHOOL_CODE_PATTERN,
  SCHOOL_LIMITS as L,
  SCHOOL_MESSAGES as S,
  SCHOOL_STATUSES,
} from './schools';

/**
 * The training-school, school-admin and password-reset validators, run by the browser's forms and by
 * the server on every call. Kept apart from contract/schools.ts so that only the chunks that need
 * VineJS load it. Empty inputs count as not given (HTML forms send them as empty strings).
 */

const optionalText = (max: number) => vine.string().trim().maxLength(max).nullable().optional();

const schoolSchema = vine.object({
  code: vine.string().trim().minLength(L.codeMin).maxLength(L.codeMax).regex(SCHOOL_CODE_PATTERN),
  name: vine.string().trim().minLength(1).maxLength(L.nameMax),
  state: vine.string().trim().minLength(1).maxLength(L.stateMax),
  // Checked against the nationality list by the server.
  country: vine
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/),
  address: optionalText(L.addressMax),
  contact_email: vine.string().trim().maxLength(L.emailMax).email().nullable().optional(),
  contact_phone: vine.string().trim().maxLength(L.phoneMax).regex(PHONE_PATTERN).nullable().optional(),
});

const schoolStatusSchema = vine.object({ status: vine.enum(SCHOOL_STATUSES) });

/** A school admin is a profile the board fills in for them. */
const schoolAdminSchema = vine.object(PROFILE_FIELDS);

const adminActiveSchema = vine.object({ active: vine.boolean({ strict: true }) });

const resetPasswordSchema = vine.object({
  email: vine.string().trim().maxLength(L.emailMax).email(),
  code: vine
    .string()
    .trim()
    .regex(/^\d{6}$/),
  password: vine.string().minLength(PASSWORD_MIN_LENGTH).maxLength(PASSWORD_MAX_LENGTH).confirmed(),
  password_confirmation: vine.string(),
});

const forgotPasswordSchema = vine.object({
  email: vine.string().trim().maxLength(L.emailMax).email(),
});

const schoolMessages = {
  'code.required': S.codeRequired,
  'code.string': S.codeRequired,
  'code.minLength': S.codeInvalid,
  'code.maxLength': S.codeInvalid,
  'code.regex': S.codeInvalid,
  'name.required': S.nameRequired,
  'name.string': S.nameRequired,
  'name.minLength': S.nameRequired,
  'name.maxLength': S.tooLong,
  'state.required': S.stateRequired,
  'state.string': S.stateRequired,
  'state.minLength': S.stateRequired,
  'state.maxLength': S.tooLong,
  'country.required': S.countryRequired,
  'country.string': S.countryRequired,
  'country.regex': S.countryInvalid,
  'address.string': S.tooLong,
  'address.maxLength': S.tooLong,
  'contact_email.string': S.emailInvalid,
  'contact_email.email': S.emailInvalid,
  'contact_email.maxLength': S.emailInvalid,
  'contact_phone.string': S.phoneInvalid,
  'contact_phone.regex': S.phoneInvalid,
  'contact_phone.maxLength': S.phoneInvalid,
  'status.required': S.statusInvalid,
  'status.enum': S.statusInvalid,
};

const adminMessages = {
  ...PROFILE_FIELD_MESSAGES,
  'active.required': A.activeInvalid,
  'active.boolean': A.activeInvalid,
};

const resetMessages = {
  'email.required': RESET_MESSAGES.emailRequired,
  'email.string': RESET_MESSAGES.emailInvalid,
  'email.email': RESET_MESSAGES.emailInvalid,
  'email.maxLength': RESET_MESSAGES.emailInvalid,
  'code.required': RESET_MESSAGES.codeRequired,
  'code.string': RESET_MESSAGES.codeRequired,
  'code.regex': RESET_MESSAGES.codeRequired,
  'password.required': RESET_MESSAGES.passwordRequired,
  'password.string': RESET_MESSAGES.passwordRequired,
  'password.minLength': PASSWORD_MESSAGES.tooShort,
  'password.maxLength': PASSWORD_MESSAGES.tooLong,
  'password_confirmation.confirmed': PASSWORD_MESSAGES.mismatch,
  'password_confirmation.required': PASSWORD_MESSAGES.mismatch,
  'password_confirmation.string': PASSWORD_MESSAGES.mismatch,
};

export const schoolValidator = formValidator(schoolSchema, schoolMessages);
export const schoolStatusValidator = formValidator(schoolStatusSchema, schoolMessages);
export const schoolAdminValidator = formValidator(schoolAdminSchema, adminMessages);
export const adminActiveValidator = formValidator(adminActiveSchema, adminMessages);
export const resetPasswordValidator = formValidator(resetPasswordSchema, resetMessages);
export const forgotPasswordValidator = formValidator(forgotPasswordSchema, resetMessages);
