import type { RegistrationWindow } from './diets';
import { ADMIN, endpoint, SCHOOL_ADMIN, shape } from './endpoint';

/**
 * The registration window as it applies to the caller (REGISTRATION_ENDPOINTS.window): a module without
 * registration's validators, so the pages that show the window (the Dashboard, the Registered list) do
 * not fetch VineJS for it.
 */
export const REGISTRATION_WINDOW = {
  admin: endpoint({
    method: 'GET',
    path: '/api/admin/registration-window',
    roles: ADMIN,
    summary: "The current diet's registration window",
    answer: shape<RegistrationWindow>(),
  }),
  school_admin: endpoint({
    method: 'GET',
    path: '/api/training-school-admin/registration-window',
    roles: SCHOOL_ADMIN,
    summary: "The current diet's registration window for the school, its extension included",
    answer: shape<RegistrationWindow>(),
  }),
} as const;
