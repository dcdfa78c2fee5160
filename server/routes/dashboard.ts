import { DASHBOARD_ENDPOINTS as E } from '../../contract/dashboard.endpoints';
import { boardDashboard, schoolDashboard } from '../dashboard/service';
import { callerOf, dbOf, nowOf } from '../http/context';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';

/** The Dashboard, one call a role: the board's, and a school admin's for their own school only. */
export const dashboardRoutes: Route[] = [
  serve(E.overview.admin, async (c) => ok(c, await boardDashboard(dbOf(c), nowOf(c)))),
  serve(E.overview.school_admin, async (c) => {
    const school = callerOf(c).trainingSchoolId;
    if (school === null) throw new Error('A school admin without a school');
    return ok(c, await schoolDashboard(dbOf(c), school, nowOf(c)));
  }),
];
