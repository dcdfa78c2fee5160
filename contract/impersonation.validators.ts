import vine from '@vinejs/vine';
import { formValidator } from './formValidator';
import { ID_RULES, idField } from './input';
import { IMPERSONATION_MESSAGES, REASON_MAX_LENGTH, REASON_MIN_LENGTH } from './impersonation';

/** Starting and ending an impersonation; the server runs these on every call. */
const startSchema = vine.object({
  user_id: idField(),
  reason: vine.string().trim().minLength(REASON_MIN_LENGTH).maxLength(REASON_MAX_LENGTH),
});

const switchBackSchema = vine.object({
  token: vine.string().trim().minLength(1).maxLength(200),
});

const messages = {
  ...Object.fromEntries(ID_RULES.map((rule) => [`user_id.${rule}`, IMPERSONATION_MESSAGES.notSchoolAdmin])),
  'reason.required': IMPERSONATION_MESSAGES.reasonRequired,
  'reason.string': IMPERSONATION_MESSAGES.reasonRequired,
  'reason.minLength': IMPERSONATION_MESSAGES.reasonRequired,
  'reason.maxLength': IMPERSONATION_MESSAGES.reasonRequired,
  'token.required': IMPERSONATION_MESSAGES.switchBackRefused,
  'token.string': IMPERSONATION_MESSAGES.switchBackRefused,
  'token.minLength': IMPERSONATION_MESSAGES.switchBackRefused,
  'token.maxLength': IMPERSONATION_MESSAGES.switchBackRefused,
};

export const startImpersonationValidator = formValidator(startSchema, messages);
export const switchBackValidator = formValidator(switchBackSchema, messages);
