/**
 * Broadcasts (issue 26): the board's announcements to its schools. An admin sends one to an audience,
 * resolved to a fixed list of schools when it is sent; each addressed school's admins read it in the
 * portal (and are mailed a link to it through the outbox), and acknowledge it when it asks them to.
 */

/** Who a broadcast is for: every school, chosen schools, or the schools of a state, course header or status. */
export const AUDIENCE_KINDS = ['all', 'schools', 'state', 'course_header', 'status'] as const;
export type AudienceKind = (typeof AUDIENCE_KINDS)[number];

export const AUDIENCE_LABELS: Record<AudienceKind, string> = {
  all: 'All schools',
  schools: 'Chosen schools',
  state: 'The schools of a state',
  course_header: 'The schools with candidates under a course header',
  status: 'The schools of a status',
};

/** The audience as it was chosen (the schools it named are the broadcast's recipients, fixed at sending). */
interface BroadcastAudience {
  kind: AudienceKind;
  /** In words: "All schools", "Schools in Oyo", "3 chosen schools". */
  description: string;
}

export const BROADCAST_LIMITS = {
  titleMax: 150,
  bodyMax: 10_000,
  attachmentsMax: 5,
  fileNameMax: 200,
  stateMax: 100,
  schoolsMax: 2000,
  /** Reminders of one broadcast: at most this many, at least this many hours apart. */
  remindersMax: 3,
  reminderHours: 24,
} as const;

export interface BroadcastAttachment {
  id: number;
  /** The name it was sent with: shown as text, never as HTML. */
  name: string;
  content_type: string;
  size: number;
}

/** A sent broadcast as the board's list shows it. */
export interface BroadcastSummary {
  id: number;
  title: string;
  audience: BroadcastAudience;
  requires_acknowledgement: boolean;
  sent_at: string;
  sent_by: string | null;
  withdrawn_at: string | null;
  schools: number;
  read: number;
  acknowledged: number;
  attachments: number;
}

/** One addressed school's state of a broadcast. */
interface BroadcastRecipient {
  school: { id: number; code: string; name: string; state: string };
  read_at: string | null;
  acknowledged_at: string | null;
}

/** One broadcast as the board sees it: the summary, its body and files, and each school's state. */
export interface BroadcastDetail extends BroadcastSummary {
  /** Plain text, shown as text. */
  body: string;
  attachment_list: BroadcastAttachment[];
  recipients: BroadcastRecipient[];
  reminders: number;
  last_reminded_at: string | null;
  /** Whether a reminder may be sent now (acknowledgement asked, some outstanding, limits allow). */
  can_remind: boolean;
}

/** A broadcast as an addressed school sees it. */
export interface SchoolBroadcast {
  id: number;
  title: string;
  body: string;
  requires_acknowledgement: boolean;
  sent_at: string;
  read_at: string | null;
  acknowledged_at: string | null;
  attachments: BroadcastAttachment[];
}

/** What the send form offers to choose from. */
export interface AudienceChoices {
  schools: { id: number; code: string; name: string; state: string; status: string }[];
  states: string[];
  course_headers: { id: number; code: string; title: string }[];
}

/** The school admins' own list of broadcasts (linked from their Dashboard). */
export const SCHOOL_BROADCASTS_PAGE = '/broadcasts';

export const BROADCAST_MESSAGES = {
  sent: 'The broadcast has been sent.',
  titleRequired: 'Enter a title',
  bodyRequired: 'Enter the message',
  tooLong: 'This is too long',
  chooseAudience: 'Choose who the broadcast is for',
  chooseSchools: 'Choose at least one school',
  chooseState: 'Choose a state',
  chooseCourseHeader: 'Choose a course header',
  chooseStatus: 'Choose active or suspended',
  unknownSchool: 'One of the chosen schools does not exist',
  unknownCourseHeader: 'There is no such course header',
  emptyAudience: 'No school is in this audience',
  acknowledgementChoice: 'Say whether schools must acknowledge it',
  tooManyFiles: `Attach at most ${BROADCAST_LIMITS.attachmentsMax} files`,
  /** The spec's upload message. */
  fileTooLarge: 'File is too large',
  fileNotAccepted: 'Attach a PDF or an image (JPEG, PNG, GIF or WebP)',
  fileNameTooLong: 'This file name is too long',
  notFound: 'There is no such broadcast.',
  attachmentNotFound: 'There is no such attachment.',
  withdrawn: 'The broadcast has been withdrawn. Schools no longer see it.',
  alreadyWithdrawn: 'This broadcast has already been withdrawn.',
  acknowledged: 'Thank you. The board can see that you have acknowledged it.',
  noAcknowledgementAsked: 'This broadcast does not ask for an acknowledgement.',
  reminded: (count: number) =>
    count === 1 ? 'A reminder is on its way to 1 school.' : `A reminder is on its way to ${count} schools.`,
  nothingToRemind: 'Every school has acknowledged it: there is no one to remind.',
  remindLimit: `A broadcast may be reminded ${BROADCAST_LIMITS.remindersMax} times, at least ${BROADCAST_LIMITS.reminderHours} hours apart.`,
} as const;
