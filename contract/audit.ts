/**
 * The audit trail's catalogue: every action the portal records, with the kind of thing it is about. The
 * server's `audit()` takes only these, so an action cannot be misspelt or filed under the wrong entity,
 * and the auditors' views (a later area) can list and label them from here. The strings are the ones
 * the audit log already holds; a new action is added here first.
 */
export const AUDIT_ACTIONS = {
  'auth.signed_in': 'access_token',
  'auth.signed_out': 'access_token',
  'impersonation.started': 'user',
  'impersonation.ended': 'user',
  'user.created': 'user',
  'user.deactivated': 'user',
  'user.reactivated': 'user',
  'user.profile_updated': 'user',
  'user.password_changed': 'user',
  'user.password_reset_sent': 'user',
  'user.password_reset': 'user',
  'user.password_reset_requested': 'user',
  'school.created': 'training_school',
  'school.updated': 'training_school',
  'school.status_changed': 'training_school',
  'course_header.created': 'course_header',
  'course_header.updated': 'course_header',
  'course_header.indexing_status_changed': 'course_header',
  'course_header.registration_status_changed': 'course_header',
  'candidate.indexed': 'candidate',
  'candidate.updated': 'candidate',
  'candidate.verification_changed': 'candidate',
  'candidate.reg_status_changed': 'candidate',
  'bulk_indexing.checked': 'bulk_batch',
  'exam_offence.recorded': 'exam_offence',
  'exam_offence.removed': 'exam_offence',
  'resit.added': 'resit',
  'resit.removed': 'resit',
  'diet.created': 'diet',
  'diet.updated': 'diet',
  'diet.made_current': 'diet',
  'diet.closed': 'diet',
  'diet.extension_granted': 'diet',
  'diet.extension_withdrawn': 'diet',
  'fee.created': 'fee',
  'fee.updated': 'fee',
  'fee.status_changed': 'fee',
  'fee.deleted': 'fee',
  'payment.started': 'payment',
  'payment.status_changed': 'payment',
  'payment.credited': 'payment',
  'payment_issue.opened': 'payment_issue',
  'payment_issue.resolved': 'payment_issue',
  'paper.created': 'paper',
  'paper.updated': 'paper',
  'paper.deleted': 'paper',
  'result_rules.updated': 'course_header',
  'score_sheet.created': 'score_sheet',
  'score_sheet.submitted': 'score_sheet',
  'score_sheet.marker_three_set': 'score_sheet',
  'score_sheet.locked': 'score_sheet',
  'score_sheet.unlocked': 'score_sheet',
  'mark.changed': 'score_sheet',
  'in_course_score.changed': 'score_sheet',
  'results.computed': 'result_publication',
  'results.published': 'result_publication',
  'results.withdrawn': 'result_publication',
  'result.held': 'result_hold',
  'result.released': 'result_hold',
  'notification.created': 'notification',
  'notification.marked_read': 'notification',
  'notification.all_marked_read': 'notification',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** What an entry is about (the `entity` column). */
export type AuditEntity = (typeof AUDIT_ACTIONS)[AuditAction];

export const isAuditAction = (value: unknown): value is AuditAction =>
  typeof value === 'string' && Object.hasOwn(AUDIT_ACTIONS, value);
