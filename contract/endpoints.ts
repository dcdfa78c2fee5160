import { AUDIT_TRAIL_ENDPOINTS } from './auditTrail.endpoints';
import { BROADCAST_ENDPOINTS } from './broadcasts.endpoints';
import { BULK_INDEXING_ENDPOINTS } from './bulkIndexing.endpoints';
import { CANDIDATE_ENDPOINTS } from './candidates.endpoints';
import { AUTH_ENDPOINTS } from './auth.endpoints';
import { AUDIT_CHAIN_ENDPOINTS } from './auditChain.endpoints';
import { CONVERSATION_ENDPOINTS } from './conversations.endpoints';
import { COURSE_ENDPOINTS } from './courses.endpoints';
import { DASHBOARD_ENDPOINTS } from './dashboard.endpoints';
import { DIET_ENDPOINTS } from './diets.endpoints';
import { DOCUMENT_ENDPOINTS } from './documents.endpoints';
import type { EndpointGroup } from './endpoint';
import { HEALTH_ENDPOINTS } from './health.endpoints';
import { IMPERSONATION_ENDPOINTS } from './impersonation.endpoints';
import { INTEGRITY_ENDPOINTS } from './integrity.endpoints';
import { LISTS } from './lists';
import { META_ENDPOINTS } from './meta.endpoints';
import { PAYMENT_ENDPOINTS } from './payments.endpoints';
import { SCORE_ENDPOINTS } from './scores.endpoints';
import { OFFENDER_ENDPOINTS } from './offenders.endpoints';
import { REGISTRATION_ENDPOINTS } from './registration.endpoints';
import { RESIT_ENDPOINTS } from './resits.endpoints';
import { NOTIFICATION_ENDPOINTS } from './notifications.endpoints';
import { PROFILE_ENDPOINTS } from './profile.endpoints';
import { REFERENCE_ENDPOINTS } from './reference.endpoints';
import { SCHOOL_ENDPOINTS } from './schools.endpoints';
import { STAFF_ENDPOINTS } from './staff.endpoints';

/**
 * Every area's endpoints, by area: what the access matrix (server/access.ts), the OpenAPI document
 * (scripts/openapi.ts) and the matrix test read. The SPA imports an area's own object, never this one,
 * so a page carries only its area's validators.
 */
export const ENDPOINTS: Readonly<Record<string, EndpointGroup>> = {
  health: HEALTH_ENDPOINTS,
  auth: AUTH_ENDPOINTS,
  impersonation: IMPERSONATION_ENDPOINTS,
  profile: PROFILE_ENDPOINTS,
  reference: REFERENCE_ENDPOINTS,
  schools: SCHOOL_ENDPOINTS,
  notifications: NOTIFICATION_ENDPOINTS,
  conversations: CONVERSATION_ENDPOINTS,
  courses: COURSE_ENDPOINTS,
  meta: META_ENDPOINTS,
  payments: PAYMENT_ENDPOINTS,
  scores: SCORE_ENDPOINTS,
  candidates: CANDIDATE_ENDPOINTS,
  bulkIndexing: BULK_INDEXING_ENDPOINTS,
  registration: REGISTRATION_ENDPOINTS,
  resits: RESIT_ENDPOINTS,
  offenders: OFFENDER_ENDPOINTS,
  diets: DIET_ENDPOINTS,
  documents: DOCUMENT_ENDPOINTS,
  broadcasts: BROADCAST_ENDPOINTS,
  staff: STAFF_ENDPOINTS,
  dashboard: DASHBOARD_ENDPOINTS,
  auditTrail: AUDIT_TRAIL_ENDPOINTS,
  auditChain: AUDIT_CHAIN_ENDPOINTS,
  integrity: INTEGRITY_ENDPOINTS,
};

/** Every list, whether or not an area's object names it yet. */
export { LISTS };
