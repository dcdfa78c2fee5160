import { AUDIT_TRAIL_LIST } from './lists';

/**
 * The audit trail, the board's alone: the list (`?format=csv` exports it), which a record's own page
 * reads too, filtered by `entity` and `entity_id`, for its History.
 */
export const AUDIT_TRAIL_ENDPOINTS = {
  list: AUDIT_TRAIL_LIST,
} as const;
