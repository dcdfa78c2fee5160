import { CANDIDATE_PATHS } from '../../contract/candidates';
import { REFERENCE_ENDPOINTS } from '../../contract/reference.endpoints';
import type { Role } from '../../contract/roles';
import { call } from './client';
import { send } from './send';

/**
 * The choices the candidate forms offer, apart from the form's own chunk (VineJS and the form), so
 * they can be asked for while that chunk is still on its way (src/shell/routes.tsx).
 */
export interface FormOptions {
  schools: { code: string; name: string; status: string }[];
  course_headers: { code: string; title: string; indexing_status: string; registration_status: string }[];
}

export const loadFormOptions = () => call<FormOptions>(CANDIDATE_PATHS.formOptions).then((r) => r.data!);

/** The nationality list (no validator, so no VineJS: contract/reference.endpoints.ts). */
export const loadNationalities = (role: Role) =>
  send(REFERENCE_ENDPOINTS.nationalities[role]).then(({ data }) => data);
