import { ADMIN, endpoint, shape } from './endpoint';
import type { StaffMember } from './staff';
import { inviteStaffValidator, staffSuspensionValidator } from './staff.validators';

/** The board's own staff (issue 26): the board admins, for board admins alone. */
export const STAFF_ENDPOINTS = {
  list: endpoint({
    method: 'GET',
    path: '/api/admin/board-staff',
    roles: ADMIN,
    summary: 'The board admins with their status, last sign-in and the score sheets each marks',
    answer: shape<StaffMember[]>(),
  }),
  invite: endpoint({
    method: 'POST',
    path: '/api/admin/board-staff',
    roles: ADMIN,
    summary: 'Add a board admin; they are mailed an invitation to set their password',
    input: { in: 'json', validator: inviteStaffValidator },
    answer: shape<StaffMember>(),
  }),
  resendInvitation: endpoint({
    method: 'POST',
    path: '/api/admin/board-staff/:id/invitation',
    roles: ADMIN,
    summary: 'Mail an invited board admin their invitation again (a few times a day)',
    answer: shape<void>(),
  }),
  suspension: endpoint({
    method: 'POST',
    path: '/api/admin/board-staff/:id/suspension',
    roles: ADMIN,
    summary:
      'Suspend a board admin (their tokens end at once) or reinstate them; never oneself nor the last active one',
    input: { in: 'json', validator: staffSuspensionValidator },
    answer: shape<StaffMember>(),
  }),
} as const;
