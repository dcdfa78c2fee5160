import { errors } from '@vinejs/vine';
import type { FieldMessages } from '../../contract/envelope';
import { UNAUTHENTICATED_MESSAGE } from '../../contract/envelope';
import type { AppContext } from './context';

/** The 404 of an address that serves nothing (or nothing this caller may see). */
export const NOTHING_HERE = 'There is nothing at this address.';

/** The envelope's answers, one helper each, so handlers read like the HTTP they serve. */
export const ok = <T>(c: AppContext, data?: T, message?: string) =>
  c.json({ success: true, ...(message ? { message } : {}), ...(data === undefined ? {} : { data }) }, 200);

export const invalid = (c: AppContext, fields: FieldMessages) =>
  c.json({ success: false, message: fields }, 422);

export const refuse = (c: AppContext, status: 403 | 404 | 409 | 410 | 413 | 429, message: string) =>
  c.json({ success: false, message }, status);

export const unauthenticated = (c: AppContext) => c.json({ message: UNAUTHENTICATED_MESSAGE }, 401);

/** VineJS's errors as the envelope's field messages. */
export function fieldMessages(error: unknown): FieldMessages | null {
  if (!(error instanceof errors.E_VALIDATION_ERROR)) return null;
  const fields: FieldMessages = {};
  for (const item of error.messages as { field: string; message: string }[]) {
    (fields[item.field] ??= []).push(item.message);
  }
  return fields;
}
