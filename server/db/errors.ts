import type { FieldMessages } from '../../contract/envelope';
import { Invalid } from '../errors';

/** PostgreSQL's unique_violation, from either driver, whether or not Drizzle wrapped it (`cause`). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (candidate.code === '23505') return constraint === undefined || candidate.constraint === constraint;
    current = candidate.cause;
  }
  return false;
}

/**
 * A catch for a write the unique index may refuse when two requests race: the refusal becomes the form's
 * message (a 422), anything else goes on. `.catch(duplicateAs('users_email_key', { email: [...] }))`.
 */
export const duplicateAs =
  (constraint: string, fields: FieldMessages) =>
  (error: unknown): never => {
    if (isUniqueViolation(error, constraint)) throw new Invalid(fields);
    throw error;
  };
