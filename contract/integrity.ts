/**
 * The integrity reports (issue 27, admin only): candidates who may be one person indexed twice, by the
 * same photo or the same name and date of birth, across schools and years (server/integrity/).
 */

/** The page, reached from Indexed Candidates (docs/decisions.md "Integrity reports"). */
export const INTEGRITY_PAGE = '/integrity';

/** Pairs a page of the report shows. */
export const DUPLICATES_PER_PAGE = 20;

/** One side of a pair: what the board compares, side by side. */
export interface DuplicateSide {
  id: number;
  candidate_index: string;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  date_of_birth: string;
  gender: string;
  year: number;
  school: { code: string; name: string };
  course_header: string;
  /** The photo to show, as a file key (served at /files/<key>): the print photo, else the original. */
  photo: string | null;
  /** Under an exam offence still on the board's list. */
  offender: boolean;
}

export interface DuplicatePair {
  id: number;
  same_photo: boolean;
  same_identity: boolean;
  /** The photos' likeness, 0 to 1, when both have one and they were compared. */
  photo_likeness: number | null;
  /** One side is an exam offender: indexed again, perhaps under another name. */
  offender: boolean;
  found_at: string;
  candidates: [DuplicateSide, DuplicateSide];
}

export interface DuplicateReport {
  pairs: DuplicatePair[];
  total: number;
  page: number;
  per_page: number;
  /** The last run over every candidate, if any. */
  last_scan: { finished_at: string; candidates: number; pairs: number; ms: number } | null;
  /** Candidates waiting for their check (just indexed or changed). */
  waiting: number;
}

export const INTEGRITY_MESSAGES = {
  notFound: 'There is no such pair in the report.',
  notSame: 'Marked as not the same person. The pair stays out of the report.',
  scanQueued: 'Everyone will be checked again in the background; this page shows the result when it is done.',
  pageInvalid: 'Choose a page number from the list',
} as const;
