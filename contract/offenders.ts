/**
 * Exam offenders (spec: 'Offender: id'; sections 2 and 4: the rows can be removed from the displayed
 * list). An offence is recorded against an indexed candidate by their index number; while its sanction
 * runs (from `sanction_from` to `sanction_until`, both inclusive; no end: indefinitely) the candidate
 * cannot be registered. The VineJS validator is in offenders.validators.ts.
 */

import { formatDate } from './format';
import { LISTED_LIMITS, LISTED_MESSAGES, listedPaths, type ListedRow } from './listed';

/** POST `{ candidate_index, exam, offence, sanction, sanction_from, sanction_until? }`. */
export const OFFENDER_PATHS = listedPaths('/api/admin/exam-offenders');

export const OFFENCE_LIMITS = { ...LISTED_LIMITS, offenceMax: 500, sanctionMax: 500 } as const;

export const OFFENDER_MESSAGES = {
  ...LISTED_MESSAGES,
  examRequired: 'Enter the exam, e.g. May 2026 Professional Examination',
  offenceRequired: 'Describe the offence',
  sanctionRequired: 'Enter the sanction',
  sanctionFromRequired: 'Enter the date the sanction starts',
  dateInvalid: 'Enter a real date (DD/MM/YYYY)',
  untilBeforeFrom: 'The sanction cannot end before it starts',
  recorded: 'The offence is recorded.',
  removed: 'The offence is removed from the list.',
  notFound: 'There is no such offence in the list.',
} as const;

/** A row of the exam offenders list. `active`: the sanction runs today (Lagos time). */
export interface OffenderRow extends ListedRow {
  offence: string;
  sanction: string;
  /** YYYY-MM-DD. */
  sanction_from: string;
  /** YYYY-MM-DD, or null: indefinitely. */
  sanction_until: string | null;
  active: boolean;
}

/** Why registration is refused while a sanction runs (both roles; the reason is the offence). */
export function sanctionBlocksMessage(
  sanction: { sanction_until: string | null; offence: string },
  what: 'registered' | 'entered for a resit',
): string {
  const until = sanction.sanction_until ? `until ${formatDate(sanction.sanction_until)}` : 'with no end date';
  return `This candidate is under an exam sanction ${until} (${sanction.offence}), so cannot be ${what}`;
}
