import { pathPattern, type Audience, type Method } from '../contract/endpoint';
import { API_ROUTES } from './routes';

/**
 * The authorisation matrix: every API route and who may call it, read from the routes themselves
 * (server/routes/index.ts), where each route's path and roles are written once. A route that is not
 * here is refused (deny by default); tests/api/attacks/function-level-access.test.ts walks this table for every kind of caller
 * and checks that it names exactly the routes the app serves. School scoping (a school admin sees only
 * their own school's rows) is enforced by the services' queries and, for lists and their CSV, by
 * `sourceOf` in server/lists/route.ts; tests/api/attacks/tenant-isolation.test.ts shows it refused.
 */
export interface AccessRule {
  method: Method;
  path: string;
  allow: Audience;
}

export const ACCESS_MATRIX: readonly AccessRule[] = API_ROUTES.map(({ method, path, allow }) => ({
  method,
  path,
  allow,
}));

const compiled = ACCESS_MATRIX.map((rule) => ({ rule, pattern: pathPattern(rule.path) }));

export function findRule(method: string, path: string): AccessRule | null {
  return compiled.find((entry) => entry.rule.method === method && entry.pattern.test(path))?.rule ?? null;
}
