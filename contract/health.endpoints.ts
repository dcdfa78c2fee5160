import { endpoint, PUBLIC, shape } from './endpoint';
import type { Liveness, Readiness } from './health';

/**
 * The health checks, for load balancers, orchestrators and `npm run bench`. They answer the envelope
 * (`{ success, data }`), so their shapes are the envelope's data, not raw JSON.
 */
export const HEALTH_ENDPOINTS = {
  live: endpoint({
    method: 'GET',
    path: '/api/health',
    roles: PUBLIC,
    summary: 'Liveness: the process answers; asks nothing of the database',
    answer: shape<Liveness>(),
  }),
  ready: endpoint({
    method: 'GET',
    path: '/api/health/ready',
    roles: PUBLIC,
    summary: 'Readiness: database, migrations, storage and jobs each ok (503 when one fails)',
    answer: shape<Readiness>(),
  }),
} as const;
