import type { DietChoice } from './diets';
import { ADMIN, endpoint, SCHOOL_ADMIN, shape } from './endpoint';

/**
 * The diets as choices (DIET_ENDPOINTS.choices): a module without the diets' validators, so the pages
 * that offer a diet filter do not fetch VineJS for it.
 */
export const DIET_CHOICES = {
  admin: endpoint({
    method: 'GET',
    path: '/api/admin/diet-choices',
    roles: ADMIN,
    summary: 'The diets as choices, newest first',
    answer: shape<DietChoice[]>(),
  }),
  school_admin: endpoint({
    method: 'GET',
    path: '/api/training-school-admin/diet-choices',
    roles: SCHOOL_ADMIN,
    summary: 'The diets as choices, newest first',
    answer: shape<DietChoice[]>(),
  }),
} as const;
