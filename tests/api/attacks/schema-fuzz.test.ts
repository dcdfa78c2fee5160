import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createGeneratorSync, type JsonSchema } from 'json-schema-faker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../../server/auth/tokens';
import { userIdOf } from '../fixtures';
import { startTestPortal, type TestPortal } from '../portal';

/**
 * Attack class: schema-driven fuzzing. The API's own OpenAPI document (GET /api/openapi.json, made
 * from the endpoint definitions) drives the requests: for every operation and every kind of caller,
 * json-schema-faker makes a valid input from the operation's schemas (path parameters, query, JSON
 * body or multipart form), then the same input broken: every field given a value of another type, too
 * long, outside its enum or off its pattern (a few fields a request), the body empty or with fields
 * nobody asked for, each path parameter out of range. Whatever comes, the answer is a refusal or an
 * answer, never a 500, and the portal stays up. Seeded, so a failure is the same on the next run. The
 * npm registry has no fuzzer that reads an OpenAPI 3.1 document (openapi-fuzzer-core, the one there is,
 * reads Swagger 2.0's body parameters only), so the requests are made here and the values by
 * json-schema-faker. tests/api/attacks/robustness.test.ts sends hostile values to every route by name.
 */

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  'x-roles'?: string[];
  security: unknown[];
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const DOCUMENT_FILE = path.resolve(import.meta.dirname, '..', '..', '..', 'docs', 'openapi.json');
const document = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as Document;

const OPERATIONS = Object.entries(document.paths)
  .flatMap(([route, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      route,
      operation,
    })),
  )
  .filter(({ operation }) => operation.operationId);

type Caller = 'anonymous' | 'admin' | 'school_admin';
const CALLERS: readonly Caller[] = ['anonymous', 'admin', 'school_admin'];

let t: TestPortal;
const ids = {} as Record<'admin' | 'school_admin', number>;

beforeAll(async () => {
  t = await startTestPortal();
  ids.admin = await userIdOf(t, 'admin@example.org');
  ids.school_admin = await userIdOf(t, 'school1@example.org');
});
afterAll(() => t?.close());

/** A fresh token for each operation, so that one that spends it (logout) spoils no other. */
async function tokenOf(caller: Caller): Promise<string | undefined> {
  if (caller === 'anonymous') return undefined;
  return (await issueToken(t.portal.database.db, ids[caller], 10)).token;
}

const allowed = (operation: Operation, caller: Caller) =>
  operation.security.length === 0 || (caller !== 'anonymous' && operation['x-roles']!.includes(caller));

// ---------------------------------------------------------------------------------------------------
// Inputs: valid ones from the schemas, and each broken one way.

const faker = createGeneratorSync({ seed: 24, maxDefaultItems: 3, optionalsProbability: 0.7 });
/** A value of a schema; its refs are read against the document's components. */
const fake = (schema: Schema): unknown =>
  faker.generate({ ...schema, components: document.components } as unknown as JsonSchema);

/** Values that break a field of this schema: another type, past its length, outside its choices. */
function breaking(schema: Schema): unknown[] {
  const values: unknown[] = [null, 12345, true, ['x'], { x: 1 }, '', '\u0000', '\ud800', 'x'.repeat(5000)];
  if (typeof schema.maxLength === 'number') values.push('x'.repeat(schema.maxLength + 1));
  if (Array.isArray(schema.enum)) values.push('not-one-of-them');
  if (typeof schema.pattern === 'string') values.push('!!');
  if (schema.type === 'integer' || schema.type === 'number') values.push(-1, 1e308, 1.5, '12');
  return values;
}
/** What a query or a path can carry of a breaking value. */
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Requests that break an operation's query, and as many that break its body. */
const ROUNDS = 3;

/** Picks one breaking value per field, by a seeded counter, so each run sends the same requests. */
let turn = 0;
const pick = <T>(values: T[]): T => values[turn++ % values.length];

interface Request {
  label: string;
  path: string;
  json?: unknown;
  form?: FormData;
}

const fillPath = (route: string, params: Record<string, string>) =>
  route.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]));

const withQuery = (route: string, query: Record<string, string>) => {
  const text = new URLSearchParams(query).toString();
  return text ? `${route}?${text}` : route;
};

function formOf(schema: Schema, values: Record<string, unknown>): FormData {
  const form = new FormData();
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  for (const [name, property] of Object.entries(properties)) {
    if (property.contentMediaType) {
      form.append(name, new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3])]), `${name}.png`);
    } else if (values[name] !== undefined) {
      form.append(name, asText(values[name]));
    }
  }
  return form;
}

/** A valid request of the operation, then one for each way of breaking it. */
function requestsOf(route: string, operation: Operation): Request[] {
  const parameters = operation.parameters ?? [];
  const pathParams = Object.fromEntries(
    parameters
      .filter((parameter) => parameter.in === 'path')
      .map(({ name, schema }) => [name, Array.isArray(schema.enum) ? String(schema.enum[0]) : '1']),
  );
  const queryParams = parameters.filter((parameter) => parameter.in === 'query');
  const query = Object.fromEntries(
    queryParams
      .filter((parameter) => parameter.required || turn++ % 2 === 0)
      .map(({ name, schema }) => [name, asText(fake(schema))]),
  );
  const content = operation.requestBody?.content ?? {};
  const json = content['application/json']?.schema;
  const multipart = content['multipart/form-data']?.schema;
  const bodySchema = json ?? multipart;
  const valid = bodySchema ? ((fake(bodySchema) ?? {}) as Record<string, unknown>) : undefined;

  /** A request with this address and body: JSON when the operation takes it, else its form. */
  const request = (label: string, at: string, body = valid): Request[] => {
    if (!body) return [{ label, path: at }];
    const form = multipart && { label: `${label} (multipart)`, path: at, form: formOf(multipart, body) };
    return json ? [{ label, path: at, json: body }, ...(form ? [form] : [])] : [form!];
  };
  const at = withQuery(fillPath(route, pathParams), query);
  const requests = request('valid', at);

  // Each field is broken in one of a few requests, several at once: the validator names every problem,
  // so each is checked, in a third of the requests one field at a time would take.
  for (let round = 0; round < ROUNDS; round++) {
    const broken = queryParams.filter((_, index) => index % ROUNDS === round);
    if (!broken.length) continue;
    const brokenQuery = { ...query };
    for (const { name, schema } of broken) brokenQuery[name] = asText(pick(breaking(schema)));
    const names = broken.map(({ name }) => name).join(', ');
    requests.push(...request(`query ${names}`, withQuery(fillPath(route, pathParams), brokenQuery)));
  }
  for (const name of Object.keys(pathParams)) {
    const broken = { ...pathParams, [name]: pick(['0', '-1', '99999999999', 'x', '%00', '..']) };
    requests.push(...request(`path ${name}`, withQuery(fillPath(route, broken), query)));
  }
  if (bodySchema && valid) {
    requests.push(...request('body empty', at, {}));
    requests.push(...request('body with fields nobody asked for', at, { ...valid, is_admin: true, id: 1 }));
    const fields = Object.entries((bodySchema.properties ?? {}) as Record<string, Schema>).filter(
      ([, property]) => !property.contentMediaType,
    );
    for (let round = 0; round < ROUNDS; round++) {
      const broken = fields.filter((_, index) => index % ROUNDS === round);
      if (!broken.length) continue;
      const body = { ...valid };
      for (const [name, property] of broken) body[name] = pick(breaking(property));
      requests.push(...request(`body ${broken.map(([name]) => name).join(', ')}`, at, body));
    }
  }
  return requests;
}

// ---------------------------------------------------------------------------------------------------

describe('the document the fuzzer reads', () => {
  it('is what GET /api/openapi.json serves, to anyone', async () => {
    const response = await t.request('GET', '/api/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(document);
  });

  it('has operations to fuzz, with inputs', () => {
    expect(OPERATIONS.length).toBeGreaterThan(10);
    expect(OPERATIONS.some(({ operation }) => operation.requestBody)).toBe(true);
    expect(OPERATIONS.some(({ operation }) => operation.parameters?.some((p) => p.in === 'query'))).toBe(
      true,
    );
  });
});

describe('every operation, every kind of caller, valid and broken inputs: never a 500', () => {
  it.each(OPERATIONS.map((entry) => [`${entry.method} ${entry.route}`, entry] as const))(
    '%s',
    async (_name, { method, route, operation }) => {
      for (const caller of CALLERS) {
        // A caller the route refuses is refused before any input is read: one request shows it.
        const requests = requestsOf(route, operation);
        const token = await tokenOf(caller);
        for (const request of allowed(operation, caller) ? requests : requests.slice(0, 1)) {
          const response = await t.request(method, request.path, {
            token,
            json: request.json,
            form: request.form,
          });
          expect
            .soft(
              response.status,
              `${method} ${request.path} as ${caller}, ${request.label}: ${JSON.stringify(response.body)}`,
            )
            .toBeLessThan(500);
        }
      }
    },
  );

  it('leaves the portal up', async () => {
    const response = await t.request('GET', '/api/health');
    expect(response.status).toBe(200);
  });
});
