import Ajv2020, { type ValidateFunction } from 'ajv8/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiPath } from '../../contract/endpoint';
import { openApiDocument } from '../../scripts/openapiDocument';
import { API_ROUTES } from '../../server/routes';
import { demoSignIns } from './fixtures';
import { startTestPortal, type ApiResponse, type TestPortal } from './portal';

/**
 * Issue 24: "the shape of its answer" is true, not only declared. The OpenAPI document is made here
 * from the endpoint definitions as they are (not read from docs/openapi.json, whose drift
 * tests/contract/openapi.test.ts checks), and every GET operation in it is called, as every role its
 * x-roles name (a public one anonymously), on the living demo with real parameters found by calling
 * the lists first; each 200 body must validate against the operation's 200 schema (Ajv, JSON Schema
 * 2020-12, every error reported). A few POSTs that are safe on a test's own portal are checked too,
 * and the refusals' envelopes (401, 403, 404, 422) against their schemas. An operation the test
 * cannot give real parameters to is named in CANNOT with the reason; any other one with a path
 * parameter or a required query parameter and no entry in PARAMETERS fails the test, so a new area
 * in the document is never skipped silently.
 */

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  'x-roles'?: string[];
  security: unknown[];
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

// Made once, at collection: the operations are the test's cases.
const document = openApiDocument() as unknown as Document;

const GETS = Object.entries(document.paths).flatMap(([route, methods]) =>
  methods.get ? [{ route, operation: methods.get }] : [],
);

type Caller = 'anonymous' | 'admin' | 'school_admin';
const callersOf = (operation: Operation): Caller[] =>
  operation.security.length === 0 ? ['anonymous'] : (operation['x-roles'] as Caller[]);

// Answer schemas are validated where they stand in the document, so their $refs to
// #/components/schemas resolve as any reader of the document would resolve them.
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(document, 'openapi');
const pointer = (...keys: string[]) =>
  keys.map((key) => encodeURIComponent(key.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
const compiled = new Map<string, ValidateFunction>();
function validatorOf(route: string, method: string, status: string): ValidateFunction {
  const at = pointer('paths', route, method, 'responses', status, 'content', 'application/json', 'schema');
  let validate = compiled.get(at);
  if (!validate) {
    validate = ajv.compile({ $ref: `openapi#/${at}` });
    compiled.set(at, validate);
  }
  return validate;
}

/** The body against the schema of this answer: the validator's complaints, none when it matches. */
function problems(route: string, method: string, status: string, body: unknown): string[] {
  const validate = validatorOf(route, method, status);
  if (validate(body)) return [];
  return validate.errors!.map(
    (error) => `${error.instancePath || '/'} ${error.message} (${error.schemaPath})`,
  );
}

let t: TestPortal;
let tokens: Record<Exclude<Caller, 'anonymous'>, string>;
const tokenOf = (caller: Caller) => (caller === 'anonymous' ? undefined : tokens[caller]);

beforeAll(async () => {
  t = await startTestPortal({}, { livingDemo: true });
  const signIns = await demoSignIns(t);
  tokens = { admin: signIns.admin, school_admin: signIns.school1 };
});
afterAll(() => t?.close());

/** A GET the test expects to answer 200; its body, or the test fails naming the call and the answer. */
async function read<T = unknown>(path: string, caller: Caller): Promise<T> {
  const response = await t.request('GET', path, { token: tokenOf(caller) });
  expect(response.status, `GET ${path} as ${caller}: ${JSON.stringify(response.body)}`).toBe(200);
  return (response.body as { data: T }).data;
}
const rowsOf = async <T>(path: string, caller: Caller) => (await read<{ items: T[] }>(path, caller)).items;

function firstOf<T>(rows: T[], what: string, test: (row: T) => boolean = () => true): T {
  const row = rows.find(test);
  if (!row) throw new Error(`The demo has no ${what}`);
  return row;
}

/** One call of an operation: its path's parameters and its query, and what they are. */
interface Call {
  label: string;
  path?: Record<string, string | number>;
  query?: Record<string, string>;
}

/**
 * Real parameters, by the operation's path (paths do not change, operation ids may): each found by
 * calling the lists as the caller would, so the answer is a real one (a sheet with marks, a payment with
 * what it covers). Some answer in more than one way (an exam sheet's grid and an in-course one), and
 * each way is called. Entries for areas not yet in the document wait there until their area is.
 */
const PARAMETERS: Record<string, (caller: Caller) => Promise<Call[]>> = {
  '/api/admin/payments/{reference}': async (caller) => {
    const rows = await rowsOf<PaymentRef>('/api/admin/payment-histories', caller);
    // One of each status the demo has (paid with its receipt, pending, failed, abandoned, in review).
    const byStatus = new Map(rows.map((row) => [row.status, row.transaction_ref]));
    return [...byStatus].map(([status, reference]) => ({
      label: `a ${status} payment`,
      path: { reference },
    }));
  },
  '/api/training-school-admin/payments/{reference}': async (caller) => {
    const rows = await rowsOf<PaymentRef>('/api/training-school-admin/payment-histories', caller);
    const byStatus = new Map(rows.map((row) => [row.status, row.transaction_ref]));
    return [...byStatus].map(([status, reference]) => ({
      label: `a ${status} payment`,
      path: { reference },
    }));
  },
  '/api/training-school-admin/fees/{id}/unpaid-candidates': async (caller) => {
    const { fees } = await read<{ fees: { id: number; unpaid: number; basis: string }[] }>(
      '/api/training-school-admin/fees',
      caller,
    );
    return [
      {
        label: 'a fee some candidates owe',
        path: { id: firstOf(fees, 'unpaid fee', (fee) => fee.unpaid > 0).id },
      },
    ];
  },
  '/api/admin/score/course-headers/{code}': async (caller) => {
    const [header] = await rowsOf<{ code: string }>('/api/admin/course-headers', caller);
    return [{ label: `course header ${header.code}`, path: { code: header.code } }];
  },
  '/api/admin/results/preview': async (caller) => {
    const { diet, course_header } = firstOf(
      await rowsOf<{ diet: { code: string }; course_header: { code: string } }>('/api/admin/results', caller),
      'result',
    );
    const open = firstOf(
      (
        await read<{ sheets: { state: string; diet: { code: string }; course_header: { code: string } }[] }>(
          '/api/admin/score/sheets',
          caller,
        )
      ).sheets,
      'open sheet',
      (sheet) => sheet.state === 'open',
    );
    return [
      { label: 'a published result', query: { diet: diet.code, course_header: course_header.code } },
      // Sheets still open: the preview says what is missing and why compute would be refused.
      {
        label: 'a result not computable yet',
        query: { diet: open.diet.code, course_header: open.course_header.code },
      },
    ];
  },
  '/api/admin/score/sheets/{id}': async (caller) =>
    (await sheets(caller)).map((sheet) => ({ label: `a ${sheet.kind} sheet`, path: { id: sheet.id } })),
  '/api/admin/score/sheets/{id}/reconciliation': async (caller) =>
    (await sheets(caller))
      .filter((sheet) => sheet.kind !== 'in_course')
      .map((sheet) => ({ label: `a ${sheet.kind} sheet`, path: { id: sheet.id } })),
  '/api/admin/score/sheets/{id}/grids/{grid}': async (caller) =>
    (await sheets(caller)).map((sheet) => {
      const grid = sheet.kind === 'in_course' ? 'in-course' : 'one';
      return { label: `a ${sheet.kind} sheet's grid ${grid}`, path: { id: sheet.id, grid } };
    }),
  '/api/admin/candidates/{id}': async (caller) => {
    const [candidate] = await rowsOf<{ id: number }>('/api/admin/candidates', caller);
    return [{ label: 'a candidate', path: { id: candidate.id } }];
  },
  // Record pages with every section filled somewhere: newly indexed candidates, offenders, and
  // candidates with published results (registrations and payments).
  '/api/admin/candidates/{id}/record': async (caller) => {
    const indexed = await rowsOf<{ id: number }>('/api/admin/candidates', caller);
    const offenders = await rowsOf<{ candidate: { id: number } }>('/api/admin/exam-offenders', caller);
    const results = await rowsOf<{ candidate_id: number }>('/api/admin/results', caller);
    const ids = [
      ...indexed.slice(0, 2).map((row) => row.id),
      ...offenders.slice(0, 3).map((row) => row.candidate.id),
      ...results.slice(0, 3).map((row) => row.candidate_id),
    ];
    return [...new Set(ids)].map((id) => ({ label: `candidate ${id}`, path: { id } }));
  },
  '/api/training-school-admin/candidates/{id}/record': async (caller) => {
    const rows = await rowsOf<{ id: number }>('/api/training-school-admin/registered-candidates', caller);
    return [{ label: "one of the school's candidates", path: { id: firstOf(rows, 'candidate').id } }];
  },
  '/api/admin/diets/{id}/extensions': async (caller) => {
    const rows = await rowsOf<{ id: number }>('/api/admin/diets', caller);
    return [{ label: 'a diet', path: { id: firstOf(rows, 'diet').id } }];
  },
  '/api/admin/documents/{ending}': async (caller): Promise<Call[]> => {
    const { options } = await read<{ options: { diets: { code: string; current: boolean }[] } }>(
      '/api/admin/documents',
      caller,
    );
    const diet = firstOf(options.diets, 'current diet', (d) => d.current);
    return [
      { label: 'the indexing statistics', path: { ending: 'course-index-stats' } },
      {
        label: 'the registration statistics',
        path: { ending: 'course-reg-stats' },
        query: { diet: diet.code },
      },
      {
        label: "a school's photocards",
        path: { ending: 'photocard' },
        query: { diet: diet.code, school: 'SHT-IB' },
      },
    ];
  },
  '/api/training-school-admin/documents/{ending}': async (caller): Promise<Call[]> => {
    const { options } = await read<{ options: { diets: { code: string; current: boolean }[] } }>(
      '/api/training-school-admin/documents',
      caller,
    );
    const diet = firstOf(options.diets, 'current diet', (d) => d.current);
    return [
      { label: "the school's photocards", path: { ending: 'photocard' }, query: { diet: diet.code } },
      { label: "the school's indexed candidates", path: { ending: 'indexed-candidate-list' } },
    ];
  },
  '/api/admin/documents/{ending}/pdf': async () => [
    { label: 'the indexing statistics as a PDF', path: { ending: 'course-index-stats' } },
  ],
  '/api/training-school-admin/documents/{ending}/pdf': async () => [
    { label: "the school's indexed candidates as a PDF", path: { ending: 'indexed-candidate-list' } },
  ],
  // The demo's broadcasts (server/demo/broadcasts.ts): one with a PDF attached, addressed to every school.
  '/api/admin/broadcasts/{id}': async (caller) => {
    const sent = await read<{ id: number }[]>('/api/admin/broadcasts', caller);
    return [{ label: 'a broadcast', path: { id: firstOf(sent, 'broadcast').id } }];
  },
  '/api/admin/broadcasts/{id}/attachments/{attachment}': async (caller) => {
    const sent = await read<{ id: number; attachments: number }[]>('/api/admin/broadcasts', caller);
    const id = firstOf(sent, 'broadcast with a file', (row) => row.attachments > 0).id;
    const detail = await read<{ attachment_list: { id: number }[] }>(`/api/admin/broadcasts/${id}`, caller);
    return [{ label: "a broadcast's file", path: { id, attachment: detail.attachment_list[0].id } }];
  },
  '/api/training-school-admin/broadcasts/{id}': async (caller) => {
    const mine = await read<{ id: number }[]>('/api/training-school-admin/broadcasts', caller);
    return [{ label: 'a broadcast to the school', path: { id: firstOf(mine, 'broadcast').id } }];
  },
  '/api/training-school-admin/broadcasts/{id}/attachments/{attachment}': async (caller) => {
    const mine = await read<{ id: number; attachments: { id: number }[] }[]>(
      '/api/training-school-admin/broadcasts',
      caller,
    );
    const row = firstOf(mine, 'broadcast with a file', (item) => item.attachments.length > 0);
    return [{ label: "a broadcast's file", path: { id: row.id, attachment: row.attachments[0].id } }];
  },
  // A conversation the demo holds: the board's from a notification's link, a school's from its list.
  '/api/admin/conversations/{id}': async (caller) => {
    const rows = await rowsOf<{ kind: string; link: { href: string } | null }>(
      '/api/admin/training-school-notification-read?per_page=100',
      caller,
    );
    const note = firstOf(rows, 'answered message', (row) => row.kind === 'school.message' && !!row.link);
    return [{ label: 'a conversation', path: { id: note.link!.href.split('/').pop()! } }];
  },
  '/api/training-school-admin/conversations/{id}': async (caller) => {
    const rows = await read<{ id: number }[]>('/api/training-school-admin/conversations', caller);
    return [{ label: "the school's latest conversation", path: { id: firstOf(rows, 'conversation').id } }];
  },
  // The public check of a code printed just now (the demo's own prints are checked in tests/api/demo.test.ts).
  '/api/verify/{code}': async () => {
    const printed = await read<{ verification: { code: string } }>(
      '/api/admin/documents/course-index-stats',
      'admin',
    );
    return [{ label: 'a printed document', path: { code: printed.verification.code } }];
  },
};

/** Operations the test cannot give real parameters to, and why. */
const CANNOT: Record<string, string> = {
  '/api/admin/bulk-indexing/{id}':
    'the demo holds no bulk indexing job (one is an uploaded zip, tests/api/bulk-indexing.test.ts)',
  '/api/admin/bulk-indexing/{id}/report.csv':
    'the demo holds no bulk indexing job (one is an uploaded zip, tests/api/bulk-indexing.test.ts)',
  '/api/admin/document-jobs/{id}':
    'the demo holds no PDF job (one is a PDF past 5,000 rows or cards, tests/api/documents-pdf-routes.test.ts)',
  '/api/document-downloads/{id}/{token}':
    "the demo holds no PDF job, and a job's link is signed for it (one is a PDF past 5,000 rows or cards, tests/api/documents-pdf-routes.test.ts)",
  '/api/training-school-admin/document-jobs/{id}':
    'the demo holds no PDF job (one is a PDF past 5,000 rows or cards, tests/api/documents-pdf-routes.test.ts)',
};

interface PaymentRef {
  transaction_ref: string;
  status: string;
}
interface SheetRef {
  id: number;
  kind: string;
}
/** One sheet of each kind the demo has, from the last diet (marked, reconciled, locked) and the current. */
async function sheets(caller: Caller): Promise<SheetRef[]> {
  const current = await read<{ sheets: (SheetRef & { diet: { code: string } })[] }>(
    '/api/admin/score/sheets',
    caller,
  );
  const results = await rowsOf<{ diet: { code: string } }>('/api/admin/results', caller);
  const last = firstOf(results, 'published result').diet.code;
  const marked = await read<{ sheets: SheetRef[] }>(`/api/admin/score/sheets?diet=${last}`, caller);
  const found = new Map<string, SheetRef>();
  for (const sheet of [...marked.sheets, ...current.sheets])
    if (!found.has(sheet.kind)) found.set(sheet.kind, sheet);
  return [...found.values()];
}

const fill = (route: string, params: Record<string, string | number> = {}) =>
  route.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`${route} needs its {${name}}`);
    return encodeURIComponent(String(params[name]));
  });
const withQuery = (path: string, query: Record<string, string> = {}) => {
  const text = new URLSearchParams(query).toString();
  return text ? `${path}?${text}` : path;
};

const needsParameters = (route: string, operation: Operation) =>
  route.includes('{') || (operation.parameters ?? []).some((p) => p.in === 'query' && p.required);

/** An answer's body for a failure's message: enough to see what came, not a whole page of rows. */
const shown = (body: unknown) => {
  const text = JSON.stringify(body);
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
};

/** The answer of this status against its schema: JSON by its schema, a file by its content type. */
function expectAnswer(
  route: string,
  method: string,
  operation: Operation,
  status: string,
  what: string,
  response: ApiResponse,
) {
  expect(String(response.status), `${what}: ${shown(response.body)}`).toBe(status);
  const content = operation.responses[status]?.content ?? {};
  expect(Object.keys(content), `${what}: the document says no ${status} answer`).not.toEqual([]);
  if (content['application/json']) {
    expect(problems(route, method, status, response.body), `${what}: ${shown(response.body)}`).toEqual([]);
  } else {
    const [type] = Object.keys(content);
    expect(response.headers.get('content-type'), what).toContain(type);
  }
}

const operationAt = (route: string, method: string) => {
  const operation = document.paths[route]?.[method];
  if (!operation) throw new Error(`The document has no ${method.toUpperCase()} ${route}`);
  return operation;
};

describe('the document the answers are checked against', () => {
  it('has GET operations, and each one is called or named with the reason it cannot be', () => {
    expect(GETS.length).toBeGreaterThan(10);
    const unprovided = GETS.filter(
      ({ route, operation }) => needsParameters(route, operation) && !PARAMETERS[route] && !CANNOT[route],
    ).map(({ route }) => route);
    expect(
      unprovided,
      'give these real parameters in PARAMETERS, or name them in CANNOT with the reason',
    ).toEqual([]);
  });

  it('names no operation that is not served (an area still moving is served without a definition)', () => {
    const served = new Set([
      ...GETS.map(({ route }) => route),
      ...API_ROUTES.filter(({ method }) => method === 'GET').map(({ path }) => openApiPath(path)),
    ]);
    const stale = [...Object.keys(PARAMETERS), ...Object.keys(CANNOT)].filter((route) => !served.has(route));
    expect(stale).toEqual([]);
  });
});

describe('every GET operation, as every role it names: the 200 answer matches its schema', () => {
  const called = GETS.filter(({ route }) => !CANNOT[route]);
  it.each(called.map((entry) => [`${entry.operation.operationId} (GET ${entry.route})`, entry] as const))(
    '%s',
    async (_name, { route, operation }) => {
      const csv = 'text/csv' in (operation.responses['200'].content ?? {});
      for (const caller of callersOf(operation)) {
        const calls = PARAMETERS[route] ? await PARAMETERS[route](caller) : [{ label: 'as it is' }];
        expect(calls.length, `${route}: no call`).toBeGreaterThan(0);
        for (const call of calls) {
          const path = withQuery(fill(route, call.path), call.query);
          const what = `GET ${path} as ${caller}, ${call.label}`;
          expectAnswer(
            route,
            'get',
            operation,
            '200',
            what,
            await t.request('GET', path, { token: tokenOf(caller) }),
          );
          if (csv) {
            // A list's other answer: every matching row as CSV.
            const file = withQuery(fill(route, call.path), { ...call.query, format: 'csv' });
            const response = await t.request('GET', file, {
              token: tokenOf(caller),
              headers: { accept: 'text/csv' },
            });
            expect(response.status, `GET ${file} as ${caller}`).toBe(200);
            expect(response.headers.get('content-type'), `GET ${file} as ${caller}`).toContain('text/csv');
          }
        }
      }
    },
  );
});

describe('the refusals, as the document says them', () => {
  const signedIn = GETS.filter(({ operation }) => operation.security.length > 0);

  it.each(signedIn.map((entry) => [`${entry.operation.operationId} (GET ${entry.route})`, entry] as const))(
    '%s: 401 without a token, 403 to a role it does not name',
    async (_name, { route, operation }) => {
      // Refused before the parameters are read, so any will do.
      const path = route.replace(/\{(\w+)\}/g, '1');
      expectAnswer(route, 'get', operation, '401', `GET ${path} anonymously`, await t.request('GET', path));
      for (const caller of (['admin', 'school_admin'] as const).filter(
        (r) => !callersOf(operation).includes(r),
      )) {
        const response = await t.request('GET', path, { token: tokenOf(caller) });
        expectAnswer(route, 'get', operation, '403', `GET ${path} as ${caller}`, response);
      }
    },
  );

  it('404: a payment, a sheet and a course header that do not exist', async () => {
    for (const [route, params] of [
      ['/api/admin/payments/{reference}', { reference: 'WHB-NOSUCHPAYMENT' }],
      ['/api/admin/score/sheets/{id}', { id: 999999 }],
      ['/api/admin/score/course-headers/{code}', { code: 'Z99' }],
    ] as const) {
      const path = fill(route, params);
      const response = await t.request('GET', path, { token: tokens.admin });
      expectAnswer(route, 'get', operationAt(route, 'get'), '404', `GET ${path}`, response);
    }
  });

  it('422: a query and a body that cannot be taken', async () => {
    const preview = '/api/admin/results/preview';
    const path = withQuery(preview, { diet: '!!', course_header: '' });
    const refused = await t.request('GET', path, { token: tokens.admin });
    expectAnswer(preview, 'get', operationAt(preview, 'get'), '422', `GET ${path}`, refused);
    for (const [route, token] of [
      ['/api/admin/fees', tokens.admin],
      ['/api/training-school-admin/payments/quote', tokens.school_admin],
      ['/api/admin/course-headers', tokens.admin],
    ] as const) {
      const response = await t.request('POST', route, { token, json: {} });
      expectAnswer(route, 'post', operationAt(route, 'post'), '422', `POST ${route} with {}`, response);
    }
  });
});

/**
 * POSTs that are safe on this test's own portal (a quote changes nothing; what is added is taken away
 * again where the API can): their 200 answers against their schemas. Run after the GETs above, so
 * those see the demo as it is seeded.
 */
describe('POST operations safe on a test portal: the 200 answer matches its schema', () => {
  const post = async (
    route: string,
    params: Record<string, string | number>,
    token: string,
    json?: unknown,
  ) => {
    const path = fill(route, params);
    const response = await t.request('POST', path, { token, json });
    expectAnswer(route, 'post', operationAt(route, 'post'), '200', `POST ${path}`, response);
    return response.body as { data?: { id: number } };
  };

  it('a quote for a fee some candidates owe', async () => {
    const { fees } = await read<{ fees: { id: number; unpaid: number }[] }>(
      '/api/training-school-admin/fees',
      'school_admin',
    );
    const fee = firstOf(fees, 'unpaid fee', (one) => one.unpaid > 0);
    const unpaid = await read<{ id: number }[]>(
      fill('/api/training-school-admin/fees/{id}/unpaid-candidates', { id: fee.id }),
      'school_admin',
    );
    await post('/api/training-school-admin/payments/quote', {}, tokens.school_admin, {
      fee_id: fee.id,
      candidate_ids: unpaid.slice(0, 2).map((candidate) => candidate.id),
    });
  });

  it('a fee added, turned off and deleted', async () => {
    const [{ diet }] = await rowsOf<{ diet: { code: string } }>('/api/admin/fees', 'admin');
    const fee = await post('/api/admin/fees', {}, tokens.admin, {
      title: 'Answer shape check',
      kind: 'other',
      basis: 'school',
      amount: '1,000',
      diet: diet.code,
      course_headers: 'A1',
    });
    const id = fee.data!.id;
    await post('/api/admin/fees/{id}/status', { id }, tokens.admin, { status: 'inactive' });
    await post('/api/admin/fees/{id}/delete', { id }, tokens.admin);
  });

  it('a course header added and opened for indexing', async () => {
    const header = await post('/api/admin/course-headers', {}, tokens.admin, {
      code: 'Z9',
      title: 'Answer shape check',
    });
    await post('/api/admin/course-headers/{id}/indexing-status', { id: header.data!.id }, tokens.admin, {
      indexing_status: 'open',
    });
  });

  it('a paper added and deleted', async () => {
    const paper = await post('/api/admin/score/papers', {}, tokens.admin, {
      course_header: 'A1',
      name: 'Answer shape check',
      q1_max: '100',
      q2_max: '100',
      q3_max: '100',
      q4_max: '100',
      q5_max: '0',
      tolerance_question: '10',
      tolerance_total: '20',
    });
    await post('/api/admin/score/papers/{id}/delete', { id: paper.data!.id }, tokens.admin);
  });

  it('a hold on a published result, the holds with it, and its release', async () => {
    const [result] = await rowsOf<{ diet: { code: string }; candidate_index: string }>(
      '/api/admin/results',
      'admin',
    );
    const hold = await post('/api/admin/results/holds', {}, tokens.admin, {
      diet: result.diet.code,
      candidate_index: result.candidate_index,
      reason: 'Answer shape check',
    });
    // The holds list with a row in it (the demo has none).
    const holds = '/api/admin/results/holds';
    const path = withQuery(holds, { diet: result.diet.code });
    const response = await t.request('GET', path, { token: tokens.admin });
    expectAnswer(holds, 'get', operationAt(holds, 'get'), '200', `GET ${path}`, response);
    expect(response.body.data, 'the hold is listed').toHaveLength(1);
    await post('/api/admin/results/holds/{id}/release', { id: hold.data!.id }, tokens.admin);
  });
});
