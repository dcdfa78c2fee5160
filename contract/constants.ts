/** Business constants and limits, spec section 9, kept in one place for browser and server. */

/** Whose name is at the head of every paper and receipt. */
export const BOARD_NAME = 'West African Health Examinations Board';

/** Every upload must be at most this many bytes, else 'File is too large'. */
export const UPLOAD_LIMIT_BYTES = 2_000_000;

/** First and last names need at least this many characters. */
export const NAME_MIN_LENGTH = 3;

/** Toasts close by themselves after this long and show no progress bar. */
export const TOAST_AUTO_CLOSE_MS = 5000;

/** Without a click or a scroll for this long, the idle flag is set. */
export const IDLE_TIMEOUT_MS = 10_000;

/** From this many unread notifications the badge reads '99+'. */
export const BADGE_CAP = 100;

/** Nigeria is listed first among nationalities. */
export const NIGERIA_CODE = 'NG';

/** Course headers with special rules on the candidate form. */
export const SPECIAL_COURSE_HEADERS = ['A4', 'A5', 'B5'] as const;

export const MARITAL_STATUSES = [
  { code: 'S', label: 'Single' },
  { code: 'M', label: 'Married' },
] as const;

export const GENDERS = ['female', 'male'] as const;
export type Gender = (typeof GENDERS)[number];

/** The badge text for an unread count: '99+' from BADGE_CAP on, nothing for zero. */
export function badgeText(unread: number): string {
  if (unread <= 0) return '';
  return unread >= BADGE_CAP ? '99+' : String(unread);
}
