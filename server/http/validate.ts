import type { FieldMessages } from '../../contract/envelope';
import { checkUpload, type Upload, type UploadRule } from '../storage/uploads';
import type { AppContext } from './context';
import { fieldMessages, invalid } from './respond';

interface Validator<T> {
  validate(data: unknown): Promise<T>;
}

/** The JSON or form body as an object; anything unreadable is an empty one (the validators then say what is missing). */
export async function parseBody(c: AppContext): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  try {
    const body: unknown = type.includes('application/json') ? await c.req.json() : await c.req.parseBody();
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The validated value, or the field messages of what is wrong. */
async function run<T>(
  validator: Validator<T>,
  body: unknown,
): Promise<{ value: T } | { fields: FieldMessages }> {
  try {
    return { value: await validator.validate(body) };
  } catch (error) {
    const fields = fieldMessages(error);
    if (fields) return { fields };
    throw error;
  }
}

/** Reads the JSON (or form) body and runs a contract validator on it: the value, or the 422 to send. */
export async function readBody<T>(c: AppContext, validator: Validator<T>): Promise<T | Response> {
  const result = await run(validator, await parseBody(c));
  return 'fields' in result ? invalid(c, result.fields) : result.value;
}

/**
 * Reads a form that may carry files (multipart; JSON works too, without files): the text fields go
 * through the contract validator, each file field through its upload rule, and every problem of both
 * comes back in one 422. An empty file part is what a browser sends for an input left empty, so it
 * counts as no file; text sent in a file field is ignored, never taken as a URL or a path.
 */
export async function readForm<T, F extends string>(
  c: AppContext,
  validator: Validator<T>,
  uploads: Record<F, UploadRule>,
): Promise<{ input: T; files: Partial<Record<F, Upload>> } | Response> {
  const body = await parseBody(c);
  const checks: Promise<[F, Upload | string]>[] = [];
  for (const name of Object.keys(uploads) as F[]) {
    const value = body[name];
    delete body[name];
    if (value instanceof File && value.size > 0) {
      checks.push(checkUpload(value, uploads[name]).then((outcome) => [name, outcome]));
    }
  }
  const [result, checked] = await Promise.all([run(validator, body), Promise.all(checks)]);
  const fields: FieldMessages = 'fields' in result ? { ...result.fields } : {};
  const files: Partial<Record<F, Upload>> = {};
  for (const [name, outcome] of checked) {
    if (typeof outcome === 'string') fields[name] = [outcome];
    else files[name] = outcome;
  }
  if (Object.keys(fields).length || 'fields' in result) return invalid(c, fields);
  return { input: result.value, files };
}
