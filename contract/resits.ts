/**
 * Resit candidates (spec: 'Resit candidate: candidate_index'; rows can be removed from the displayed
 * list). A resit entry names an indexed candidate, the exam, and the papers sat again. A school admin
 * adds and removes entries for their own school's candidates while the course header's registration is
 * open and the school is not suspended; board admins at any time. The validator is in resits.validators.ts.
 */

/** The papers of an exam that can be sat again, in the order the board prints them. */
export const RESIT_PAPERS = ['Paper I', 'Paper II', 'Paper III', 'Practical', 'Oral', 'Project'] as const;
export type ResitPaper = (typeof RESIT_PAPERS)[number];

export const RESIT_PATHS = {
  /** GET ?search=&page=&per_page= (a school admin sees only their school's); POST `{ candidate_index, exam, papers }`. */
  list: {
    admin: '/api/admin/resit-candidates',
    school_admin: '/api/training-school-admin/resit-candidates',
  },
  /** POST: remove the row from the list (kept for the audit trail). */
  remove: {
    admin: (id: number) => `/api/admin/resit-candidates/${id}/remove`,
    school_admin: (id: number) => `/api/training-school-admin/resit-candidates/${id}/remove`,
  },
} as const;

export const RESIT_LIMITS = { candidateIndexMax: 40, examMax: 120, searchMax: 100 } as const;

export const RESIT_MESSAGES = {
  candidateIndexRequired: 'Enter the candidate index number',
  candidateUnknown: 'There is no indexed candidate with this index number',
  examRequired: 'Enter the exam, e.g. May 2027 Professional Examination',
  papersRequired: 'Choose at least one paper',
  paperUnknown: 'Choose papers from the list',
  tooLong: 'This is too long',
  duplicate: 'This candidate already has a resit entry for this exam',
  registrationClosed: 'Registration is closed for this course header, so resit entries cannot be changed',
  schoolSuspended: 'Your training school is suspended, so resit entries cannot be changed',
  added: 'The resit entry is added.',
  removed: 'The resit entry is removed from the list.',
  notFound: 'There is no such resit entry in the list.',
} as const;

export interface ResitRow {
  id: number;
  candidate_index: string;
  candidate: {
    id: number;
    first_name: string;
    middle_name: string | null;
    last_name: string;
    school: { code: string; name: string };
    course_header: string;
    registration_status: string;
  };
  exam: string;
  papers: ResitPaper[];
  created_at: string;
}
