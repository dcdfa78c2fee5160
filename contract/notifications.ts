/** Notifications of the board (spec sections 2, 3 and 7): what schools did, for the board to read. */

export interface BoardNotification {
  id: number;
  /** What happened, e.g. 'school.message'; later areas add their own kinds. */
  kind: string;
  title: string;
  /** Plain text, always rendered as text, never as HTML. */
  body: string;
  school: { id: number; code: string; name: string } | null;
  created_at: string;
  read_at: string | null;
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
