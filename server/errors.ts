import type { FieldMessages } from '../contract/envelope';
import { UNAUTHENTICATED_MESSAGE } from '../contract/envelope';
import type { ProviderFailureKind } from '../contract/payments';

/**
 * What a service or a handler refuses, thrown and turned into the envelope in one place (`app.onError`
 * in server/app.ts), so a service called by a webhook or a job throws the same errors a route does.
 * Anything else thrown is the portal's own failure: a 500 with a sentence that tells nothing.
 */
export abstract class DomainError extends Error {
  abstract readonly status: 401 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 502;
  /** The response body. */
  abstract body(): Record<string, unknown>;
}

/** 404: nothing there, or nothing this caller may see (which must read the same). */
export class NotFound extends DomainError {
  readonly status = 404;
  body() {
    return { success: false, message: this.message };
  }
}

/** A refusal with its sentence: 403 (not allowed now), 409 (conflicts with the state), 410, 413, 429. */
export class Refused extends DomainError {
  constructor(
    readonly status: 403 | 409 | 410 | 413 | 429,
    message: string,
  ) {
    super(message);
  }
  body() {
    return { success: false, message: this.message };
  }
}

/**
 * 422: the input cannot be taken. Field messages, as the forms show them beside their fields; a plain
 * sentence only where the spec says so (the change-password form's 'old password incorrect').
 */
export class Invalid extends DomainError {
  readonly status = 422;
  constructor(readonly fields: FieldMessages | string) {
    super(typeof fields === 'string' ? fields : 'The input is not valid.');
  }
  body() {
    return { success: false, message: this.fields };
  }
}

/** 401, word for word from the spec: the SPA signs out on it. */
export class Unauthenticated extends DomainError {
  readonly status = 401;
  constructor() {
    super(UNAUTHENTICATED_MESSAGE);
  }
  body() {
    return { message: UNAUTHENTICATED_MESSAGE };
  }
}

/** 502: the payment provider could not be reached or answered nonsense; nothing was changed. */
export class ProviderUnavailable extends DomainError {
  readonly status = 502;
  body() {
    return { success: false, message: this.message };
  }
}

/**
 * 502 with its cause: a call to the provider that failed, and why (contract/payments.ts ProviderFailureKind).
 * The message is the school's sentence for it; the rest is for the log and the retries, never a secret:
 * the path has no reference (`/transaction/verify/:reference`), and no header or body is kept.
 */
export class ProviderFailure extends ProviderUnavailable {
  constructor(
    readonly kind: ProviderFailureKind,
    message: string,
    readonly detail: {
      method: string;
      path: string;
      httpStatus: number | null;
      /** Seconds the provider asked us to wait (a 429's Retry-After), if it said. */
      retryAfterSeconds: number | null;
      ms: number;
    },
  ) {
    super(message);
  }
  /** Whether asking again later can help: everything but a refused key, which needs a person. */
  get retryable() {
    return this.kind !== 'key_refused';
  }
}

/** 409: the row changed since it was loaded; the body carries what is stored now, to show beside what was typed. */
export class Stale extends DomainError {
  readonly status = 409;
  constructor(
    message: string,
    readonly data: unknown,
  ) {
    super(message);
  }
  body() {
    return { success: false, message: this.message, data: this.data };
  }
}
