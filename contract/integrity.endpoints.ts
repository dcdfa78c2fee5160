import { ADMIN, endpoint, shape } from './endpoint';
import type { DuplicateReport } from './integrity';
import { duplicateReportValidator } from './integrity.validators';

/** The integrity reports (issue 27): for board admins alone. */
export const INTEGRITY_ENDPOINTS = {
  duplicates: endpoint({
    method: 'GET',
    path: '/api/admin/integrity/duplicates',
    roles: ADMIN,
    summary:
      'Candidates who may be one person indexed twice (the same photo, or the same name and date of birth), both records side by side',
    input: { in: 'query', validator: duplicateReportValidator },
    answer: shape<DuplicateReport>(),
  }),
  notSame: endpoint({
    method: 'POST',
    path: '/api/admin/integrity/duplicates/:id/not-same',
    roles: ADMIN,
    summary: 'Mark a pair as not the same person (audited): it stays out of the report',
    answer: shape<void>(),
  }),
  scan: endpoint({
    method: 'POST',
    path: '/api/admin/integrity/scan',
    roles: ADMIN,
    summary: 'Check every candidate against every other again, in the background',
    answer: shape<void>(),
  }),
} as const;
