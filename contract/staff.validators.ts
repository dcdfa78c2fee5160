import vine from '@vinejs/vine';
import { formValidator } from './formValidator';
import { PROFILE_FIELDS, PROFILE_FIELD_MESSAGES } from './profile.validators';
import { STAFF_MESSAGES as M } from './staff';

/** A new board admin: a name and an email (the email unique among all accounts, checked by the server). */
const inviteSchema = vine.object({ name: PROFILE_FIELDS.name, email: PROFILE_FIELDS.email });

const suspensionSchema = vine.object({ suspended: vine.boolean({ strict: true }) });

const messages = {
  ...PROFILE_FIELD_MESSAGES,
  'suspended.required': M.suspendedInvalid,
  'suspended.boolean': M.suspendedInvalid,
};

export const inviteStaffValidator = formValidator(inviteSchema, messages);
export const staffSuspensionValidator = formValidator(suspensionSchema, messages);
