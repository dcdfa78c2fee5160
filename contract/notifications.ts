/** Notifications of the board (spec sections 2, 3 and 7): what schools did, for the board to read. */

/**
 * The board's notification sources (issue 26), one catalogue: each kind, what the board calls it, and
 * where its link goes. A notification's `subject` (stored with it) is what the link needs: a
 * conversation's id, a payment's reference, a candidate's index number, a broadcast's id.
 * - 'school.message': a school's message or reply; one a message, subject the conversation.
 * - 'candidates.registered': registrations by a school, grouped while unread within an hour (one per
 *   school's burst, however many candidates: server/candidates/registration.ts); to its registered list.
 * - 'payment.received': one a payment credited (a payment already covers many candidates); subject its
 *   reference, to its receipt.
 * - 'resit.added': one a resit entry a school adds (entries are added one at a time); subject the
 *   candidate's index number, to the resit list searched for it.
 * - 'broadcast.acknowledged': acknowledgements of a broadcast (made by the broadcasts area, grouped per
 *   broadcast while unread); subject the broadcast's id, to its page under Your broadcast.
 * - 'payments.provider': the payment provider failing or answering again; to Reconciliation.
 */
export const NOTIFICATION_KINDS = {
  'school.message': 'Message from a school',
  'candidates.registered': 'Candidates registered',
  'payment.received': 'Payment received',
  'resit.added': 'Resit added',
  'broadcast.acknowledged': 'Broadcast acknowledged',
  'payments.provider': 'Payment provider',
} as const;
export type NotificationKind = keyof typeof NOTIFICATION_KINDS;

/** Where a notification leads in the portal: a page of the SPA, with its words. */
export interface NotificationLink {
  href: string;
  label: string;
}

/** The page a conversation is shown on, to the board (from Notifications) and to its school. */
export const BOARD_CONVERSATION_PAGE = '/notifications/conversation';
export const SCHOOL_MESSAGES_PAGE = '/messages';
const boardConversationPath = (id: number | string) => `${BOARD_CONVERSATION_PAGE}/${id}`;
export const schoolConversationPath = (id: number | string) => `${SCHOOL_MESSAGES_PAGE}/${id}`;

/**
 * A notification's link, from its kind and what it is about; null when it has nothing to lead to (a
 * message stored before conversations existed). The server puts it in each row; the SPA shows it.
 */
export function notificationLink(
  kind: string,
  about: { school: { code: string } | null; subject: string | null },
): NotificationLink | null {
  const { school, subject } = about;
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  switch (kind as NotificationKind) {
    case 'school.message':
      return subject ? { href: boardConversationPath(subject), label: 'Open the conversation' } : null;
    case 'candidates.registered':
      return school
        ? {
            href: `/candidate/candidate-registered?${q({ school: school.code, reg_status: 'registered' })}`,
            label: 'See the registered candidates',
          }
        : null;
    case 'payment.received':
      return subject
        ? { href: `/payments/receipt/${encodeURIComponent(subject)}`, label: 'See the receipt' }
        : null;
    case 'resit.added':
      return subject
        ? { href: `/candidate/resit?${q({ search: subject })}`, label: 'See the resit entry' }
        : null;
    case 'broadcast.acknowledged':
      return subject
        ? { href: `/broadcast-school/me/${encodeURIComponent(subject)}`, label: 'See the broadcast' }
        : null;
    case 'payments.provider':
      return { href: '/payments/reconciliation', label: 'Open Reconciliation' };
    default:
      return null;
  }
}

export interface BoardNotification {
  id: number;
  /** What happened: a kind of NOTIFICATION_KINDS. */
  kind: string;
  title: string;
  /** Plain text, always rendered as text, never as HTML. */
  body: string;
  school: { id: number; code: string; name: string } | null;
  created_at: string;
  read_at: string | null;
  /** Where it leads (notificationLink), computed by the server from its kind and subject. */
  link: NotificationLink | null;
}

/** What the board tells one school: shown on that school's dashboard. Plain text, shown as text. */
export interface SchoolNotice {
  id: number;
  /** 'registration.reminder', 'registration.extension'. */
  kind: string;
  title: string;
  body: string;
  created_at: string;
}

/** The notices a school's dashboard shows, newest first. */
export const SCHOOL_NOTICES_SHOWN = 5;

/** How often the unread count is refreshed while the user is active. */
export const NOTIFICATION_POLL_MS = 30_000;

export const MESSAGE_LIMITS = { subjectMax: 150, bodyMax: 5000 } as const;

export const NOTIFICATION_MESSAGES = {
  markedRead: 'Marked as read.',
  allMarkedRead: 'All notifications are marked as read.',
  messageSent: 'Your message has been sent to the board.',
  subjectRequired: 'Enter a subject',
  bodyRequired: 'Enter your message',
  tooLong: 'This is too long',
  markWhich: 'Say which notification to mark as read, or all of them',
  notFound: 'There is no such notification.',
  tooManyMessages: 'You have sent many messages in the last hour. Please wait a while before sending more.',
} as const;
