import { UNAUTHENTICATED_MESSAGE } from '../../contract/envelope';
import type { AppContext } from './context';
import { jsonAnswer } from './compress';

/** The 404 of an address that serves nothing (or nothing this caller may see). */
export const NOTHING_HERE = 'There is nothing at this address.';

/**
 * The envelope's success, so handlers read like the HTTP they serve. Refusals are thrown as domain errors
 * (server/errors.ts) and answered by app.onError; `refuse` and `unauthenticated` are for the middleware
 * that runs before any route (the access matrix, the body limit).
 */
export const ok = <T>(c: AppContext, data?: T, message?: string) =>
  jsonAnswer(
    c,
    { success: true, ...(message ? { message } : {}), ...(data === undefined ? {} : { data }) },
    200,
  );

export const refuse = (c: AppContext, status: 403 | 404 | 413, message: string) =>
  jsonAnswer(c, { success: false, message }, status);

export const unauthenticated = (c: AppContext) => jsonAnswer(c, { message: UNAUTHENTICATED_MESSAGE }, 401);
