import busboy from 'busboy';
import type { MiddlewareHandler } from 'hono';
import { once } from 'node:events';
import { createMiddleware } from 'hono/factory';
import { HTTPException } from 'hono/http-exception';
import { validator } from 'hono/validator';
import { runValidator, type StandardValidator } from '../../contract/endpoint';
import type { FieldMessages } from '../../contract/envelope';
import { INPUT_MESSAGES, isReadable, MAX_INPUT_DEPTH } from '../../contract/input';
import { Invalid, Refused } from '../errors';
import { checkUpload, type Upload, type UploadRule } from '../storage/uploads';
import type { AppContext, AppEnv } from './context';

/**
 * Request bodies and query strings, validated before the handler by a middleware on `hono/validator`
 * and read in the handler with `c.req.valid('json' | 'form' | 'query')`. A problem is thrown as
 * `Invalid` (a 422 with the field messages, from app.onError), so no handler sees unchecked input.
 */

/** The value, or the Invalid to throw. */
async function validOrThrow<T>(schema: StandardValidator<T>, value: unknown): Promise<T> {
  const result = await runValidator(schema, value);
  if (result.fields) throw new Invalid(result.fields);
  return result.value;
}

/** A body or query as an object: anything else (an array, a number, null) reads as an empty one. */
const asObject = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? { ...(value as Record<string, unknown>) }
    : {};

/**
 * What no field of any form may hold, checked here once for every body and query before the form's own
 * rules: text with a NUL or an unpaired surrogate (nothing a person types, and nothing PostgreSQL
 * stores as text), in a value or a name, at any depth; and nesting past MAX_INPUT_DEPTH. Walked with a
 * stack of its own, so no input is deep enough to overflow ours. Files are not text and are skipped.
 */
export function hostileInput(input: Record<string, unknown>): FieldMessages | null {
  const stack: [value: unknown, field: string, depth: number][] = [[input, '', 0]];
  while (stack.length) {
    const [value, field, depth] = stack.pop()!;
    if (typeof value === 'string') {
      if (!isReadable(value)) return { [field]: [INPUT_MESSAGES.unreadable] };
    } else if (value && typeof value === 'object' && !(value instanceof Blob)) {
      if (depth >= MAX_INPUT_DEPTH) return { [field]: [INPUT_MESSAGES.tooDeep] };
      for (const [name, child] of Object.entries(value)) {
        // A name no one could type is named by where it sits.
        if (!isReadable(name)) return { [field || '_']: [INPUT_MESSAGES.unreadable] };
        stack.push([child, field ? `${field}.${name}` : name, depth + 1]);
      }
    }
  }
  return null;
}

type Target = 'json' | 'form' | 'query';

/** The middleware's type: what `c.req.valid(target)` answers in the handler after it. */
export type Valid<T extends Target, Output> = MiddlewareHandler<
  AppEnv,
  string,
  { in: { [K in T]: Record<string, unknown> }; out: { [K in T]: Output } }
>;

/** A check of the whole input: a validator's, or one that also needs the database (the candidate form). */
export type Check<Output> = (input: Record<string, unknown>, c: AppContext) => Promise<Output>;

const jsonType = /^application\/([\w.-]+\+)?json$/i;
const isJson = (c: AppContext) => jsonType.test((c.req.header('content-type') ?? '').split(';')[0].trim());

/**
 * hono/validator reads the target and hands it to the check; what it cannot read (malformed JSON, a
 * broken multipart body) it refuses with a 400, which we answer as if the body were empty: the check's
 * own field messages, a 422, never a 400 or a 500. A form may also come as JSON (without files), as
 * the profile's forms may.
 */
function validated<T extends Target, Output>(
  target: T,
  check: Check<Output>,
  { files = false, maxBytes, parts = {} }: { files?: boolean; maxBytes?: number; parts?: PartCaps } = {},
): Valid<T, Output> {
  const store = (c: AppContext, value: Output) => c.req.addValidatedData(target, value as object);
  const run = async (value: unknown, c: AppContext) => {
    const input = asObject(value);
    const hostile = hostileInput(input);
    if (hostile) throw new Invalid(hostile);
    const output = await check(input, c);
    store(c, output);
    return output;
  };
  // Typed by what the handler reads (Valid), so the readers themselves need no more than Hono's shape.
  const read = validator(target, run) as unknown as MiddlewareHandler<AppEnv>;
  const readJson =
    target === 'form' ? (validator('json', run) as unknown as MiddlewareHandler<AppEnv>) : read;
  const middleware = createMiddleware<AppEnv>(async (c, next) => {
    // A large form (bulk indexing's zip, marks from paper) is read as a stream, never in one go.
    if (target === 'form' && files && maxBytes && isMultipart(c)) {
      const body = await streamedForm(c, maxBytes, parts);
      await run(body ?? {}, c);
      return next();
    }
    let checked = false;
    // Only a form that takes files reads multipart (or urlencoded) bodies; any other reads JSON,
    // whatever the Content-Type claims.
    const reader = isJson(c) || !files ? readJson : read;
    try {
      return await reader(c, async () => {
        checked = true;
        await next();
      });
    } catch (error) {
      if (checked || !(error instanceof HTTPException) || error.status !== 400) throw error;
      store(c, await check({}, c));
      await next();
    }
  });
  return Object.assign(middleware, { [TAKES_FILES]: files, [MAX_BYTES]: maxBytes }) as Valid<T, Output>;
}

const isMultipart = (c: AppContext) =>
  (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase() === 'multipart/form-data';

/** A file field's own cap, and the words of its 422 when a part passes it. */
export type PartCaps = Record<string, { bytes: number; tooLarge: string }>;

/** Text fields of these forms are a few words; a longer one is cut here (its check then finds it too long). */
const FIELD_BYTES = 64 * 1024;

/** The body is handed to the parser in slices of this, so no one step holds the event loop long. */
const SLICE = 256 * 1024;

/**
 * A multipart body read by busboy as it arrives, so other requests are answered between its chunks:
 * the web platform's `formData()` parses the whole body in one go on the event loop (measured: about
 * 75 ms a MB, so seconds for bulk indexing's 400 MB zip). The body is pulled from the request's own
 * stream chunk by chunk, each written to the parser only once it has taken the last (backpressure), so
 * at most one chunk waits; a file's bytes are kept in memory as a Blob a chunk, and become one File
 * made of them.
 *
 * Caps stop the reading where they are passed: the whole body past `maxBytes` (a body sent without a
 * Content-Length: app.ts's limit checks the header, this counts the bytes) is the body limit's 413, and
 * a file part past its own cap (`parts`) is that field's 422 in the form's words. Either way nothing
 * more is read or kept; the server framework reads off and drops what the client still sends, then
 * closes the connection if it is more than a little.
 *
 * Text fields come as strings (the last of a repeated name), files as Files. A body that is not
 * well-formed multipart reads as null (checked as an empty form, as the platform's parser answers).
 */
async function streamedForm(
  c: AppContext,
  maxBytes: number,
  parts: PartCaps,
): Promise<Record<string, unknown> | null> {
  const source = c.req.raw.body;
  if (!source) return null;
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': c.req.header('content-type') },
      limits: { fieldSize: FIELD_BYTES, fileSize: maxBytes },
    });
  } catch {
    return null; // no boundary: not multipart at all
  }
  const body: Record<string, unknown> = {};
  let failure: unknown = null;
  const fail = (error: unknown) => {
    failure ??= error;
  };
  const filesRead: Promise<void>[] = [];
  parser.on('field', (name, value) => {
    body[name] = value;
  });
  parser.on('file', (name, stream, info) => {
    const cap = parts[name];
    const chunks: Blob[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      if (failure) return;
      size += chunk.byteLength;
      if (cap && size > cap.bytes) return fail(new Invalid({ [name]: [cap.tooLarge] }));
      // A Blob a chunk, copied as it comes: one File made from 400 MB of Buffers at the end copies them
      // all in one step (measured: 2 s), while a File made of Blobs only refers to them.
      chunks.push(new Blob([chunk as Uint8Array<ArrayBuffer>]));
    });
    filesRead.push(
      new Promise((done) => {
        stream.on('error', (error) => done(fail(error)));
        stream.on('end', () => {
          body[name] = new File(chunks, info.filename ?? '', {
            type: info.mimeType,
          });
          done();
        });
      }),
    );
  });
  parser.on('error', fail);
  const parsed = new Promise<void>((done) => parser.on('close', done));

  const reader = source.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw new Refused(413, BODY_TOO_LARGE);
      for (let at = 0; at < value.byteLength && !failure; at += SLICE) {
        if (!parser.write(value.subarray(at, at + SLICE))) await once(parser, 'drain').catch(fail);
      }
      if (failure) break;
    }
    if (!failure) {
      parser.end();
      await parsed; // busboy closes after its last part, or after an error (fail has it)
      await Promise.all(filesRead);
    }
  } finally {
    // Not cancelled: cancelling the body destroys the socket, and the answer with it.
    reader.releaseLock();
  }
  if (failure instanceof Refused || failure instanceof Invalid) throw failure;
  return failure ? null : body;
}

/** The body limit's words (app.ts answers the same when the Content-Length says it). */
export const BODY_TOO_LARGE = 'The request is too large.';

const TAKES_FILES = Symbol('takes files');
const MAX_BYTES = Symbol('body limit');

/** The larger body a route's form allows (bulk indexing's zip), if it says one. */
export const bodyLimitOfForm = (handlers: readonly unknown[]): number | undefined =>
  handlers.map((handler) => (handler as { [MAX_BYTES]?: number })[MAX_BYTES]).find((limit) => limit);

/**
 * Whether a route's handlers read a form with files: only such a route reads multipart bodies, and
 * only it gets the larger body limit (server/app.ts).
 */
export const takesFiles = (handlers: readonly unknown[]): boolean =>
  handlers.some((handler) => (handler as { [TAKES_FILES]?: boolean })[TAKES_FILES] === true);

const asCheck =
  <Output>(schema: StandardValidator<Output>): Check<Output> =>
  (input) =>
    validOrThrow(schema, input);

/** A JSON body, checked by a contract validator. */
export const json = <Output>(schema: StandardValidator<Output>) => validated('json', asCheck(schema));

/** A query string, checked by a contract validator (each parameter a string, or a list when repeated). */
export const query = <Output>(schema: StandardValidator<Output>) => validated('query', asCheck(schema));

/**
 * A form (multipart, urlencoded or JSON) that may carry files: the text fields go through the contract
 * validator, each file field through its upload rule, and every problem of both comes back in one 422.
 * An empty file part is what a browser sends for an input left empty, so it counts as no file; text
 * sent in a file field is ignored, never taken as a URL or a path.
 */
export function form<Output, F extends string = never>(
  schema: StandardValidator<Output>,
  uploads: Record<F, UploadRule> = {} as Record<F, UploadRule>,
) {
  const takes = Object.keys(uploads).length > 0;
  return validated(
    'form',
    async (body) => {
      const checks: Promise<[F, Upload | string]>[] = [];
      for (const name of Object.keys(uploads) as F[]) {
        const value = body[name];
        delete body[name];
        if (value instanceof File && value.size > 0) {
          checks.push(checkUpload(value, uploads[name]).then((outcome) => [name, outcome]));
        }
      }
      const [result, checked] = await Promise.all([runValidator(schema, body), Promise.all(checks)]);
      const fields: FieldMessages = { ...result.fields };
      const files: Partial<Record<F, Upload>> = {};
      for (const [name, outcome] of checked) {
        if (typeof outcome === 'string') fields[name] = [outcome];
        else files[name] = outcome;
      }
      if (result.fields || Object.keys(fields).length) throw new Invalid(fields);
      return { input: result.value as Output, files };
    },
    { files: takes },
  );
}

/**
 * A form with files whose whole check is the caller's (it reads the database too, as the candidate
 * form does); it throws Invalid itself.
 */
export const checkedForm = <Output>(
  check: Check<Output>,
  { maxBytes, parts }: { maxBytes?: number; parts?: PartCaps } = {},
) => validated('form', check, { files: true, maxBytes, parts });
