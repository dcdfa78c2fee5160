import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { endpointsOf, pathParams } from '../../contract/endpoint';
import { ENDPOINTS, LISTS } from '../../contract/endpoints';
import { API_ROUTES } from '../../server/routes';

/**
 * docs/api.md is written by hand; its routes are checked against the endpoint definitions both ways:
 * every `METHOD /api/...` it names is a defined endpoint, and every defined endpoint is named in its
 * reference, the area sections (a note under "Changes of issue N" says what changed, and is no place
 * to look a route up).
 * The doc names routes as people read them: `{admin,training-school-admin}` (or `{a|b}`) for one
 * route of each role or each value, `:name` for a parameter, `?a=&b=` for a query, a trailing `:` or
 * `.` of the sentence; a route shortened to `…/verify` is a mention, not a name, and is not read.
 */

const API_MD = path.resolve(import.meta.dirname, '..', '..', 'docs', 'api.md');

/** Every route the doc names, braces opened: `GET /api/admin/x/:id`. */
function routesNamed(markdown: string): string[] {
  const named = new Set<string>();
  for (const [, method, written] of markdown.matchAll(/\b(GET|POST)\s+(\/api\/[A-Za-z0-9_\-/:{},|\\.]*)/g)) {
    const bare = written.replace(/\\\|/g, '|').replace(/[:.,]+$/, '');
    for (const route of expand(bare)) named.add(`${method} ${route}`);
  }
  return [...named].sort();
}

/** The doc without its "## Changes of issue N" sections. */
const referencePart = (markdown: string) =>
  markdown
    .split(/^(?=## )/m)
    .filter((section) => !section.startsWith('## Changes of issue'))
    .join('');

/** `/a/{b,c}/d` as `/a/b/d` and `/a/c/d`. */
function expand(route: string): string[] {
  const brace = /\{([^{}]*[,|][^{}]*)\}/.exec(route);
  if (!brace) return [route];
  return brace[1]
    .split(/[,|]/)
    .flatMap((choice) =>
      expand(route.slice(0, brace.index) + choice + route.slice(brace.index + brace[0].length)),
    );
}

interface Defined {
  method: string;
  path: string;
}

/**
 * The defined endpoints: every area's (contract/endpoints.ts) and every list. While areas move onto
 * definitions (issue 24), a route still served without one counts too; it is defined once it moves.
 */
function definedRoutes(): Defined[] {
  const defined: Defined[] = [...Object.values(ENDPOINTS).flatMap(endpointsOf), ...LISTS].map((entry) => ({
    method: 'method' in entry ? entry.method : 'GET',
    path: entry.path,
  }));
  const keys = new Set(defined.map(({ method, path }) => `${method} ${path}`));
  const transitional = API_ROUTES.filter(({ method, path }) => !keys.has(`${method} ${path}`));
  const all = [...defined, ...transitional.map(({ method, path }) => ({ method, path }))];
  return all.filter(
    ({ method, path }, at) => all.findIndex((o) => o.method === method && o.path === path) === at,
  );
}

/**
 * Whether the doc's route names this endpoint: the same segments, a parameter where the definition has
 * one, or an address the endpoint serves (`/grids/three` for `/grids/:grid`; for a parameter of a few
 * values, one of them).
 */
function names(route: string, endpoint: Defined): boolean {
  const [method, written] = route.split(' ');
  if (method !== endpoint.method) return false;
  const doc = written.split('/');
  const defined = endpoint.path.split('/');
  if (doc.length !== defined.length) return false;
  return defined.every((segment, at) => {
    const [param] = pathParams(segment);
    if (!param) return segment === doc[at];
    return doc[at].startsWith(':') || !param.values || param.values.includes(doc[at]);
  });
}

describe('docs/api.md and the endpoint definitions', () => {
  const markdown = readFileSync(API_MD, 'utf8');
  const named = routesNamed(markdown);
  const reference = routesNamed(referencePart(markdown));
  const defined = definedRoutes();

  it('reads the routes the doc names', () => {
    expect(named.length).toBeGreaterThan(100);
    expect(
      routesNamed('`GET /api/{admin,training-school-admin}/x/:id?page=N`: and `POST /api/a/{b\\|c}`.'),
    ).toEqual([
      'GET /api/admin/x/:id',
      'GET /api/training-school-admin/x/:id',
      'POST /api/a/b',
      'POST /api/a/c',
    ]);
  });

  it('names only defined endpoints', () => {
    const unknown = named.filter((route) => !defined.some((endpoint) => names(route, endpoint)));
    expect(unknown, 'routes docs/api.md names that no endpoint defines').toEqual([]);
  });

  it('names every defined endpoint in its area sections', () => {
    expect(reference.length).toBeLessThan(named.length);
    const missing = defined
      .filter((endpoint) => !reference.some((route) => names(route, endpoint)))
      .map(({ method, path }) => `${method} ${path}`);
    expect(missing, "defined endpoints docs/api.md's area sections do not name").toEqual([]);
  });
});
