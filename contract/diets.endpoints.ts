import type { DietExtension, DietRow } from './diets';
import { DIET_CHOICES } from './diets.choices';
import { dietValidator, extensionValidator } from './diets.validators';
import { ADMIN, endpoint, shape } from './endpoint';
import { DIETS_LIST } from './lists';

/**
 * The exam diets: the board's list, create, edit, make current, close and extensions; the diets as
 * choices for both roles. The registration window is registration's (registration.endpoints.ts).
 */
export const DIET_ENDPOINTS = {
  list: DIETS_LIST,
  create: endpoint({
    method: 'POST',
    path: '/api/admin/diets',
    roles: ADMIN,
    summary: 'Create a diet: its code, name, paper dates and registration window',
    input: { in: 'json', validator: dietValidator },
    answer: shape<DietRow>(),
  }),
  update: endpoint({
    method: 'POST',
    path: '/api/admin/diets/:id',
    roles: ADMIN,
    summary: 'Edit a diet that is not closed',
    input: { in: 'json', validator: dietValidator },
    answer: shape<DietRow>(),
  }),
  current: endpoint({
    method: 'POST',
    path: '/api/admin/diets/:id/current',
    roles: ADMIN,
    summary: 'Make a diet the one current for registration',
    answer: shape<DietRow>(),
  }),
  close: endpoint({
    method: 'POST',
    path: '/api/admin/diets/:id/close',
    roles: ADMIN,
    summary: 'Close a diet: it becomes past (no registration, no new resit entries)',
    answer: shape<DietRow>(),
  }),
  extensions: endpoint({
    method: 'GET',
    path: '/api/admin/diets/:id/extensions',
    roles: ADMIN,
    summary: "A diet's registration extensions, one a school",
    answer: shape<DietExtension[]>(),
  }),
  /** `{ training_school, until, reason }`: grants a school's extension, or moves it. */
  grantExtension: endpoint({
    method: 'POST',
    path: '/api/admin/diets/:id/extensions',
    roles: ADMIN,
    summary: "Extend a diet's registration window for one school",
    input: { in: 'json', validator: extensionValidator },
    answer: shape<DietExtension[]>(),
  }),
  withdrawExtension: endpoint({
    method: 'POST',
    path: '/api/admin/diets/:id/extensions/:school/withdraw',
    roles: ADMIN,
    summary: "Withdraw a school's extension (the school by its code)",
    answer: shape<DietExtension[]>(),
  }),
  /** The diets as choices for filters and forms, newest first. */
  choices: DIET_CHOICES,
} as const;
