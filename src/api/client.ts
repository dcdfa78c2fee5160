import { FetchError, ofetch } from 'ofetch';
import { UNAUTHENTICATED_MESSAGE, type ApiFailure, type Envelope } from '../../contract/envelope';
import { firstMessage } from '../../contract/envelope';
import { apiUrl } from './apiUrl';
import { forgetCold, takeCold } from './coldAnswers';
import { clearSession, readToken } from './cookies';

/**
 * The one way the SPA calls the API: same origin unless VITE_API_URL says otherwise, JSON, and the
 * bearer token from the token cookie on every request. Failures arrive as ApiFailure; a 401
 * 'Unauthenticated.' also removes the token and tells whoever listens (the session).
 */

const unauthenticatedListeners = new Set<() => void>();

export function onUnauthenticated(listener: () => void): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

const writeListeners = new Set<() => void>();

/** Told after every change the portal accepted (any call but a GET that succeeded). */
export function onWrite(listener: () => void): () => void {
  writeListeners.add(listener);
  return () => writeListeners.delete(listener);
}

/** For the calls made without `call` (the candidate upload, for its progress). */
export const noticeWrite = () => {
  forgetCold();
  writeListeners.forEach((listener) => listener());
};

const http = ofetch.create({
  baseURL: apiUrl(''),
  retry: 0,
  onRequest({ options }) {
    const token = readToken();
    if (token) options.headers.set('Authorization', `Bearer ${token}`);
    options.headers.set('Accept', 'application/json');
  },
});

/** The envelope of a failed answer as an ApiFailure (also for calls made without ofetch). */
export function failureFromBody(status: number, body: unknown): ApiFailure {
  const envelope = (body ?? {}) as Envelope;
  const fields = envelope.message && typeof envelope.message === 'object' ? envelope.message : {};
  return {
    status,
    message: firstMessage(envelope.message, `The portal answered ${status}. Please try again.`),
    fields,
    ...(envelope.data !== undefined && envelope.data !== null && { data: envelope.data }),
  };
}

export const NETWORK_FAILURE: ApiFailure = {
  status: 0,
  message: 'The portal could not be reached. Check your connection and try again.',
  fields: {},
};

/** A 401 'Unauthenticated.' ends the session wherever it comes from (spec section 8). */
export function noticeUnauthenticated(failure: ApiFailure) {
  if (failure.status === 401 && failure.message === UNAUTHENTICATED_MESSAGE) {
    clearSession();
    unauthenticatedListeners.forEach((listener) => listener());
  }
}

/** The sentence a successful answer says, if it says one. */
export const messageOf = (response: Envelope) =>
  typeof response.message === 'string' ? response.message : undefined;

/** A refusal in an answer the page's first script asked for (src/api/coldAnswers.ts). */
class ColdRefusal extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message);
  }
}

function toFailure(error: unknown): ApiFailure {
  if (error instanceof FetchError && error.response)
    return failureFromBody(error.response.status, error.data);
  if (error instanceof ColdRefusal) return error.failure;
  return NETWORK_FAILURE;
}

/** An answer asked for before this client had loaded, read as ofetch reads its own. */
async function readCold<T>(answer: Promise<Response>): Promise<Envelope<T>> {
  const response = await answer;
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new ColdRefusal(failureFromBody(response.status, body));
  return body as Envelope<T>;
}

export async function call<T>(
  path: string,
  options: {
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
    body?: Record<string, unknown> | FormData;
    /** Logging out with a token the server already forgot is still a logout, not an expiry. */
    expectUnauthenticated?: boolean;
  } = {},
): Promise<Envelope<T>> {
  try {
    const method = options.method ?? 'GET';
    const cold = method === 'GET' ? takeCold(apiUrl(path)) : null;
    const envelope = cold
      ? await readCold<T>(cold)
      : await http<Envelope<T>>(path, { method, body: options.body });
    if (method !== 'GET') noticeWrite();
    return envelope;
  } catch (error) {
    const failure = toFailure(error);
    if (!options.expectUnauthenticated) noticeUnauthenticated(failure);
    throw failure;
  }
}
