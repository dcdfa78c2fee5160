import type { Conversation, ConversationSummary } from '../../contract/conversations';
import { CONVERSATION_ENDPOINTS as E } from '../../contract/conversations.endpoints';
import type { FormValues } from '../../machines/formDialog.machine';
import { send } from './send';

/** A school's messages with the board (issue 26): the board's side and the school's. */

export const loadBoardConversation = async (id: number): Promise<Conversation> =>
  (await send(E.boardOne, { params: { id } })).data;

export const answerConversation = async (values: FormValues) =>
  send(E.answer, { params: { id: Number(values.id) }, body: { message: String(values.message ?? '') } });

export const loadSchoolConversations = async (): Promise<ConversationSummary[]> =>
  (await send(E.schoolList)).data;

/** One of the school's conversations; opening it reads the board's answers in it (the server's GET). */
export const loadSchoolConversation = async (id: number): Promise<Conversation> =>
  (await send(E.schoolOne, { params: { id } })).data;

export const replyToConversation = async (values: FormValues) =>
  send(E.reply, { params: { id: Number(values.id) }, body: { message: String(values.message ?? '') } });
