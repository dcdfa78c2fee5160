import { fillPath, runValidator, type AnswerOf, type Endpoint, type ParamsOf } from '../../contract/endpoint';
import type { ApiFailure } from '../../contract/envelope';
import type { ListDefinition } from '../../contract/lists';
import { call, messageOf } from './client';

/** The summary of a form the browser's own check refused; the fields say the rest. */
export const FIELDS_NEED_ATTENTION = 'Some fields need your attention.';

/** A successful answer: its data, typed by the endpoint, and the sentence it says, if it says one. */
export interface Answered<A> {
  data: A;
  message?: string;
}

type QueryValue = string | number | boolean | null | undefined;

// A list's row type is both read and written (its CSV cells), so only `any` takes every list.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Sendable = Endpoint | ListDefinition<any>;

type ParamsFor<E> = E extends { path: infer P extends string }
  ? [ParamsOf<P>] extends [never]
    ? { params?: undefined }
    : { params: Record<ParamsOf<P>, string | number> }
  : object;

type SendOptions<E> = ParamsFor<E> & {
  /** A POST's JSON body, or a form with files. */
  body?: Record<string, unknown> | FormData;
  /** A GET's query; empty values are left out. */
  query?: Record<string, QueryValue> | URLSearchParams;
  /** Logging out with a token the server already forgot is still a logout, not an expiry. */
  expectUnauthenticated?: boolean;
};

type Args<E> = object extends SendOptions<E> ? [options?: SendOptions<E>] : [options: SendOptions<E>];

function queryString(query: SendOptions<Sendable>['query']): string {
  if (!query) return '';
  const params =
    query instanceof URLSearchParams
      ? query
      : new URLSearchParams(
          Object.entries(query)
            .filter(([, value]) => value !== undefined && value !== null && value !== '')
            .map(([name, value]) => [name, String(value)]),
        );
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The contract's validator, in the browser, before the call: the same messages the server would send,
 * without the round trip, as the 422 the server would answer. What only the server can check (an index
 * number, a duplicate) it checks after. A form with files is checked by its page before it is built.
 */
async function checkFirst(endpoint: Sendable, options: SendOptions<Sendable>) {
  const input = 'method' in endpoint ? endpoint.input : undefined;
  if (!input || input.in === 'upload') return;
  const values = input.in === 'query' ? options.query : options.body;
  if (values instanceof FormData || values instanceof URLSearchParams) return;
  const result = await runValidator(input.validator, values ?? {});
  if (result.fields) {
    const failure: ApiFailure = { status: 422, message: FIELDS_NEED_ATTENTION, fields: result.fields };
    throw failure;
  }
}

/**
 * The one way the SPA calls the API: `send(ENDPOINT, { params, body | query })` runs the endpoint's
 * validator here first, fills its path, and answers its data typed as the contract says, with the
 * sentence the portal said. Failures are thrown as ApiFailure (src/api/client.ts).
 */
export async function send<E extends Sendable>(
  endpoint: E,
  ...[options]: Args<E>
): Promise<Answered<AnswerOf<E>>> {
  const given = (options ?? {}) as SendOptions<Sendable> & { params?: Record<string, string | number> };
  await checkFirst(endpoint, given);
  const method = 'method' in endpoint ? endpoint.method : 'GET';
  const path = fillPath(endpoint.path, given.params) + queryString(given.query);
  const envelope = await call<AnswerOf<E>>(path, {
    method,
    body: given.body,
    expectUnauthenticated: given.expectUnauthenticated,
  });
  return { data: envelope.data as AnswerOf<E>, message: messageOf(envelope) };
}
