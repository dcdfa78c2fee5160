import type { CandidateFormOptions } from './candidates';
import { ADMIN, endpoint, shape } from './endpoint';

/**
 * The candidate form's choices (CANDIDATE_ENDPOINTS.formOptions): a module without the candidates'
 * validators, so the pages that only offer them (Score Entry's course headers) do not wait for VineJS.
 */
export const CANDIDATE_FORM_OPTIONS = endpoint({
  method: 'GET',
  path: '/api/admin/candidate-form-options',
  roles: ADMIN,
  summary: "The candidate form's choices: the schools and the course headers, with their statuses",
  answer: shape<CandidateFormOptions>(),
});
