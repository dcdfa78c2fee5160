import { fromPromise } from 'xstate';
import { OFFENDER_PATHS } from '../../contract/offenders';
import { offenceValidator } from '../../contract/offenders.validators';
import type { FormValues } from '../../machines/formDialog.machine';
import type { ListAction } from '../../machines/list.machine';
import { call } from './client';
import { checkInBrowser, messageOf, toastSuccess } from './listForms';

/** The record-an-offence dialog's submit; `then` runs once the server has recorded it (the list reloads). */
export const recordOffence = (then: () => void) =>
  fromPromise<{ message?: string }, FormValues>(async ({ input }) => {
    await checkInBrowser(offenceValidator, input);
    const response = await call(OFFENDER_PATHS.list, { method: 'POST', body: input });
    then();
    return { message: messageOf(response) };
  });

/** The offenders list's row action: `remove` the row `{ id }` from the list. */
export const offenderRowAction = fromPromise<{ message?: string }, ListAction>(async ({ input }) => {
  const { id } = input.payload as { id: number };
  const response = await call(OFFENDER_PATHS.remove(id), { method: 'POST' });
  return toastSuccess(messageOf(response));
});
