import type { Liveness, Readiness } from '../../contract/health';
import { HEALTH_ENDPOINTS as E } from '../../contract/health.endpoints';
import { serve, type Route } from '../http/route';
import type { Deps } from '../http/context';
import { createReadiness } from '../readiness';

/** One readiness (its kept answer) per portal. */
const readinessOf = new WeakMap<Deps, () => Promise<Readiness>>();

/**
 * For load balancers, orchestrators and `npm run bench`. `/api/health` is the liveness answer: the
 * process is up and answers requests; it asks nothing of the database, so a busy or lost database never
 * gets a live process restarted. `/api/health/ready` is the readiness answer: 503 while the database,
 * the migrations, the storage or the job queue fails, so a balancer stops sending to this process
 * (server/readiness.ts).
 */
export const healthRoutes: Route[] = [
  serve(E.live, (c) => {
    const { database } = c.get('deps');
    const data: Liveness = { status: 'live', driver: database.driver };
    return c.json({ success: true, data });
  }),
  serve(E.ready, async (c) => {
    const deps = c.get('deps');
    let readiness = readinessOf.get(deps);
    if (!readiness) {
      readiness = createReadiness(deps);
      readinessOf.set(deps, readiness);
    }
    const answer = await readiness();
    const failing = Object.entries(answer.checks)
      .filter(([, state]) => state === 'failing')
      .map(([part]) => part);
    return answer.ready
      ? c.json({ success: true, data: answer })
      : c.json({ success: false, message: `Not ready: ${failing.join(', ')}.`, data: answer }, 503);
  }),
];
