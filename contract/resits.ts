/**
 * Resit candidates (spec: 'Resit candidate: candidate_index'; rows can be removed from the displayed
 * list). A resit entry names an indexed candidate, the exam, and the papers sat again. A school admin
 * adds and removes entries for their own school's candidates while the course header's registration is
 * open and the school is not suspended; board admins at any time. The validator is in resits.validators.ts.
 */

import { LISTED_LIMITS, LISTED_MESSAGES, type ListedCandidate, type ListedRow } from './listed';

/** The papers of an exam that can be sat again, in the order the board prints them. */
export const RESIT_PAPERS = ['Paper I', 'Paper II', 'Paper III', 'Practical', 'Oral', 'Project'] as const;
export type ResitPaper = (typeof RESIT_PAPERS)[number];

export const RESIT_LIMITS = LISTED_LIMITS;

export const RESIT_MESSAGES = {
  ...LISTED_MESSAGES,
  dietRequired: 'Choose the diet',
  dietUnknown: 'Choose a diet from the list',
  dietClosed: 'This diet is closed, so resit entries cannot be added to it',
  /** A school admin enters resits for the diet current for registration only. */
  dietNotCurrent: 'Resit entries can be added for the diet open for registration only',
  papersRequired: 'Choose at least one paper',
  paperUnknown: 'Choose papers from the list',
  duplicate: 'This candidate already has a resit entry for this diet',
  registrationClosed: 'Registration is closed for this course header, so resit entries cannot be changed',
  schoolSuspended: 'Your training school is suspended, so resit entries cannot be changed',
  added: 'The resit entry is added.',
  removed: 'The resit entry is removed from the list.',
  notFound: 'There is no such resit entry in the list.',
} as const;

export interface ResitRow extends ListedRow {
  /** `registration_status`: a school admin may change the row only while it is open. */
  candidate: ListedCandidate & { registration_status: string };
  papers: ResitPaper[];
}
