import vine from '@vinejs/vine';
import { formValidator } from './formValidator';
import { ID_RULES, idField } from './input';
import { MESSAGE_LIMITS, NOTIFICATION_MESSAGES } from './notifications';

/** A school admin's message to the board, and marking notifications read; run by the server too. */
const messageBoardSchema = vine.object({
  subject: vine.string().trim().minLength(1).maxLength(MESSAGE_LIMITS.subjectMax),
  message: vine.string().trim().minLength(1).maxLength(MESSAGE_LIMITS.bodyMax),
});

/** `{ id }` for one, `{ all: true }` for every unread one; the handler refuses neither. */
const markReadSchema = vine.object({
  id: idField().optional(),
  all: vine.boolean({ strict: true }).optional(),
});

const messages = {
  'subject.required': NOTIFICATION_MESSAGES.subjectRequired,
  'subject.string': NOTIFICATION_MESSAGES.subjectRequired,
  'subject.minLength': NOTIFICATION_MESSAGES.subjectRequired,
  'subject.maxLength': NOTIFICATION_MESSAGES.tooLong,
  'message.required': NOTIFICATION_MESSAGES.bodyRequired,
  'message.string': NOTIFICATION_MESSAGES.bodyRequired,
  'message.minLength': NOTIFICATION_MESSAGES.bodyRequired,
  'message.maxLength': NOTIFICATION_MESSAGES.tooLong,
  ...Object.fromEntries(ID_RULES.map((rule) => [`id.${rule}`, NOTIFICATION_MESSAGES.markWhich])),
  'all.boolean': NOTIFICATION_MESSAGES.markWhich,
};

export const messageBoardValidator = formValidator(messageBoardSchema, messages);
export const markReadValidator = formValidator(markReadSchema, messages);
