import { DASHBOARD_ENDPOINTS as E } from '../../contract/dashboard.endpoints';
import { send } from './send';

/** The Dashboard's one call a role. */
export const loadBoardDashboard = async () => (await send(E.overview.admin)).data;
export const loadSchoolDashboard = async () => (await send(E.overview.school_admin)).data;
