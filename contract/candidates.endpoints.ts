import { CANDIDATE_FORM_OPTIONS, CANDIDATE_READ, CANDIDATE_RECORD } from './candidates.reads';
import {
  CERTIFICATE_FIELDS,
  IDENTITY_FIELDS,
  SUBJECT_FIELDS,
  SUBMISSION_KEY_FIELD,
  UPLOAD_FIELDS,
  type CandidateRecord,
  type CandidateRow,
} from './candidates';
import { verificationValidator } from './candidates.validators';
import { ADMIN, SCHOOL_ADMIN, endpoint, shape } from './endpoint';
import { CANDIDATES_LIST } from './lists';
import { METHOD_OVERRIDE_FIELD } from './profile';
import { regStatusValidator } from './registration.validators';

/**
 * The candidate form's parts: its text fields, its uploads, and the key that makes a retry the same
 * submission. The server checks the whole form (server/candidates/form.ts), since it reads the
 * database (course headers, schools, a stored upload kept on edit).
 */
const candidateForm = Object.fromEntries([
  ...[...IDENTITY_FIELDS, ...CERTIFICATE_FIELDS, ...SUBJECT_FIELDS, SUBMISSION_KEY_FIELD].map(
    (name) => [name, 'text'] as const,
  ),
  ...UPLOAD_FIELDS.map((name) => [name, 'file'] as const),
]) as Readonly<Record<string, 'file' | 'text'>>;

/**
 * Everything the browser may ask of the indexed candidates; registering many at once, the registered
 * lists and the window are registration's (registration.endpoints.ts).
 */
export const CANDIDATE_ENDPOINTS = {
  /** The board's candidate search and the Indexed Candidates list. */
  list: CANDIDATES_LIST,
  /** A retry with the same submission key answers the candidate it indexed the first time. */
  create: endpoint({
    method: 'POST',
    path: '/api/admin/candidates',
    roles: ADMIN,
    summary: 'Index a candidate (multipart, with the uploads)',
    input: { in: 'upload', fields: candidateForm },
    answer: shape<CandidateRecord>(),
  }),
  read: CANDIDATE_READ,
  update: endpoint({
    method: 'POST',
    path: '/api/admin/candidates/:id',
    roles: ADMIN,
    summary: 'Edit a candidate: the whole form again (multipart, _method=PUT); an upload left out is kept',
    input: { in: 'upload', fields: { ...candidateForm, [METHOD_OVERRIDE_FIELD]: 'text' } },
    answer: shape<CandidateRecord>(),
  }),
  verification: endpoint({
    method: 'POST',
    path: '/api/admin/candidates/:id/verification',
    roles: ADMIN,
    summary: "Mark a candidate's documents as verified or unverified",
    input: { in: 'json', validator: verificationValidator },
    answer: shape<CandidateRow>(),
  }),
  /** Registration for the current diet, one candidate: the board any, a school admin their own school's. */
  regStatus: {
    admin: endpoint({
      method: 'POST',
      path: '/api/admin/candidates/:id/reg-status',
      roles: ADMIN,
      summary: 'Register or unregister a candidate for the diet current for registration',
      input: { in: 'json', validator: regStatusValidator },
      answer: shape<CandidateRow>(),
    }),
    school_admin: endpoint({
      method: 'POST',
      path: '/api/training-school-admin/candidates/:id/reg-status',
      roles: SCHOOL_ADMIN,
      summary: "Register or unregister one of the school's candidates while its window is open",
      input: { in: 'json', validator: regStatusValidator },
      answer: shape<CandidateRow>(),
    }),
  },
  record: CANDIDATE_RECORD,
  formOptions: CANDIDATE_FORM_OPTIONS,
} as const;
