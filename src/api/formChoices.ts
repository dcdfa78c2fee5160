import type { CandidateFormOptions } from '../../contract/candidates';
import type { Role } from '../../contract/roles';
import { call } from './client';
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

export const loadNationalities = (role: Role) =>
  call<{ code: string; name: string }[]>(
    `${role === 'admin' ? '/api/admin' : '/api/training-school-admin'}/nationality`,
  ).then((r) => r.data!);
