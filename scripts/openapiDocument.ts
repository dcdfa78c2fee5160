import path from 'node:path';
import {
  createFormatter,
  createParser,
  DEFAULT_CONFIG,
  SchemaGenerator,
  type CompletedConfig,
} from 'ts-json-schema-generator';
import ts from 'typescript';
import { endpointsOf, openApiPath, pathParams, type Endpoint } from '../contract/endpoint';
import { ENDPOINTS, LISTS } from '../contract/endpoints';
import * as listsModule from '../contract/lists';
import type { ListDefinition } from '../contract/lists';
import { listQueryValidator } from '../contract/lists.validators';

/**
 * The OpenAPI 3.1 document of the API, made from the endpoint definitions (contract/*.endpoints.ts,
 * registered in contract/endpoints.ts) and the list definitions (contract/lists.ts): paths, roles,
 * parameters and inputs from the definitions and their validators (VineJS's `toJSONSchema`), answers
 * from the TypeScript types written in `shape<...>()` and `raw<...>()` (read from the source with the
 * compiler, turned into JSON Schema by ts-json-schema-generator). `npm run openapi` writes it to
 * docs/openapi.json; tests/contract/openapi.test.ts fails when that file and this disagree, and the
 * portal serves the committed file at /api/openapi.json.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
const CONTRACT = path.join(ROOT, 'contract');

// A list's row type is both read and written (its CSV cells), so only `any` takes every list.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyList = ListDefinition<any>;
type Defined = Endpoint | AnyList;
type Schema = Record<string, unknown>;

const isList = (entry: Defined): entry is AnyList => 'columns' in entry;

/** One operation of the document: the definition, the area it belongs to, and its name there. */
interface Operation {
  area: string;
  operationId: string;
  definition: Defined;
}

/**
 * Every endpoint of the registry by area, each named `area.name` (`area.name.role` for a pair by role),
 * then every list no area's object names yet, under `lists`.
 */
export function operations(): Operation[] {
  const found: Operation[] = [];
  const named = new Set<Defined>();
  for (const [area, group] of Object.entries(ENDPOINTS)) {
    for (const [name, entry] of Object.entries(group)) {
      const pairs: [string, Defined][] =
        'path' in entry
          ? [[`${area}.${name}`, entry as Defined]]
          : Object.entries(entry).map(([role, one]) => [`${area}.${name}.${role}`, one as Defined]);
      for (const [operationId, definition] of pairs) {
        found.push({ area, operationId, definition });
        named.add(definition);
      }
    }
  }
  const unnamed = LISTS.filter((list) => !named.has(list));
  for (const list of unnamed) {
    const twins = unnamed.filter((other) => other.name === list.name).length > 1;
    found.push({
      area: 'lists',
      operationId: `lists.${list.name}${twins ? `.${list.roles.join('.')}` : ''}`,
      definition: list,
    });
  }
  const seen = new Map<string, string>();
  for (const { operationId, definition } of found) {
    const method = isList(definition) ? 'GET' : definition.method;
    const key = `${method} ${definition.path}`;
    if (seen.has(key)) throw new Error(`${key} is defined twice: ${seen.get(key)} and ${operationId}`);
    seen.set(key, operationId);
  }
  // Every endpoint of every group is in endpointsOf too; a mismatch would be a group of another shape.
  const total = Object.values(ENDPOINTS).reduce((sum, group) => sum + endpointsOf(group).length, 0);
  if (total + unnamed.length !== found.length)
    throw new Error('An endpoint group has an entry of no known shape');
  return found;
}

// ---------------------------------------------------------------------------------------------------
// The answers' types, read from the source.

/** Where a definition's answer type is written: its text, and the file whose names it uses. */
interface WrittenType {
  file: string;
  text: string;
}

function compilerOptions(): ts.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    // ES5's types are all a JSON answer's type can use (no DOM, no Map): fewer files to read.
    lib: ['lib.es5.d.ts'],
    strict: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    noEmit: true,
    // The contract needs no ambient types (node's, vite's): fewer files to read.
    types: [],
  };
}

const propertyOf = (object: ts.ObjectLiteralExpression, name: string) =>
  object.properties.find(
    (property): property is ts.PropertyAssignment =>
      ts.isPropertyAssignment(property) && ts.isIdentifier(property.name) && property.name.text === name,
  )?.initializer;

const where = (source: ts.SourceFile, node: ts.Node) =>
  `${path.relative(ROOT, source.fileName)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;

/**
 * The type written in each `endpoint({ ..., answer: shape<T>() })` (or `raw<T>()`) of a contract file,
 * by `METHOD path`. Read from the syntax alone (the checker would take seconds over VineJS's types):
 * the method and the path are literals, as the definitions write them.
 */
function answersWritten(source: ts.SourceFile, written: Map<string, WrittenType>) {
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'endpoint' &&
      node.arguments.length === 1 &&
      ts.isObjectLiteralExpression(node.arguments[0])
    ) {
      const object = node.arguments[0];
      const [method, route, answer] = ['method', 'path', 'answer'].map((name) => propertyOf(object, name));
      if (!method || !route || !ts.isStringLiteralLike(method) || !ts.isStringLiteralLike(route)) {
        throw new Error(`${where(source, node)}: an endpoint's method and path are written as literals`);
      }
      if (answer && ts.isCallExpression(answer) && answer.typeArguments?.length === 1) {
        written.set(`${method.text} ${route.text}`, {
          file: source.fileName,
          text: answer.typeArguments[0].getText(source),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

/** Each list definition's place among contract/lists.ts's exports: `NAME` or `NAME.role`. */
function listExports(): Map<AnyList, string[]> {
  const places = new Map<AnyList, string[]>();
  // An area's group may name a list LISTS does not hold (DIETS_LIST): it is found there all the same.
  const named = Object.values(ENDPOINTS).flatMap((group) => endpointsOf(group).filter(isList));
  const lists = new Set<unknown>([...LISTS, ...named]);
  for (const [name, value] of Object.entries(listsModule)) {
    if (lists.has(value)) places.set(value as AnyList, [name]);
    else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value)) {
        if (lists.has(inner)) places.set(inner as AnyList, [name, key]);
      }
    }
  }
  return places;
}

/**
 * A list's row type as contract/lists.ts writes it, `T` of the `defineList<T>()` that makes it: in its
 * export's initializer, in a property of it (a pair by role), or in the local function it calls.
 */
function rowTextOf(source: ts.SourceFile, place: string[]): string {
  const locals = new Map<string, ts.Expression>();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (ts.isIdentifier(declaration.name) && declaration.initializer) {
        locals.set(declaration.name.text, declaration.initializer);
      }
    }
  }
  const defineListIn = (node: ts.Node): string | null => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'defineList' &&
      node.typeArguments?.length === 1
    ) {
      return node.typeArguments[0].getText(source);
    }
    return ts.forEachChild(node, defineListIn) ?? null;
  };
  const resolve = (node: ts.Expression, keys: string[]): string | null => {
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) {
      return resolve(node.expression, keys);
    }
    if (ts.isObjectLiteralExpression(node) && keys.length) {
      const inner = propertyOf(node, keys[0]);
      return inner ? resolve(inner, keys.slice(1)) : null;
    }
    if (ts.isCallExpression(node)) {
      const own = defineListIn(node.expression);
      if (own) return own;
      const local = ts.isIdentifier(node.expression) ? locals.get(node.expression.text) : undefined;
      return local ? defineListIn(local) : null;
    }
    return null;
  };
  const start = locals.get(place[0]);
  const text = start && resolve(start, place.slice(1));
  if (!text) throw new Error(`contract/lists.ts: no defineList<Row>() makes ${place.join('.')}`);
  return text;
}

const ALIAS = '__OpenApiAnswer';

/**
 * The JSON Schema of each operation's answer type (absent: `void`, no data), and the named types they
 * use, for components/schemas. Each type is written as an exported alias at the end of the file that
 * wrote it (so it reads the names that file imports and its own types), a list's as `Page<Row>` at the
 * end of contract/lists.ts, in the compiler's copy only (nothing is written to disk);
 * ts-json-schema-generator makes the schemas of all of them at once.
 */
function answerSchemas(ops: Operation[]): { answers: Map<Defined, Schema>; shared: Record<string, Schema> } {
  const options = compilerOptions();
  const read = (file: string) =>
    ts.createSourceFile(file, ts.sys.readFile(file) ?? '', ts.ScriptTarget.ES2022, true);
  const written = new Map<string, WrittenType>();
  for (const name of ts.sys.readDirectory(CONTRACT, ['.ts'])) {
    if ((ts.sys.readFile(name) ?? '').includes('endpoint(')) answersWritten(read(name), written);
  }
  const listsFile = path.join(CONTRACT, 'lists.ts');
  const listsSource = read(listsFile);
  const places = listExports();

  const appended = new Map<string, string[]>([
    [listsFile, [`import type { Page as ${ALIAS}Page } from './pagination';`]],
  ]);
  const aliasOf = new Map<Defined, string>();
  ops.forEach(({ operationId, definition }, at) => {
    const alias = `${ALIAS}${at}`;
    if (isList(definition)) {
      const place = places.get(definition);
      if (!place) throw new Error(`${operationId}: contract/lists.ts exports no such list`);
      appended.get(listsFile)!.push(`export type ${alias} = ${ALIAS}Page<${rowTextOf(listsSource, place)}>;`);
      aliasOf.set(definition, alias);
      return;
    }
    if (definition.answer.kind === 'file') return;
    const key = `${definition.method} ${definition.path}`;
    const type = written.get(key);
    if (!type) {
      throw new Error(
        `${operationId} (${key}): write its answer's type in shape<...>() or raw<...>() at its endpoint()`,
      );
    }
    if (type.text === 'void' || type.text === 'undefined') return;
    const lines = appended.get(type.file) ?? [];
    lines.push(`export type ${alias} = ${type.text};`);
    appended.set(type.file, lines);
    aliasOf.set(definition, alias);
  });

  const texts = new Map<string, string>();
  for (const [file, lines] of appended) texts.set(file, `${ts.sys.readFile(file)}\n${lines.join('\n')}\n`);
  const host = ts.createCompilerHost(options);
  const program = ts.createProgram([path.join(CONTRACT, 'endpoints.ts'), listsFile], options, {
    ...host,
    // The contract's own files only: an answer is made of the contract's types, never a package's
    // (VineJS's types alone are twice the contract), so a package import is left unresolved.
    resolveModuleNameLiterals: (literals, containing) =>
      literals.map(({ text }) =>
        text.startsWith('.')
          ? ts.resolveModuleName(text, containing, options, host)
          : { resolvedModule: undefined },
      ),
    readFile: (file) => texts.get(file) ?? host.readFile(file),
    getSourceFile: (file, language, onError, create) => {
      const text = texts.get(file);
      return text === undefined
        ? host.getSourceFile(file, language, onError, create)
        : ts.createSourceFile(file, text, language, true);
    },
  });

  const config: CompletedConfig = {
    ...DEFAULT_CONFIG,
    expose: 'export',
    topRef: true,
    jsDoc: 'extended',
    sortProps: true,
    skipTypeCheck: true,
    encodeRefs: false,
    additionalProperties: false,
  };
  const generator = new SchemaGenerator(
    program,
    createParser(program, config),
    createFormatter(config),
    config,
  );
  const aliasNodes = [...texts.keys()].flatMap((file) =>
    program
      .getSourceFile(file)!
      .statements.filter(
        (statement): statement is ts.TypeAliasDeclaration =>
          ts.isTypeAliasDeclaration(statement) && statement.name.text.startsWith(ALIAS),
      ),
  );
  const generated = generator.createSchemaFromNodes(aliasNodes);
  const definitions = (generated.definitions ?? {}) as Record<string, Schema>;

  const answers = new Map<Defined, Schema>();
  for (const [definition, alias] of aliasOf) {
    const schema = definitions[alias];
    if (!schema) throw new Error(`No schema was made for ${alias}`);
    answers.set(definition, schema);
  }
  const shared = Object.fromEntries(Object.entries(definitions).filter(([name]) => !name.startsWith(ALIAS)));
  return { answers, shared };
}

// ---------------------------------------------------------------------------------------------------
// JSON Schema: draft 7 (VineJS, ts-json-schema-generator) into OpenAPI 3.1's (2020-12), refs into
// components/schemas.

/** A component's name as OpenAPI allows it (`^[A-Za-z0-9._-]+$`): `Page<CandidateRow>` is `Page_CandidateRow`. */
const componentName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/_+$/, '');

/** Keywords whose value names its entries (a property named `items` is no keyword). */
const NAMED = new Set(['properties', 'patternProperties', 'paths', 'schemas', 'responses', 'content']);

function toOpenApiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toOpenApiSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (NAMED.has(key) && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, inner]) => [name, toOpenApiSchema(inner)]),
      );
    } else if (key === '$schema' || key === 'definitions') continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/definitions/')) {
      out.$ref = `#/components/schemas/${componentName(decodeURIComponent(value.slice('#/definitions/'.length)))}`;
    } else if (key === 'items' && Array.isArray(value)) {
      // A tuple: 2020-12 says prefixItems, and `items` is what follows them.
      out.prefixItems = value.map(toOpenApiSchema);
    } else if (key === 'additionalItems') {
      out.items = toOpenApiSchema(value);
    } else {
      out[key] = toOpenApiSchema(value);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// The operations.

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (schema: unknown) => ({ 'application/json': { schema } });

/** The envelope of a successful answer: `data` of the answer's type, or none. */
const envelope = (data: unknown) => ({
  type: 'object',
  properties: {
    success: { const: true },
    message: { type: 'string' },
    ...(data === undefined ? {} : { data }),
  },
  required: data === undefined ? ['success'] : ['success', 'data'],
});

const FAILURES = {
  Failure: {
    type: 'object',
    description: 'A refusal: its sentence.',
    properties: { success: { const: false }, message: { type: 'string' }, data: {} },
    required: ['success', 'message'],
  },
  Invalid: {
    type: 'object',
    description:
      'The input cannot be taken: each field with its messages (a sentence where the spec says so).',
    properties: {
      success: { const: false },
      message: {
        anyOf: [
          { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          { type: 'string' },
        ],
      },
    },
    required: ['success', 'message'],
  },
  Unauthenticated: {
    type: 'object',
    description: 'No token, or one that is no longer valid: the SPA signs out.',
    properties: { message: { const: 'Unauthenticated.' } },
    required: ['message'],
  },
} as const;

const failure = (description: string, name: keyof typeof FAILURES) => ({
  description,
  content: jsonContent(ref(name)),
});

/** A JSON Schema object's properties, each as its own parameter (query) or part (multipart). */
function objectProperties(schema: Schema): { properties: Record<string, Schema>; required: string[] } {
  return {
    properties: (schema.properties ?? {}) as Record<string, Schema>,
    required: (schema.required ?? []) as string[],
  };
}

function queryParameters(schema: Schema) {
  const { properties, required } = objectProperties(schema);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    schema: toOpenApiSchema(property),
  }));
}

/**
 * A list's query: what its validator says, with the values a choice filter and `sort` take (the
 * validator checks them with `in`, which its JSON Schema leaves out).
 */
function listQuery(list: AnyList) {
  const schema = listQueryValidator(list).validator.toJSONSchema() as Schema;
  const properties = { ...(schema.properties as Record<string, Schema>) };
  for (const [name, spec] of Object.entries(list.filters)) {
    if (spec.kind === 'choice') properties[name] = { ...properties[name], enum: [...spec.values] };
  }
  properties.sort = { ...properties.sort, enum: Object.keys(list.sorts) };
  return queryParameters({ ...schema, properties });
}

const FILE_PART = { type: 'string', contentMediaType: 'application/octet-stream' };

function requestOf(definition: Endpoint) {
  const input = definition.input;
  if (!input) return {};
  if (input.in === 'query') return { parameters: queryParameters(input.validator.toJSONSchema() as Schema) };
  if (input.in === 'json') {
    return {
      requestBody: { required: true, content: jsonContent(toOpenApiSchema(input.validator.toJSONSchema())) },
    };
  }
  if (input.in === 'form') {
    const fields = toOpenApiSchema(input.validator.toJSONSchema()) as Schema;
    const { properties, required } = objectProperties(fields);
    const multipart = {
      type: 'object',
      properties: { ...properties, ...Object.fromEntries(input.files.map((name) => [name, FILE_PART])) },
      required,
    };
    return {
      requestBody: {
        required: true,
        description: 'A form: multipart with its files, or JSON without them.',
        content: { 'multipart/form-data': { schema: multipart }, ...jsonContent(fields) },
      },
    };
  }
  if (input.in !== 'upload') throw new Error(`${definition.path}: an input of no known kind`);
  const parts = Object.fromEntries(
    Object.entries(input.fields).map(([name, kind]) => [
      name,
      kind === 'file' ? FILE_PART : { type: 'string' },
    ]),
  );
  return {
    requestBody: {
      required: true,
      description: "A form the server checks as a whole (its files' rules, the database).",
      content: { 'multipart/form-data': { schema: { type: 'object', properties: parts } } },
    },
  };
}

function answerOf(definition: Defined, answer: Schema | undefined) {
  if (isList(definition)) {
    return {
      description: 'A page of the rows; with `format=csv`, every matching row as CSV.',
      content: { ...jsonContent(envelope(answer)), 'text/csv': { schema: { type: 'string' } } },
    };
  }
  const { kind, contentType } = definition.answer;
  if (kind === 'file') {
    return {
      description: 'A file to download.',
      content: { [contentType!]: { schema: { type: 'string', contentMediaType: contentType } } },
    };
  }
  if (kind === 'raw')
    return { description: 'JSON as it is, without the envelope.', content: jsonContent(answer ?? {}) };
  return { description: 'The envelope.', content: jsonContent(envelope(answer)) };
}

/** One operation of the document: its path's parameters, its input, its answers and who may call it. */
export function operationOf({ area, operationId, definition }: Operation, answer: Schema | undefined) {
  const list = isList(definition);
  const roles = definition.roles;
  const isPublic = roles === 'public';
  const params = pathParams(definition.path).map(({ name, values }) => ({
    name,
    in: 'path',
    required: true,
    schema: values ? { type: 'string', enum: values } : { type: 'string' },
  }));
  const request = list ? { parameters: listQuery(definition) } : requestOf(definition);
  const takesInput = list || !!definition.input;
  return {
    operationId,
    summary: list ? `The ${definition.name.replace(/-/g, ' ')} list` : definition.summary,
    tags: [area],
    security: isPublic ? [] : [{ bearer: [] }],
    ...(isPublic ? {} : { 'x-roles': [...roles] }),
    ...((params.length || request.parameters) && {
      parameters: [...params, ...(request.parameters ?? [])],
    }),
    ...('requestBody' in request && { requestBody: request.requestBody }),
    responses: {
      '200': answerOf(definition, answer),
      ...(isPublic
        ? {}
        : {
            '401': failure('Not signed in.', 'Unauthenticated'),
            '403': failure('Not for this role.', 'Failure'),
          }),
      '404': failure('Nothing at this address, or nothing this caller may see.', 'Failure'),
      ...(takesInput ? { '422': failure('The input cannot be taken.', 'Invalid') } : {}),
    },
  };
}

/** Keys in order at every depth (arrays keep theirs), so the document is the same byte for byte each time. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted((value as Schema)[key])]),
  );
}

export function openApiDocument(): Schema {
  const ops = operations();
  const { answers, shared } = answerSchemas(ops);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops) {
    const method = isList(op.definition) ? 'GET' : op.definition.method;
    const at = (paths[openApiPath(op.definition.path)] ??= {});
    at[method.toLowerCase()] = operationOf(op, answers.get(op.definition));
  }
  const schemas: Record<string, unknown> = { ...FAILURES };
  for (const [name, schema] of Object.entries(shared)) {
    const component = componentName(name);
    if (component in schemas) throw new Error(`Two types are both named ${component} in the document`);
    schemas[component] = schema;
  }
  return sorted(
    toOpenApiSchema({
      openapi: '3.1.0',
      info: {
        title: 'Examination portal API',
        version: '1',
        description:
          'Generated from the endpoint definitions (contract/*.endpoints.ts and contract/lists.ts) by `npm run openapi`. ' +
          'Every answer but a raw one or a file is the envelope `{ success, message?, data }`.',
      },
      tags: [...new Set(ops.map(({ area }) => area))].sort().map((name) => ({ name })),
      paths,
      components: {
        schemas,
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'The access token of a sign-in.' },
        },
      },
    }),
  ) as Schema;
}

/** The document as docs/openapi.json holds it. */
export const renderOpenApi = (document: Schema = openApiDocument()) =>
  `${JSON.stringify(document, null, 2)}\n`;

export const OPENAPI_FILE = path.join(ROOT, 'docs', 'openapi.json');
