/**
 * What the exam offenders and resit candidates lists share (spec: their rows can be removed from the
 * displayed list): a row is about one indexed candidate, named by index number, at one exam, and a
 * removed row is kept for the audit trail.
 */

export const LISTED_LIMITS = { candidateIndexMax: 40, searchMax: 100 } as const;

export const LISTED_MESSAGES = {
  candidateIndexRequired: 'Enter the candidate index number',
  candidateUnknown: 'There is no indexed candidate with this index number',
  tooLong: 'This is too long',
} as const;

/** The candidate a row is about, with their school and course header. */
export interface ListedCandidate {
  id: number;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  school: { code: string; name: string };
  course_header: string;
}

export interface ListedRow {
  id: number;
  candidate_index: string;
  candidate: ListedCandidate;
  /** The exam diet the row is about (contract/diets.ts). */
  diet: { code: string; name: string };
  created_at: string;
}
