/** The response envelope every API call answers with (architecture brief section 4). */
export type FieldMessages = Record<string, string[]>;

export interface Envelope<T = unknown> {
  success: boolean;
  /** A sentence for the user, or field messages on a 422. */
  message?: string | FieldMessages;
  data?: T;
}

/** The body of every 401, word for word from the spec. */
export const UNAUTHENTICATED_MESSAGE = 'Unauthenticated.';

/** The first message of an envelope: the string, or the first field's first message (spec section 8). */
export function firstMessage(message: Envelope['message'], fallback: string): string {
  if (typeof message === 'string' && message) return message;
  if (message && typeof message === 'object') {
    const first = Object.values(message)[0];
    if (Array.isArray(first) && first.length) return String(first[0]);
    if (typeof first === 'string') return first;
  }
  return fallback;
}

/** A failed call as the SPA's machines see it: the HTTP status (0 when the network failed) and the messages. */
export interface ApiFailure {
  status: number;
  message: string;
  fields: FieldMessages;
  /** What a refusal carries beside its sentence (a 409's row as the server holds it now). */
  data?: unknown;
}

export function isApiFailure(value: unknown): value is ApiFailure {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiFailure).status === 'number' &&
    typeof (value as ApiFailure).message === 'string'
  );
}
