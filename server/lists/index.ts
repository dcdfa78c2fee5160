import {
  AUDIT_TRAIL_LIST,
  CANDIDATES_LIST,
  COURSE_HEADERS_LIST,
  DIETS_LIST,
  FEES_LIST,
  NOTIFICATION_LISTS,
  OFFENDERS_LIST,
  PAYMENT_HISTORY_LISTS,
  PAYMENT_ISSUES_LIST,
  REGISTERED_LISTS,
  RESITS_LISTS,
  RESULTS_LISTS,
  SCHOOLS_LIST,
} from '../../contract/lists';
import { auditTrailSource } from '../auditTrail/source';
import { candidateSource, registeredSource } from '../candidates/list';
import { paymentHistorySource, paymentIssueSource } from '../payments/issues';
import { publishedResultSource, resultSource } from '../scores/results';
import type { Route } from '../http/route';
import { listRoute } from './route';
import {
  courseHeaderSource,
  dietSource,
  feeSource,
  notificationSource,
  offenderSource,
  resitSource,
  schoolSource,
} from './sources';

/**
 * Every list of the portal: each definition (contract/lists.ts) with its source, as its GET route, the
 * roles that may call it written once, in the definition (the access matrix reads them from here).
 */
export const listRoutes: Route[] = [
  listRoute(CANDIDATES_LIST, candidateSource),
  // The registered lists say whether each registration's fee is paid (server/candidates/list.ts).
  listRoute(REGISTERED_LISTS.admin, registeredSource),
  listRoute(REGISTERED_LISTS.school_admin, registeredSource),
  listRoute(SCHOOLS_LIST, schoolSource),
  listRoute(COURSE_HEADERS_LIST, courseHeaderSource),
  listRoute(DIETS_LIST, dietSource),
  listRoute(OFFENDERS_LIST, offenderSource),
  listRoute(RESITS_LISTS.admin, resitSource),
  listRoute(RESITS_LISTS.school_admin, resitSource),
  listRoute(NOTIFICATION_LISTS.unread, notificationSource(false)),
  listRoute(NOTIFICATION_LISTS.read, notificationSource(true)),
  listRoute(FEES_LIST, feeSource),
  listRoute(PAYMENT_HISTORY_LISTS.admin, paymentHistorySource),
  listRoute(PAYMENT_HISTORY_LISTS.school_admin, paymentHistorySource),
  listRoute(PAYMENT_ISSUES_LIST, paymentIssueSource),
  listRoute(RESULTS_LISTS.admin, resultSource),
  // A school admin's results are their own candidates' (the list's scope) once published.
  listRoute(RESULTS_LISTS.school_admin, publishedResultSource),
  // The audit trail, and each record's History on its own page (the same list by entity and id).
  listRoute(AUDIT_TRAIL_LIST, auditTrailSource),
];
