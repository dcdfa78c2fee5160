import type { Handler, Input, MiddlewareHandler } from 'hono';
import type { Role } from '../../contract/roles';
import type { AppEnv } from './context';

/**
 * A route, written once: its method, its path, who may call it, and its handlers. The route modules
 * (server/routes/) are lists of these; server/routes/index.ts gathers them, the app serves them, and
 * the authorisation matrix (server/access.ts) is read from the same list, so a path and its roles
 * cannot drift apart and no route is served without saying who may call it.
 */
export type Audience = 'public' | readonly Role[];

export const PUBLIC: Audience = 'public';
export const ADMIN: readonly Role[] = ['admin'];
export const SCHOOL_ADMIN: readonly Role[] = ['school_admin'];
export const SIGNED_IN: readonly Role[] = ['admin', 'school_admin'];

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  method: Method;
  /** The whole path as Hono matches it, `/api/...` with `:params`. */
  path: string;
  allow: Audience;
  handlers: readonly (Handler<AppEnv> | MiddlewareHandler<AppEnv>)[];
}

/**
 * `post(path, allow, handler)` or `post(path, allow, json(validator), handler)`: the middleware's
 * validated input types `c.req.valid(...)` in the handler, as Hono's own `app.post` does.
 */
function define(method: Method) {
  function route(path: string, allow: Audience, handler: Handler<AppEnv>): Route;
  function route<I extends Input>(
    path: string,
    allow: Audience,
    check: MiddlewareHandler<AppEnv, string, I>,
    handler: Handler<AppEnv, string, I>,
  ): Route;
  function route(path: string, allow: Audience, ...handlers: Route['handlers']): Route {
    return { method, path, allow, handlers: handlers as Route['handlers'] };
  }
  return route;
}

export const get = define('GET');
export const post = define('POST');
