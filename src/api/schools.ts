import { fromPromise } from 'xstate';
import {
  FORGOT_PASSWORD_PATH,
  RESET_PASSWORD_PATH,
  SCHOOL_PATHS,
  type SchoolAdminSummary,
  type SchoolRow,
} from '../../contract/schools';
import {
  forgotPasswordValidator,
  resetPasswordValidator,
  schoolAdminValidator,
  schoolValidator,
} from '../../contract/schools.validators';
import type { FormValues } from '../../machines/formDialog.machine';
import { call } from './client';
import { checkInBrowser, messageOf } from './listForms';

/** The training-school page's I/O: the row toggles' saves and the dialogs' submits. */

type ToggleInput = { id: number | string; field: string; value: string };

/** The status toggle's save for a school's status. */
export const updateSchoolStatus = fromPromise<{ value: string; message?: string }, ToggleInput>(
  async ({ input }) => {
    const response = await call<SchoolRow>(SCHOOL_PATHS.status(Number(input.id)), {
      method: 'POST',
      body: { status: input.value },
    });
    return { value: response.data!.status, message: messageOf(response) };
  },
);

/** The status toggle's save for a school admin's account: 'true' active, 'false' deactivated. */
export const updateAdminActive = fromPromise<{ value: string; message?: string }, ToggleInput>(
  async ({ input }) => {
    const response = await call<SchoolAdminSummary>(SCHOOL_PATHS.adminActive(Number(input.id)), {
      method: 'POST',
      body: { active: input.value === 'true' },
    });
    return { value: String(response.data!.active), message: messageOf(response) };
  },
);

const text = (values: FormValues, name: string) => {
  const value = values[name];
  return typeof value === 'string' ? value : '';
};

const SCHOOL_FIELDS = ['code', 'name', 'state', 'country', 'address', 'contact_email', 'contact_phone'];

/** The school dialog's save: a new school, or the school named by the form's hidden `id`. */
export async function saveSchool(input: FormValues): Promise<{ message?: string }> {
  const body = Object.fromEntries(SCHOOL_FIELDS.map((name) => [name, text(input, name)]));
  await checkInBrowser(schoolValidator, body);
  const id = Number(text(input, 'id'));
  const response = await call(id ? SCHOOL_PATHS.one(id) : SCHOOL_PATHS.list, { method: 'POST', body });
  return { message: messageOf(response) };
}

/** The new-admin dialog's save, for the school in the form's hidden `school_id`. */
export async function saveSchoolAdmin(input: FormValues): Promise<{ message?: string }> {
  const body = {
    name: text(input, 'name'),
    email: text(input, 'email'),
    phone_number: text(input, 'phone_number'),
  };
  await checkInBrowser(schoolAdminValidator, body);
  const response = await call(SCHOOL_PATHS.admins(Number(text(input, 'school_id'))), {
    method: 'POST',
    body,
  });
  return { message: messageOf(response) };
}

/** The reset dialog's submit: mails the admin in the form's hidden `user_id` a new code. */
export const sendResetCode = fromPromise<{ message?: string }, FormValues>(async ({ input }) => {
  const response = await call(SCHOOL_PATHS.adminReset(Number(text(input, 'user_id'))), {
    method: 'POST',
    body: {},
  });
  return { message: messageOf(response) };
});

/** The reset page's submit: the mailed code and the new password, checked here first, then by the server. */
export const resetPassword = fromPromise<{ message?: string }, FormValues>(async ({ input }) => {
  const body = {
    email: text(input, 'email'),
    code: text(input, 'code'),
    password: text(input, 'password'),
    password_confirmation: text(input, 'password_confirmation'),
  };
  await checkInBrowser(resetPasswordValidator, body);
  const response = await call(RESET_PASSWORD_PATH, { method: 'POST', body });
  return { message: messageOf(response) };
});

/** 'Forgot your password?': asks for a code to be mailed to the address; one answer whatever it is. */
export const requestResetCode = fromPromise<{ message?: string }, FormValues>(async ({ input }) => {
  const body = { email: text(input, 'email') };
  await checkInBrowser(forgotPasswordValidator, body);
  const response = await call(FORGOT_PASSWORD_PATH, { method: 'POST', body });
  return { message: messageOf(response) };
});
