import { ADMIN, endpoint, shape } from './endpoint';
import { OFFENDERS_LIST } from './lists';
import type { OffenderRow } from './offenders';
import { offenceValidator } from './offenders.validators';

/** The exam offenders, the board's alone. */
export const OFFENDER_ENDPOINTS = {
  list: OFFENDERS_LIST,
  /** `{ candidate_index, diet, offence, sanction, sanction_diets? | sanction_from, sanction_until? }`. */
  record: endpoint({
    method: 'POST',
    path: '/api/admin/exam-offenders',
    roles: ADMIN,
    summary: "Record an offence against an indexed candidate, and its sanction's term",
    input: { in: 'json', validator: offenceValidator },
    answer: shape<OffenderRow>(),
  }),
  /** The row leaves the list; it is kept for the audit trail. */
  remove: endpoint({
    method: 'POST',
    path: '/api/admin/exam-offenders/:id/remove',
    roles: ADMIN,
    summary: 'Remove an offence from the list',
    answer: shape<void>(),
  }),
} as const;
