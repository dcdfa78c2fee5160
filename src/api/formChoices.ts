import type { CandidateFormOptions } from '../../contract/candidates';
import { CANDIDATE_FORM_OPTIONS } from '../../contract/candidates.reads';
import { REFERENCE_ENDPOINTS } from '../../contract/reference.endpoints';
import type { Role } from '../../contract/roles';
import { send } from './send';

/**
 * The choices the candidate forms offer, apart from the form's own chunk (VineJS and the form), so
 * they can be asked for while that chunk is still on its way (src/shell/routes.tsx).
 */

/** The form's choices, read without the candidates' validators (contract/candidates.reads.ts). */
export const loadFormOptions = async (): Promise<CandidateFormOptions> =>
  (await send(CANDIDATE_FORM_OPTIONS)).data;

/** The nationality list (no validator, so no VineJS: contract/reference.endpoints.ts). */
export const loadNationalities = (role: Role) =>
  send(REFERENCE_ENDPOINTS.nationalities[role]).then(({ data }) => data);
