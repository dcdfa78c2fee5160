import { fromPromise } from 'xstate';
import { RESIT_PATHS } from '../../contract/resits';
import { resitValidator } from '../../contract/resits.validators';
import type { Role } from '../../contract/roles';
import type { FormValues } from '../../machines/formDialog.machine';
import type { ListAction } from '../../machines/list.machine';
import { REPEATED_VALUE_SEPARATOR } from '../ui/PageFormDialog';
import { call } from './client';
import { checkInBrowser, messageOf, toastSuccess } from './listForms';

/** The add-a-resit dialog's submit: the ticked papers arrive one a line. `then` reloads the list. */
export const addResit = (role: Role, then: () => void) =>
  fromPromise<{ message?: string }, FormValues>(async ({ input }) => {
    const papers = typeof input.papers === 'string' ? input.papers.split(REPEATED_VALUE_SEPARATOR) : [];
    const body = { ...input, papers: papers.filter(Boolean) };
    await checkInBrowser(resitValidator, body);
    const response = await call(RESIT_PATHS.list[role], { method: 'POST', body });
    then();
    return { message: messageOf(response) };
  });

/** The resit list's row action: `remove` the row `{ id }` from the list. */
export const resitRowAction = (role: Role) =>
  fromPromise<{ message?: string }, ListAction>(async ({ input }) => {
    const { id } = input.payload as { id: number };
    const response = await call(RESIT_PATHS.remove[role](id), { method: 'POST' });
    return toastSuccess(messageOf(response));
  });
