import vine from '@vinejs/vine';
import { CONVERSATION_MESSAGES as M } from './conversations';
import { formValidator } from './formValidator';
import { MESSAGE_LIMITS } from './notifications';

/** An answer or a reply in a conversation: the message's own limits (MESSAGE_LIMITS). */
const conversationMessageSchema = vine.object({
  message: vine.string().trim().minLength(1).maxLength(MESSAGE_LIMITS.bodyMax),
});

export const conversationMessageValidator = formValidator(conversationMessageSchema, {
  'message.required': M.bodyRequired,
  'message.string': M.bodyRequired,
  'message.minLength': M.bodyRequired,
  'message.maxLength': M.tooLong,
});
