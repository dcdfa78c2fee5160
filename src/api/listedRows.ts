import { fromPromise } from 'xstate';
import type { ListedPaths } from '../../contract/listed';
import type { FormValues } from '../../machines/formDialog.machine';
import type { ListAction } from '../../machines/list.machine';
import { call } from './client';
import { checkInBrowser, messageOf } from './listForms';

/**
 * An add dialog's submit: the list's validator in the browser, then the POST; `then` runs once the
 * server has added the row (the list reloads). `toBody` turns the form's values into the list's body.
 */
export const addToList = (
  paths: ListedPaths,
  validator: { validate(data: unknown): Promise<unknown> },
  then: () => void,
  toBody: (values: FormValues) => Record<string, unknown> = (values) => values,
) =>
  fromPromise<{ message?: string }, FormValues>(async ({ input }) => {
    const body = toBody(input);
    await checkInBrowser(validator, body);
    const response = await call(paths.list, { method: 'POST', body });
    then();
    return { message: messageOf(response) };
  });

/** A list's row action: `remove` the row `{ id }` from the list; the list tells the server's sentence. */
export const removeFromList = (paths: ListedPaths) =>
  fromPromise<{ message?: string }, ListAction>(async ({ input }) => {
    const { id } = input.payload as { id: number };
    const response = await call(paths.remove(id), { method: 'POST' });
    return { message: messageOf(response) };
  });
