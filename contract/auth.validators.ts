import vine from '@vinejs/vine';
import { AUTH_MESSAGES } from './auth';
import { formValidator } from './formValidator';

/** The sign-in validators, kept apart from contract/auth.ts so the login page's chunk stays free of
 * VineJS; the server runs them on every call. */
const loginSchema = vine.object({
  email: vine.string().trim().email().maxLength(254),
  password: vine.string().minLength(1).maxLength(200),
});

const confirmCodeSchema = vine.object({
  login_id: vine.string().trim().minLength(16).maxLength(128),
  code: vine
    .string()
    .trim()
    .regex(/^\d{6}$/),
});

const resendCodeSchema = vine.object({
  login_id: vine.string().trim().minLength(16).maxLength(128),
});

const authMessages = {
  'email.required': AUTH_MESSAGES.emailRequired,
  'email.email': AUTH_MESSAGES.emailInvalid,
  'password.required': AUTH_MESSAGES.passwordRequired,
  'password.minLength': AUTH_MESSAGES.passwordRequired,
  'code.required': AUTH_MESSAGES.codeRequired,
  'code.regex': AUTH_MESSAGES.codeRequired,
  'login_id.required': AUTH_MESSAGES.loginExpired,
  'login_id.minLength': AUTH_MESSAGES.loginExpired,
};

export const loginValidator = formValidator(loginSchema, authMessages);
export const confirmCodeValidator = formValidator(confirmCodeSchema, authMessages);
export const resendCodeValidator = formValidator(resendCodeSchema, authMessages);
