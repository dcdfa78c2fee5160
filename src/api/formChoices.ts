import { CANDIDATE_PATHS } from '../../contract/candidates';
import type { Role } from '../../contract/roles';
import { call } from './client';

/**
 * The choices the candidate forms offer, apart from the form's own chunk (VineJS and the form), so
 * they can be asked for while that chunk is still on its way (src/shell/routes.tsx).
 */
export interface FormOptions {
  schools: { code: string; name: string; status: string }[];
  course_headers: { code: string; title: string; indexing_status: string; registration_status: string }[];
}

export const loadFormOptions = () => call<FormOptions>(CANDIDATE_PATHS.formOptions).then((r) => r.data!);

export const loadNationalities = (role: Role) =>
  call<{ code: string; name: string }[]>(
    `${role === 'admin' ? '/api/admin' : '/api/training-school-admin'}/nationality`,
  ).then((r) => r.data!);
