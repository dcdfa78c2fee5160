import { endpointsOf, pathPattern, type Audience, type Method } from '../contract/endpoint';
import { ENDPOINTS, LISTS } from '../contract/endpoints';

/**
 * The authorisation matrix: every API call and who may call it, read from the endpoint definitions
 * (contract/*.endpoints.ts and the lists, contract/lists.ts), where each call's method, path and roles
 * are written once; the routes serve those same definitions (server/http/route.ts `serve`). A call
 * that is not here is refused (deny by default); tests/api/attacks/function-level-access.test.ts walks
 * this table for every kind of caller and checks it both ways against the routes the app serves. School
 * scoping (a school admin sees only their own school's rows) is enforced by the services' queries and,
 * for lists and their CSV, by `sourceOf` in server/lists/route.ts; tests/api/attacks/tenant-isolation.test.ts
 * shows it refused.
 */
export interface AccessRule {
  method: Method;
  path: string;
  allow: Audience;
}

// A list an area's object names is in LISTS too: one rule a definition (two definitions of one call
// would be two rules, which the matrix test refuses).
const definitions = new Set([...Object.values(ENDPOINTS).flatMap(endpointsOf), ...LISTS]);

export const ACCESS_MATRIX: readonly AccessRule[] = [...definitions].map((definition) => ({
  method: 'method' in definition ? definition.method : 'GET',
  path: definition.path,
  allow: definition.roles,
}));

const compiled = ACCESS_MATRIX.map((rule) => ({ rule, pattern: pathPattern(rule.path) }));

export function findRule(method: string, path: string): AccessRule | null {
  return compiled.find((entry) => entry.rule.method === method && entry.pattern.test(path))?.rule ?? null;
}
