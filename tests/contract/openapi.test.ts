import { existsSync, readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { endpoint, openApiPath, raw, shape, download, PUBLIC, SCHOOL_ADMIN } from '../../contract/endpoint';
import {
  OPENAPI_FILE,
  operationOf,
  operations,
  openApiDocument,
  renderOpenApi,
} from '../../scripts/openapiDocument';

const REGENERATE = 'run `npm run openapi` and commit docs/openapi.json';

// Made once: reading the contract's types takes a second or two.
let generated: Record<string, unknown>;
beforeAll(() => {
  generated = openApiDocument();
});

describe('docs/openapi.json', () => {
  it('is what the endpoint definitions make now', () => {
    if (!existsSync(OPENAPI_FILE)) throw new Error(`docs/openapi.json is missing: ${REGENERATE}.`);
    // A checkout with CRLF line endings is still the same document.
    const committed = readFileSync(OPENAPI_FILE, 'utf8').replace(/\r\n/g, '\n');
    if (committed !== renderOpenApi(generated)) {
      throw new Error(`docs/openapi.json no longer matches the endpoint definitions: ${REGENERATE}.`);
    }
  });

  it("is a valid OpenAPI 3.1 document (the OpenAPI Initiative's schema, every $ref resolved)", async () => {
    const result = await new Validator().validate(structuredClone(generated));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is refused by the validator when broken, so the check above can fail', async () => {
    const broken = structuredClone(generated) as {
      paths: Record<string, Record<string, { responses: object }>>;
    };
    const [first] = Object.values(broken.paths);
    Object.values(first)[0].responses = { '200': { content: {} } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('has every defined endpoint at its path and method, with its roles, and nothing else', () => {
    const paths = generated.paths as Record<
      string,
      Record<string, { operationId: string; 'x-roles'?: string[] }>
    >;
    const listed = Object.entries(paths).flatMap(([route, methods]) =>
      Object.entries(methods).map(
        ([method, operation]) => `${method.toUpperCase()} ${route} ${operation.operationId}`,
      ),
    );
    const expected = operations().map(({ operationId, definition }) => {
      const method = 'method' in definition ? definition.method : 'GET';
      return `${method} ${openApiPath(definition.path)} ${operationId}`;
    });
    expect(listed.sort()).toEqual(expected.sort());
    for (const { definition } of operations()) {
      const method = ('method' in definition ? definition.method : 'GET').toLowerCase();
      const roles = paths[openApiPath(definition.path)][method]['x-roles'];
      expect(roles ?? 'public').toEqual(definition.roles === 'public' ? 'public' : [...definition.roles]);
    }
  });

  it('names the answer types as components, and a list answers a page of its rows', () => {
    const schemas = (generated.components as { schemas: Record<string, unknown> }).schemas;
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['CourseHeaderRow', 'Page_CourseHeaderRow']));
    const list = (generated.paths as Record<string, Record<string, unknown>>)['/api/admin/course-headers']
      .get;
    expect(list).toMatchObject({
      tags: ['courses'],
      'x-roles': ['admin'],
      security: [{ bearer: [] }],
      responses: {
        '200': {
          content: {
            'application/json': {
              schema: { properties: { data: { $ref: '#/components/schemas/Page_CourseHeaderRow' } } },
            },
            'text/csv': {},
          },
        },
        '401': {},
        '403': {},
        '422': {},
      },
    });
  });
});

describe('an operation, from its definition', () => {
  interface Described {
    parameters?: unknown[];
    requestBody?: { content: Record<string, unknown> };
    responses: Record<string, { content: Record<string, { schema?: unknown }> }>;
    security: unknown[];
    'x-roles'?: string[];
  }
  const describeOne = (definition: Parameters<typeof operationOf>[0]['definition']) =>
    operationOf(
      { area: 'scores', operationId: 'scores.example', definition },
      undefined,
    ) as unknown as Described;

  it('gives a parameter of a few values its enum, and a form its parts', () => {
    const operation = describeOne(
      endpoint({
        method: 'POST',
        path: '/api/training-school-admin/sheets/:id/grids/:grid{one|two}/import',
        roles: SCHOOL_ADMIN,
        summary: 'Marks from paper',
        input: { in: 'upload', fields: { file: 'file', note: 'text' } },
        answer: shape<void>(),
      }),
    );
    expect(operation.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'grid', in: 'path', required: true, schema: { type: 'string', enum: ['one', 'two'] } },
    ]);
    expect(operation.requestBody?.content).toEqual({
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: {
            file: { type: 'string', contentMediaType: 'application/octet-stream' },
            note: { type: 'string' },
          },
        },
      },
    });
    expect(operation.responses['200'].content['application/json'].schema).toEqual({
      type: 'object',
      properties: { success: { const: true }, message: { type: 'string' } },
      required: ['success'],
    });
    expect(operation['x-roles']).toEqual(['school_admin']);
  });

  it('answers a download by its content type, and a public raw answer needs no token', () => {
    const file = describeOne(
      endpoint({
        method: 'GET',
        path: '/api/admin/template',
        roles: ['admin'],
        summary: 'A template',
        answer: download('text/csv'),
      }),
    );
    expect(Object.keys(file.responses['200'].content)).toEqual(['text/csv']);
    const open = describeOne(
      endpoint({
        method: 'GET',
        path: '/api/health',
        roles: PUBLIC,
        summary: 'Live',
        answer: raw<{ status: string }>(),
      }),
    );
    expect(open.security).toEqual([]);
    expect(open).not.toHaveProperty('x-roles');
    expect(Object.keys(open.responses)).toEqual(['200', '404']);
  });
});
