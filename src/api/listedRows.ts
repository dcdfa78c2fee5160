import { fromPromise } from 'xstate';
import type { Endpoint } from '../../contract/endpoint';
import type { FormValues } from '../../machines/formDialog.machine';
import type { ListAction } from '../../machines/list.machine';
import { send } from './send';

/** A list's add: a POST of the list's own body, checked by its validator. */
type AddEndpoint = Endpoint & { method: 'POST'; input: { in: 'json' } };
/** A list's remove: a POST on the row's own path, without a body. */
export type RemoveEndpoint = Endpoint<void, unknown, `${string}/:id/remove`> & { method: 'POST' };

/**
 * An add dialog's save: the list's validator in the browser (in `send`), then the POST. `toBody`
 * turns the form's values into the list's body.
 */
export const addToList =
  (endpoint: AddEndpoint, toBody: (values: FormValues) => Record<string, unknown> = (values) => values) =>
  async (input: FormValues): Promise<{ message?: string }> => {
    const { message } = await send(endpoint, { body: toBody(input) });
    return { message };
  };

/** A list's row action: `remove` the row `{ id }` from the list; the list tells the server's sentence. */
export const removeFromList = (endpoint: RemoveEndpoint) =>
  fromPromise<{ message?: string }, ListAction>(async ({ input }) => {
    const { id } = input.payload as { id: number };
    const { message } = await send(endpoint, { params: { id } });
    return { message };
  });
