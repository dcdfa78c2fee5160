import type { CandidateDossier } from './candidateDossier';
import type { CandidateFormOptions, CandidateRecord } from './candidates';
import { ADMIN, endpoint, SCHOOL_ADMIN, shape } from './endpoint';

// The candidates' reads, which CANDIDATE_ENDPOINTS names: a module without the candidates' validators,
// so the pages that only read (Score Entry's course headers, the lists, a record) do not wait for VineJS.

/** The candidate form's choices (CANDIDATE_ENDPOINTS.formOptions). */
export const CANDIDATE_FORM_OPTIONS = endpoint({
  method: 'GET',
  path: '/api/admin/candidate-form-options',
  roles: ADMIN,
  summary: "The candidate form's choices: the schools and the course headers, with their statuses",
  answer: shape<CandidateFormOptions>(),
});

/** A candidate's whole record: the form's fields, the stored uploads and the row's facts (the edit page's). */
export const CANDIDATE_READ = endpoint({
  method: 'GET',
  path: '/api/admin/candidates/:id',
  roles: ADMIN,
  summary: "A candidate's whole record: the form's fields, the stored uploads and the row's facts",
  answer: shape<CandidateRecord>(),
});

/**
 * A candidate's record page: identity, documents and their check, registration, payments, offences
 * and results per diet, and what about them the caller may print. A school admin reads only their own
 * school's candidates: another school's id is a 404, as an unknown one.
 */
export const CANDIDATE_RECORD = {
  admin: endpoint({
    method: 'GET',
    path: '/api/admin/candidates/:id/record',
    roles: ADMIN,
    summary: "A candidate's record page: identity, documents, registration, payments, offences, results",
    answer: shape<CandidateDossier>(),
  }),
  school_admin: endpoint({
    method: 'GET',
    path: '/api/training-school-admin/candidates/:id/record',
    roles: SCHOOL_ADMIN,
    summary: "The record page of one of the school's candidates (another school's: 404)",
    answer: shape<CandidateDossier>(),
  }),
} as const;
