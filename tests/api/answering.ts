import type { TestPortal } from './portal';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';

interface Answer {
  status: number;
  body: { data?: unknown; message?: unknown };
}

export interface Answered {
  path: string;
  ms: number;
  status: number;
}

/**
 * Other users' requests while `work` runs: the health check and a list are asked together every 50 ms
 * until it ends (each asked once before, as other users' are: what is timed is the wait, not a first
 * load). Gives the work's answer, how long it took, and every other answer's time.
 */
export async function answeredMeanwhile<A extends Answer>(
  t: TestPortal,
  token: string,
  work: () => Promise<A>,
): Promise<{ response: A; took: number; timings: Answered[] }> {
  const paths = ['/api/health', `${CANDIDATE_ENDPOINTS.list.path}?per_page=20`];
  for (const path of paths) await t.request('GET', path, { token });

  let running = true;
  const started = performance.now();
  const working = work().finally(() => {
    running = false;
  });
  const timings: Answered[] = [];
  const probe = async (path: string) => {
    const at = performance.now();
    const response = await t.request('GET', path, { token });
    timings.push({ path, ms: performance.now() - at, status: response.status });
  };
  while (running) {
    await Promise.all(paths.map(probe));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const response = await working;
  return { response, took: performance.now() - started, timings };
}
