import { randomUUID } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import proxyaddr from 'proxy-addr';
import { createMiddleware } from 'hono/factory';
import type { Database } from '../db/client';
import type { AppContext, AppEnv, Caller, Deps } from './context';
import { NOTHING_HERE, refuse, unauthenticated } from './respond';
import type { Audience } from '../../contract/endpoint';

/**
 * The client's address, as rate limits and the audit log take it: the socket's, or behind trusted
 * proxies (TRUST_PROXY) the nearest address in X-Forwarded-For that no trusted proxy stands at.
 */
function clientAddress(c: AppContext, trust: Deps['config']['trustProxy']): string | null {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (!incoming) return null; // Not on a socket (app.request in a script): no address to record.
  if (trust) return proxyaddr(incoming, trust);
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}

export const provide = (deps: Deps) =>
  createMiddleware<AppEnv>(async (c, next) => {
    c.set('deps', deps);
    c.set('requestId', randomUUID());
    c.set('ip', clientAddress(c, deps.config.trustProxy));
    c.set('caller', null);
    await next();
  });

/**
 * A path as the log keeps it: the sandbox checkout's access code (what opens a payment) and a job's
 * download link's token (what opens its PDF, server/documents/downloads.ts) left out.
 */
export const loggedPath = (path: string) =>
  path
    .replace(/^(\/sandbox\/paystack\/checkout\/)[^/]+/, '$1…')
    .replace(/^(\/api\/document-downloads\/[^/]+\/)[^/]+/, '$1…');

/** One JSON line a request; never the body, never the token. */
export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = performance.now();
  await next();
  const { log, config } = c.get('deps');
  if (!config.logRequests) return;
  log.info('request', {
    id: c.get('requestId'),
    method: c.req.method,
    path: loggedPath(c.req.path),
    status: c.res.status,
    ms: Math.round((performance.now() - started) * 10) / 10,
    user: c.get('caller')?.userId ?? null,
  });
});

export function bearerToken(c: AppContext): string {
  const header = c.req.header('authorization') ?? '';
  return header.startsWith('Bearer ') ? header.slice(7).trim() : '';
}

/**
 * What the access check asks of the layers above it, handed in by the app (server/app.ts) so that this
 * layer imports no area: the rule of a route (the access matrix, server/access.ts) and the caller a
 * bearer token belongs to (server/auth/tokens.ts).
 */
export interface Gate {
  findRule(method: string, path: string): { allow: Audience } | null;
  callerOfToken(db: Database, bearer: string): Promise<Caller | null>;
}

/** Resolves the bearer token into the caller, then applies the access matrix: deny by default. */
export const authorise = ({ findRule, callerOfToken }: Gate) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const rule = findRule(c.req.method, c.req.path);
    if (!rule) return refuse(c, 404, NOTHING_HERE);

    c.set('caller', await callerOfToken(c.get('deps').database.db, bearerToken(c)));
    if (rule.allow === 'public') return next();
    const caller = c.get('caller');
    if (!caller) return unauthenticated(c);
    if (!rule.allow.includes(caller.role)) return refuse(c, 403, 'This is not available for your role.');
    return next();
  });
