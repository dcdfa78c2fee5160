import type { FieldMessages } from './envelope';
import type { ListDefinition } from './lists';
import type { Page } from './pagination';
import type { Role } from './roles';

/**
 * One call of the API, written once: its method, its path with parameters, who may call it, what
 * checks its body, query or form (a contract validator, with the spec's messages), and the shape of
 * its answer. Each area keeps its calls in one object (`contract/<area>.endpoints.ts`); the server
 * mounts them (server/http/route.ts `serve`), the access matrix is read from them (server/access.ts),
 * the SPA calls them (src/api/send.ts `send`), and the OpenAPI document is generated from them
 * (scripts/openapi.ts). A list definition (contract/lists.ts) is an endpoint of its own kind: a GET
 * answering a Page of its rows, with its query made from its filters.
 */

export type Method = 'GET' | 'POST';

/** Who may call an endpoint: anyone, or signed-in users of these roles. */
export type Audience = 'public' | readonly Role[];

export const PUBLIC = 'public' satisfies Audience;
export const ADMIN = ['admin'] as const satisfies readonly Role[];
export const SCHOOL_ADMIN = ['school_admin'] as const satisfies readonly Role[];
export const SIGNED_IN = ['admin', 'school_admin'] as const satisfies readonly Role[];

/**
 * What we use of a Standard Schema validator (https://standardschema.dev; VineJS 4's validators are
 * ones): its `~standard.validate`, answering the value or the issues, each naming its field. The spec
 * asks libraries to copy these few types rather than depend on its package.
 */
export interface StandardValidator<Output> {
  readonly '~standard': {
    validate(value: unknown): StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly output: Output } | undefined;
  };
}
type StandardResult<Output> =
  { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly StandardIssue[] };
interface StandardIssue {
  readonly message: string;
  /** VineJS gives the field's dotted name; the spec an array of keys. */
  readonly path?: string | ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** A validator the OpenAPI document can describe: VineJS's (`toJSONSchema`, JSON Schema draft 7). */
interface DescribedValidator<Output> extends StandardValidator<Output> {
  toJSONSchema(): object;
}

const fieldOf = (issue: StandardIssue): string =>
  typeof issue.path === 'string'
    ? issue.path
    : (issue.path ?? []).map((part) => String(typeof part === 'object' ? part.key : part)).join('.');

/**
 * The validated value, or every issue as the envelope's field messages (in the validator's order): the
 * server's 422 and the browser's check before the call say the same.
 */
export async function runValidator<T>(
  schema: StandardValidator<T>,
  value: unknown,
): Promise<{ value: T; fields?: undefined } | { fields: FieldMessages }> {
  const result = await schema['~standard'].validate(value);
  if (!result.issues) return { value: result.value };
  const fields: FieldMessages = {};
  for (const issue of result.issues) (fields[fieldOf(issue)] ??= []).push(issue.message);
  return { fields };
}

/**
 * Where an endpoint's input comes from. `json`: the body; `query`: the query string; `form`: a form
 * that may carry files (multipart, or JSON without them), its text fields checked by the validator and
 * its files by the server's upload rules (`files` names them, for the document). `upload`: a form
 * whose whole check is the server's, since it reads the database or streams a large file (the
 * candidate form, bulk indexing's zip, marks from paper); `fields` names its parts.
 */
type EndpointInput<Output> =
  | { in: 'json' | 'query'; validator: DescribedValidator<Output> }
  | { in: 'form'; validator: DescribedValidator<Output>; files: readonly string[] }
  | { in: 'upload'; fields: Readonly<Record<string, 'file' | 'text'>> };

/**
 * The answer: `json`, the envelope (`{ success, message?, data }`) with `data` of type T; `file`, a
 * download of this content type; `raw`, JSON of type T without the envelope (the health checks, the
 * payment provider's webhook).
 */
export interface Answer<T> {
  kind: 'json' | 'file' | 'raw';
  contentType?: string;
  /** Phantom: the answer's type, for `send` and the OpenAPI document (scripts/openapi.ts reads it). */
  readonly type?: T;
}

/** An answer whose envelope's `data` is a T (`shape<void>()`: a sentence and no data). */
export const shape = <T>(): Answer<T> => ({ kind: 'json' });
/** An answer that is JSON of type T as it is, without the envelope. */
export const raw = <T>(): Answer<T> => ({ kind: 'raw' });
/** An answer that is a file to download. */
export const download = (contentType: string): Answer<Blob> => ({ kind: 'file', contentType });

export interface Endpoint<A = unknown, I = unknown, P extends string = string> {
  method: Method;
  /** The whole path as Hono matches it: `/api/...` with `:params`, `:param{a|b}` for one of a few. */
  path: P;
  roles: Audience;
  /** What it does, in a line (the OpenAPI document's summary, docs/api.md's tables). */
  summary: string;
  input?: EndpointInput<I>;
  answer: Answer<A>;
}

/** An endpoint with its path, roles and input kept as written (so their literal types stay). */
export const endpoint = <const E extends Endpoint>(definition: E): E => definition;

// A list's row type is both read and written (its CSV cells), so only `any` takes every list.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEndpoint = Endpoint | ListDefinition<any>;

/**
 * An area's endpoints: one object, each call by its name; a call both roles make, each on its own
 * path (`/api/admin/…`, `/api/training-school-admin/…`), is a pair by role, as the lists' are.
 */
export type EndpointGroup = Readonly<
  Record<string, AnyEndpoint | Readonly<Partial<Record<Role, AnyEndpoint>>>>
>;

/** Every endpoint of a group, the pairs by role opened. */
export const endpointsOf = (group: EndpointGroup): AnyEndpoint[] =>
  Object.values(group).flatMap((entry) =>
    'path' in entry ? [entry as AnyEndpoint] : (Object.values(entry) as AnyEndpoint[]),
  );

/** The type of an endpoint's answer (a list's: a Page of its rows). */
export type AnswerOf<E> =
  E extends ListDefinition<infer Row> ? Page<Row> : E extends { answer: Answer<infer A> } ? A : never;

/** The type of an endpoint's valid input, as the handler reads it. */
export type ValidOf<E> = E extends { input: { validator: StandardValidator<infer O> } } ? O : never;

type ParamName<N extends string> = N extends `${infer Base}{${string}}` ? Base : N;

/** The names of a path's parameters: `'/a/:id/b/:grid{one|two}'` gives `'id' | 'grid'`. */
export type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? ParamName<Name> | ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? ParamName<Name>
    : never;

const PARAM = /:([A-Za-z_]+)(\{[^}]*\})?/g;

/** The names of a path's parameters, with the values a constrained one takes (`:grid{one|two}`). */
export function pathParams(path: string): { name: string; values: string[] | null }[] {
  return [...path.matchAll(PARAM)].map(([, name, choice]) => ({
    name,
    values: choice ? choice.slice(1, -1).split('|') : null,
  }));
}

/** A path with its parameters filled in, each encoded; a missing one is a mistake in the caller. */
export function fillPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(PARAM, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`${path} needs its :${name}`);
    return encodeURIComponent(String(value));
  });
}

/** The addresses a path matches, exactly as Hono serves them (strict: a trailing slash is another path). */
export function pathPattern(path: string): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let source = '';
  let at = 0;
  for (const match of path.matchAll(PARAM)) {
    source += escape(path.slice(at, match.index));
    const choice = match[2];
    source += choice ? `(?:${choice.slice(1, -1).split('|').map(escape).join('|')})` : '[^/]+';
    at = match.index + match[0].length;
  }
  return new RegExp(`^${source}${escape(path.slice(at))}$`);
}

/** The OpenAPI form of a path: `/a/{id}/b/{grid}`. */
export const openApiPath = (path: string) => path.replace(PARAM, (_, name: string) => `{${name}}`);

/** An address a path matches: each parameter 1, or the first value a constrained one takes (tests, probes). */
export const samplePath = (path: string) =>
  path.replace(PARAM, (_, _name: string, choice?: string) =>
    choice ? choice.slice(1, -1).split('|')[0] : '1',
  );
