import type { MachineStep } from './statecharts';

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
  'staff.invited': 'user',
  'staff.invitation_mailed': 'user',
  'staff.invitation_resent': 'user',
  'staff.joined': 'user',
  'staff.suspended': 'user',
  'staff.reinstated': 'user',
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
  'payment.provider_failing': 'payment_provider',
  'payment.provider_recovered': 'payment_provider',
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
  'document.printed': 'document_print',
  'document.school_printing_changed': 'document',
  'notification.created': 'notification',
  'notification.marked_read': 'notification',
  'notification.all_marked_read': 'notification',
  'broadcast.sent': 'broadcast',
  'broadcast.withdrawn': 'broadcast',
  'broadcast.reminded': 'broadcast',
  'broadcast.read': 'broadcast',
  'broadcast.acknowledged': 'broadcast',
  'conversation.started': 'conversation',
  'conversation.answered': 'conversation',
  'conversation.replied': 'conversation',
  'duplicate_pair.not_same_person': 'duplicate_pair',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

const STATUS_SAVED: MachineStep = {
  machine: 'statusToggle',
  transition: 'updating --done: updateStatus--> ready.saved',
};

/**
 * The actions a statechart drives, with the machine and transition each comes from (as
 * contract/statecharts.ts names them): the audit trail links such an entry to that transition on
 * /statecharts (`statechartHref`, src/statecharts/MachineStepLink.tsx). tests/contract/audit-steps.test.ts
 * checks that every named machine and transition exists. An action done from a plain form or the API
 * alone has none.
 */
export const AUDIT_MACHINE_STEPS: Partial<Record<AuditAction, MachineStep>> = {
  'auth.signed_in': { machine: 'session', transition: 'confirming --done: confirmCode--> signedIn' },
  'auth.signed_out': { machine: 'session', transition: 'signingOut --done: signOut--> signedOut' },
  'impersonation.started': {
    machine: 'impersonation',
    transition: 'starting --done: startImpersonation--> reloading',
  },
  'impersonation.ended': {
    machine: 'impersonation',
    transition: 'switchingBack --done: switchBack--> reloading',
  },
  'user.profile_updated': { machine: 'formDialog', transition: 'open.submitting --done: submit--> closed' },
  'user.password_changed': { machine: 'formDialog', transition: 'open.submitting --done: submit--> closed' },
  'school.status_changed': STATUS_SAVED,
  'course_header.indexing_status_changed': STATUS_SAVED,
  'course_header.registration_status_changed': STATUS_SAVED,
  'candidate.reg_status_changed': STATUS_SAVED,
  'fee.status_changed': STATUS_SAVED,
  'candidate.indexed': { machine: 'candidateForm', transition: 'submitting --candidate.saved--> succeeded' },
  'candidate.updated': { machine: 'candidateForm', transition: 'submitting --candidate.saved--> succeeded' },
  'bulk_indexing.checked': { machine: 'bulkImport', transition: 'checking --done: checkFiles--> reviewed' },
  'payment.started': { machine: 'payment', transition: 'initialising --done: startPayment--> paying' },
  'payment.status_changed': {
    machine: 'payment',
    transition: 'verifying --done: verifyPayment [settledAs]--> paid',
  },
  'score_sheet.submitted': { machine: 'scoreSheet', transition: 'submitting --done: submitGrid--> loading' },
  'score_sheet.locked': { machine: 'scoreSheet', transition: 'locking --done: lockSheet--> loading' },
  'score_sheet.unlocked': { machine: 'scoreSheet', transition: 'unlocking --done: unlockSheet--> loading' },
  'mark.changed': { machine: 'markRow', transition: 'saving --done: saveRow--> clean' },
};
