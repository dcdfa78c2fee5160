import type { AudienceChoices, BroadcastDetail, BroadcastSummary, SchoolBroadcast } from './broadcasts';
import { broadcastValidator } from './broadcasts.validators';
import { ADMIN, download, endpoint, SCHOOL_ADMIN, shape } from './endpoint';

/**
 * Broadcasts (issue 26): the board sends, follows, reminds and withdraws (admins); an addressed school's
 * admins read and acknowledge, and download the attachments (server/routes/broadcasts.ts).
 */
export const BROADCAST_ENDPOINTS = {
  audiences: endpoint({
    method: 'GET',
    path: '/api/admin/broadcasts/audiences',
    roles: ADMIN,
    summary: 'What the send form offers: the schools, their states, the course headers',
    answer: shape<AudienceChoices>(),
  }),
  send: endpoint({
    method: 'POST',
    path: '/api/admin/broadcasts',
    roles: ADMIN,
    summary:
      'Send a broadcast: title, plain-text body, audience (fixed when sent), up to 5 attachments, acknowledgement asked or not',
    input: { in: 'form', validator: broadcastValidator, files: ['attachments'] },
    answer: shape<BroadcastSummary>(),
  }),
  sent: endpoint({
    method: 'GET',
    path: '/api/admin/broadcasts',
    roles: ADMIN,
    summary: 'The broadcasts sent, newest first, with read and acknowledged counts',
    answer: shape<BroadcastSummary[]>(),
  }),
  detail: endpoint({
    method: 'GET',
    path: '/api/admin/broadcasts/:id',
    roles: ADMIN,
    summary: "One broadcast with each addressed school's read and acknowledged state",
    answer: shape<BroadcastDetail>(),
  }),
  remind: endpoint({
    method: 'POST',
    path: '/api/admin/broadcasts/:id/remind',
    roles: ADMIN,
    summary: 'Mail the schools that have not acknowledged a reminder (limited; audited)',
    answer: shape<{ schools: number }>(),
  }),
  withdraw: endpoint({
    method: 'POST',
    path: '/api/admin/broadcasts/:id/withdraw',
    roles: ADMIN,
    summary: 'Withdraw a broadcast: schools no longer see it (audited)',
    answer: shape<void>(),
  }),
  attachment: {
    admin: endpoint({
      method: 'GET',
      path: '/api/admin/broadcasts/:id/attachments/:attachment',
      roles: ADMIN,
      summary: "A broadcast's attachment",
      answer: download('application/octet-stream'),
    }),
    school_admin: endpoint({
      method: 'GET',
      path: '/api/training-school-admin/broadcasts/:id/attachments/:attachment',
      roles: SCHOOL_ADMIN,
      summary: "An attachment of a broadcast addressed to the caller's school",
      answer: download('application/octet-stream'),
    }),
  },
  received: endpoint({
    method: 'GET',
    path: '/api/training-school-admin/broadcasts',
    roles: SCHOOL_ADMIN,
    summary: "The broadcasts addressed to the caller's school, newest first (withdrawn ones left out)",
    answer: shape<SchoolBroadcast[]>(),
  }),
  /**
   * A GET that records the school's first read: opening it in the portal is reading it (idempotent;
   * the SPA's loads of a page are GETs, and a POST there would make every kept load stale).
   */
  open: endpoint({
    method: 'GET',
    path: '/api/training-school-admin/broadcasts/:id',
    roles: SCHOOL_ADMIN,
    summary: "One broadcast addressed to the caller's school; the school's first opening records its read",
    answer: shape<SchoolBroadcast>(),
  }),
  acknowledge: endpoint({
    method: 'POST',
    path: '/api/training-school-admin/broadcasts/:id/acknowledge',
    roles: SCHOOL_ADMIN,
    summary: "Acknowledge a broadcast that asks for it, for the caller's school (tells the board)",
    answer: shape<SchoolBroadcast>(),
  }),
} as const;
