import { fromPromise } from 'xstate';
import { AUTH_ENDPOINTS as E } from '../../contract/auth.endpoints';
import type { FormValues } from '../../machines/formDialog.machine';
import { send } from './send';

/** The I/O of the two password pages outside the shell: asking for a mailed code, and using it. */

const text = (values: FormValues, name: string) => {
  const value = values[name];
  return typeof value === 'string' ? value : '';
};

/** The reset page's submit: the mailed code and the new password, checked here first, then by the server. */
export const resetPassword = fromPromise<{ message?: string }, FormValues>(async ({ input }) => {
  const body = {
    email: text(input, 'email'),
    code: text(input, 'code'),
    password: text(input, 'password'),
    password_confirmation: text(input, 'password_confirmation'),
  };
  const { message } = await send(E.resetPassword, { body });
  return { message };
});

/** 'Forgot your password?': asks for a code to be mailed to the address; one answer whatever it is. */
export const requestResetCode = fromPromise<{ message?: string }, FormValues>(async ({ input }) => {
  const { message } = await send(E.forgotPassword, { body: { email: text(input, 'email') } });
  return { message };
});
