import { isApiFailure, type ApiFailure } from '../contract/envelope';

/** Any error an actor rejects with, as the failure the views show: an ApiFailure, or a plain sentence. */
export function asFailure(error: unknown): ApiFailure {
  if (isApiFailure(error)) return error;
  return { status: 0, message: 'Something went wrong. Please try again.', fields: {} };
}
