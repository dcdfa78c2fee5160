import type { CandidateFormOptions } from '../../contract/candidates';
import { REFERENCE_ENDPOINTS } from '../../contract/reference.endpoints';
import type { Role } from '../../contract/roles';
import { send } from './send';

/**
 * The choices the candidate forms offer, apart from the form's own chunk (VineJS and the form), so
 * they can be asked for while that chunk is still on its way (src/shell/routes.tsx).
 */

/**
 * The candidates' endpoints are imported when first asked for: this module is in the entry chunk (the
 * shell prefetches the choices), and the endpoints' validators (VineJS) must stay out of the login page.
 */
export const loadFormOptions = async (): Promise<CandidateFormOptions> => {
  const { CANDIDATE_ENDPOINTS } = await import('../../contract/candidates.endpoints');
  return (await send(CANDIDATE_ENDPOINTS.formOptions)).data;
};

/** The nationality list (no validator, so no VineJS: contract/reference.endpoints.ts). */
export const loadNationalities = (role: Role) =>
  send(REFERENCE_ENDPOINTS.nationalities[role]).then(({ data }) => data);
