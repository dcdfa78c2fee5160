import type { Conversation, ConversationSummary } from './conversations';
import { conversationMessageValidator } from './conversations.validators';
import { ADMIN, endpoint, SCHOOL_ADMIN, shape } from './endpoint';

/**
 * A school's messages with the board (issue 26): the board reads and answers a conversation opened
 * from its notification; a school lists its own, reads one (its answers are then read) and replies.
 */
export const CONVERSATION_ENDPOINTS = {
  boardOne: endpoint({
    method: 'GET',
    path: '/api/admin/conversations/:id',
    roles: ADMIN,
    summary: 'One conversation with a school, every message in order',
    answer: shape<Conversation>(),
  }),
  answer: endpoint({
    method: 'POST',
    path: '/api/admin/conversations/:id/answer',
    roles: ADMIN,
    summary: "Answer a school's conversation (the school's admins are mailed a link)",
    input: { in: 'json', validator: conversationMessageValidator },
    answer: shape<Conversation>(),
  }),
  schoolList: endpoint({
    method: 'GET',
    path: '/api/training-school-admin/conversations',
    roles: SCHOOL_ADMIN,
    summary: "The caller's school's conversations with the board, newest first",
    answer: shape<ConversationSummary[]>(),
  }),
  schoolOne: endpoint({
    method: 'GET',
    path: '/api/training-school-admin/conversations/:id',
    roles: SCHOOL_ADMIN,
    /** Opening it is reading it: the board's answers in it are read from then on (as a broadcast opened). */
    summary: "One of the caller's school's conversations, every message in order (its answers are then read)",
    answer: shape<Conversation>(),
  }),
  reply: endpoint({
    method: 'POST',
    path: '/api/training-school-admin/conversations/:id/reply',
    roles: SCHOOL_ADMIN,
    summary: "Reply to the board in one of the school's conversations",
    input: { in: 'json', validator: conversationMessageValidator },
    answer: shape<Conversation>(),
  }),
} as const;
