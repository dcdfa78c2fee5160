/**
 * The health answers (server/routes/health.ts): liveness for an orchestrator, readiness for a load
 * balancer. Both come in the envelope; a process that is not ready answers 503 with the same data.
 */

/** GET /api/health: the process is up; which database driver it was started with. */
export interface Liveness {
  status: 'live';
  driver: 'pglite' | 'postgres';
}

export type ReadyPart = 'database' | 'migrations' | 'storage' | 'jobs';
export type PartState = 'ok' | 'failing';

/** GET /api/health/ready: each part 'ok' or 'failing', never why (that goes to the log). */
export interface Readiness {
  ready: boolean;
  checks: Record<ReadyPart, PartState>;
}
