import { fromPromise } from 'xstate';
import type { ListedPaths } from '../../contract/listed';
import type { FormValues } from '../../machines/formDialog.machine';
import type { ListAction } from '../../machines/list.machine';
import { call } from './client';
import { checkInBrowser, messageOf } from './listForms';

/**
 * An add dialog's save: the list's validator in the browser, then the POST. `toBody` turns the form's
 * values into the list's body.
 */
export const addToList =
  (
    paths: ListedPaths,
    validator: { validate(data: unknown): Promise<unknown> },
    toBody: (values: FormValues) => Record<string, unknown> = (values) => values,
  ) =>
  async (input: FormValues): Promise<{ message?: string }> => {
    const body = toBody(input);
    await checkInBrowser(validator, body);
    const response = await call(paths.list, { method: 'POST', body });
    return { message: messageOf(response) };
  };

/** A list's row action: `remove` the row `{ id }` from the list; the list tells the server's sentence. */
export const removeFromList = (paths: ListedPaths) =>
  fromPromise<{ message?: string }, ListAction>(async ({ input }) => {
    const { id } = input.payload as { id: number };
    const response = await call(paths.remove(id), { method: 'POST' });
    return { message: messageOf(response) };
  });
