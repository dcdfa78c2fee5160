import { ADMIN, endpoint, shape } from './endpoint';
import { SCHOOLS_LIST } from './lists';
import type { SchoolAdminSummary, SchoolRow } from './schools';
import {
  adminActiveValidator,
  schoolAdminValidator,
  schoolStatusValidator,
  schoolValidator,
} from './schools.validators';

/** Everything the browser may ask of the training schools and their admin accounts (the board's alone). */
export const SCHOOL_ENDPOINTS = {
  list: SCHOOLS_LIST,
  create: endpoint({
    method: 'POST',
    path: '/api/admin/training-schools',
    roles: ADMIN,
    summary: 'Create a training school',
    input: { in: 'json', validator: schoolValidator },
    answer: shape<SchoolRow>(),
  }),
  update: endpoint({
    method: 'POST',
    path: '/api/admin/training-schools/:id',
    roles: ADMIN,
    summary: 'Edit a training school (the whole form again)',
    input: { in: 'json', validator: schoolValidator },
    answer: shape<SchoolRow>(),
  }),
  status: endpoint({
    method: 'POST',
    path: '/api/admin/training-schools/:id/status',
    roles: ADMIN,
    summary: 'Suspend a training school, or make it active again',
    input: { in: 'json', validator: schoolStatusValidator },
    answer: shape<SchoolRow>(),
  }),
  addAdmin: endpoint({
    method: 'POST',
    path: '/api/admin/training-schools/:id/admins',
    roles: ADMIN,
    summary: 'Add a school admin to a school; they are mailed a code to set their password',
    input: { in: 'json', validator: schoolAdminValidator },
    answer: shape<SchoolAdminSummary>(),
  }),
  adminActive: endpoint({
    method: 'POST',
    path: '/api/admin/school-admins/:id/active',
    roles: ADMIN,
    summary: 'Deactivate a school admin (signed out everywhere) or reactivate them',
    input: { in: 'json', validator: adminActiveValidator },
    answer: shape<SchoolAdminSummary>(),
  }),
  adminPasswordReset: endpoint({
    method: 'POST',
    path: '/api/admin/school-admins/:id/password-reset',
    roles: ADMIN,
    summary: 'Mail an active school admin a new password-reset code',
    answer: shape<void>(),
  }),
} as const;
