import type { Route } from '../http/route';
import { listRoutes } from '../lists';
import { auditChainRoutes } from './auditChain';
import { authRoutes } from './auth';
import { broadcastRoutes } from './broadcasts';
import { bulkIndexingRoutes } from './bulkIndexing';
import { candidateRecordRoutes, candidateRoutes } from './candidates';
import { courseRoutes } from './courses';
import { dashboardRoutes } from './dashboard';
import { dietRoutes } from './diets';
import { documentFileRoutes } from './documentFiles';
import { documentRoutes } from './documents';
import { healthRoutes } from './health';
import { impersonationRoutes } from './impersonation';
import { integrityRoutes } from './integrity';
import { metaRoutes } from './meta';
import { messageBoardRoutes, notificationRoutes } from './notifications';
import { conversationRoutes } from './conversations';
import { offenderRoutes } from './offenders';
import { passwordResetRoutes } from './passwordReset';
import { paymentsRoutes } from './payments';
import { adminProfileRoutes, schoolProfileRoutes } from './profile';
import { referenceRoutes } from './reference';
import { boardRegistrationRoutes, schoolRegistrationRoutes } from './registration';
import { boardResitRoutes, schoolResitRoutes } from './resits';
import { schoolRoutes } from './schools';
import { scoreRoutes } from './scores';
import { staffRoutes } from './staff';

/**
 * Every API route, one module an area. The app serves exactly these (server/app.ts) and the
 * authorisation matrix is read from them (server/access.ts): adding a module here is adding its routes
 * and who may call them, in one place.
 */
export const API_ROUTES: readonly Route[] = [
  ...healthRoutes,
  ...metaRoutes,
  ...authRoutes,
  ...passwordResetRoutes,
  ...impersonationRoutes,
  ...referenceRoutes,
  ...adminProfileRoutes,
  ...schoolProfileRoutes,
  ...schoolRoutes,
  ...notificationRoutes,
  ...messageBoardRoutes,
  ...conversationRoutes,
  ...candidateRoutes,
  ...candidateRecordRoutes,
  ...bulkIndexingRoutes,
  ...boardRegistrationRoutes,
  ...schoolRegistrationRoutes,
  ...offenderRoutes,
  ...boardResitRoutes,
  ...schoolResitRoutes,
  ...courseRoutes,
  ...dietRoutes,
  ...paymentsRoutes,
  ...scoreRoutes,
  ...documentRoutes,
  ...documentFileRoutes,
  ...broadcastRoutes,
  ...staffRoutes,
  ...dashboardRoutes,
  ...auditChainRoutes,
  ...integrityRoutes,
  // Every list of every area, each made from its definition in contract/lists.ts (server/lists/).
  ...listRoutes,
];
