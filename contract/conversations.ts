/**
 * A school's messages with the board (issue 26): a school's message to the board is a conversation,
 * answered by the board from Notifications, replied to by the school. Plain text, shown as text.
 */

/** One message of a conversation: the school's or the board's. */
export interface ConversationMessage {
  id: number;
  from: 'school' | 'board';
  /** The writer's name. */
  author: string | null;
  body: string;
  created_at: string;
}

export interface Conversation {
  id: number;
  subject: string;
  school: { id: number; code: string; name: string };
  created_at: string;
  messages: ConversationMessage[];
}

/** One conversation in a school's list: its last message's time and side, and its unread answers. */
export interface ConversationSummary {
  id: number;
  subject: string;
  created_at: string;
  last_message_at: string;
  last_from: 'school' | 'board';
  messages: number;
  unread_answers: number;
}

/** A school's conversations list, newest first, and its dashboard's share. */
export const SCHOOL_CONVERSATIONS_SHOWN = 50;

export const CONVERSATION_MESSAGES = {
  notFound: 'There is no such conversation.',
  answered: 'Your answer has been sent to the school.',
  replied: 'Your reply has been sent to the board.',
  bodyRequired: 'Enter your message',
  tooLong: 'This is too long',
} as const;
