import type { BoardDashboard, SchoolDashboard } from './dashboard';
import { ADMIN, SCHOOL_ADMIN, endpoint, shape } from './endpoint';

/** The Dashboard's numbers and charts, one call a role (contract/dashboard.ts). */
export const DASHBOARD_ENDPOINTS = {
  overview: {
    admin: endpoint({
      method: 'GET',
      path: '/api/admin/dashboard',
      roles: ADMIN,
      summary: "The board's dashboard: the current diet's counts, the queues and the charts' data",
      answer: shape<BoardDashboard>(),
    }),
    school_admin: endpoint({
      method: 'GET',
      path: '/api/training-school-admin/dashboard',
      roles: SCHOOL_ADMIN,
      summary: "The school's dashboard: its candidates for the current diet, its window and results",
      answer: shape<SchoolDashboard>(),
    }),
  },
} as const;
