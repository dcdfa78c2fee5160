import type { Handler, Input, MiddlewareHandler } from 'hono';
import type { Audience, Endpoint, Method, StandardValidator } from '../../contract/endpoint';
import type { ListDefinition } from '../../contract/lists';
import type { AppEnv } from './context';
import { json, query } from './validate';

/**
 * A route: the endpoint it serves (contract/*.endpoints.ts, or a list definition) and its handlers.
 * The route modules (server/routes/) are lists of these; server/routes/index.ts gathers them and the
 * app serves them. Method, path and roles are the definition's, never written here, and the access
 * matrix (server/access.ts) is read from the same definitions, so a path and its roles cannot drift.
 */
export interface Route {
  method: Method;
  /** The whole path as Hono matches it, `/api/...` with `:params`. */
  path: string;
  allow: Audience;
  handlers: readonly (Handler<AppEnv> | MiddlewareHandler<AppEnv>)[];
}

/** What `c.req.valid(...)` answers in the handler of an endpoint whose JSON body or query its validator checks. */
type CheckedBy<E> = E extends {
  input: { in: infer T extends 'json' | 'query'; validator: StandardValidator<infer O> };
}
  ? { in: { [K in T]: Record<string, unknown> }; out: { [K in T]: O } }
  : object;

type AnyHandler = Handler<AppEnv> | MiddlewareHandler<AppEnv>;

/**
 * `serve(ENDPOINT, handler)`: the endpoint's JSON body or query is checked by its validator before the
 * handler (a 422 names every problem) and read typed with `c.req.valid('json' | 'query')`.
 * `serve(ENDPOINT, check, handler)`: a form whose check needs the server (upload rules, the database,
 * a streamed file; server/http/validate.ts `form`, `checkedForm`), read with `c.req.valid('form')`.
 */
export function serve<E extends Endpoint>(endpoint: E, handler: Handler<AppEnv, string, CheckedBy<E>>): Route;
export function serve<E extends Endpoint & { input: { in: 'form' | 'upload' } }, I extends object>(
  endpoint: E,
  check: MiddlewareHandler<AppEnv, string, I>,
  handler: Handler<AppEnv, string, I>,
): Route;
export function serve(endpoint: Endpoint, ...handlers: AnyHandler[]): Route {
  const { input } = endpoint;
  const takesForm = input?.in === 'form' || input?.in === 'upload';
  if (takesForm !== handlers.length > 1) {
    throw new Error(
      `${endpoint.method} ${endpoint.path}: a form's route gives its check, no other route does`,
    );
  }
  const checks =
    input?.in === 'json' ? [json(input.validator)] : input?.in === 'query' ? [query(input.validator)] : [];
  return {
    method: endpoint.method,
    path: endpoint.path,
    allow: endpoint.roles,
    handlers: [...(checks as AnyHandler[]), ...handlers],
  };
}

/** A list's GET (server/lists/route.ts), from its definition. */
export function serveList<I extends Input>(
  definition: Pick<ListDefinition<never>, 'path' | 'roles'>,
  check: MiddlewareHandler<AppEnv, string, I>,
  handler: Handler<AppEnv, string, I>,
): Route {
  return {
    method: 'GET',
    path: definition.path,
    allow: definition.roles,
    handlers: [check, handler] as AnyHandler[],
  };
}
