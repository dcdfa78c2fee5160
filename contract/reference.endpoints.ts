import { ADMIN, endpoint, SCHOOL_ADMIN, shape } from './endpoint';
import type { Nationality } from './nationalities';

/** Reference lists both roles' forms need, each under its own prefix (spec section 7). */
export const REFERENCE_ENDPOINTS = {
  nationalities: {
    admin: endpoint({
      method: 'GET',
      path: '/api/admin/nationality',
      roles: ADMIN,
      summary: 'Every nationality with its ISO 3166-1 code, Nigeria first',
      answer: shape<Nationality[]>(),
    }),
    school_admin: endpoint({
      method: 'GET',
      path: '/api/training-school-admin/nationality',
      roles: SCHOOL_ADMIN,
      summary: 'Every nationality with its ISO 3166-1 code, Nigeria first',
      answer: shape<Nationality[]>(),
    }),
  },
} as const;
