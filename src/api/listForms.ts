import { errors } from '@vinejs/vine';
import type { ApiFailure, FieldMessages } from '../../contract/envelope';

export { messageOf } from './client';

/** The summary of a form the browser's own check refused; the fields say the rest. */
export const FIELDS_NEED_ATTENTION = 'Some fields need your attention.';

/**
 * The contract's validator, in the browser, before the call: the same messages the server would send,
 * without the round trip, as the 422 the server would answer. What only the server can check (an index
 * number, a duplicate) it checks after.
 */
export async function checkInBrowser<T>(
  validator: { validate(data: unknown): Promise<T> },
  values: unknown,
): Promise<void> {
  try {
    await validator.validate(values);
  } catch (error) {
    if (!(error instanceof errors.E_VALIDATION_ERROR)) throw error;
    const fields: FieldMessages = {};
    for (const item of error.messages as { field: string; message: string }[]) {
      (fields[item.field] ??= []).push(item.message);
    }
    const failure: ApiFailure = { status: 422, message: FIELDS_NEED_ATTENTION, fields };
    throw failure;
  }
}
