import { fromPromise } from 'xstate';
import { SCHOOL_ENDPOINTS as E } from '../../contract/schools.endpoints';
import type { FormValues } from '../../machines/formDialog.machine';
import { send } from './send';

/** The training-school page's I/O: the row toggles' saves and the dialogs' submits. */

type ToggleInput = { id: number | string; field: string; value: string };

/** The status toggle's save for a school's status. */
export const updateSchoolStatus = fromPromise<{ value: string; message?: string }, ToggleInput>(
  async ({ input }) => {
    const { data, message } = await send(E.status, {
      params: { id: input.id },
      body: { status: input.value },
    });
    return { value: data.status, message };
  },
);

/** The status toggle's save for a school admin's account: 'true' active, 'false' deactivated. */
export const updateAdminActive = fromPromise<{ value: string; message?: string }, ToggleInput>(
  async ({ input }) => {
    const { data, message } = await send(E.adminActive, {
      params: { id: input.id },
      body: { active: input.value === 'true' },
    });
    return { value: String(data.active), message };
  },
);

const text = (values: FormValues, name: string) => {
  const value = values[name];
  return typeof value === 'string' ? value : '';
};

const SCHOOL_FIELDS = ['code', 'name', 'state', 'country', 'address', 'contact_email', 'contact_phone'];

/**
 * The school dialog's save: a new school, or the school named by the form's hidden `id`. The contract's
 * validator runs first (in `send`), so a mistake is shown without a round trip.
 */
export async function saveSchool(input: FormValues): Promise<{ message?: string }> {
  const body = Object.fromEntries(SCHOOL_FIELDS.map((name) => [name, text(input, name)]));
  const id = Number(text(input, 'id'));
  const { message } = id ? await send(E.update, { params: { id }, body }) : await send(E.create, { body });
  return { message };
}

/** The new-admin dialog's save, for the school in the form's hidden `school_id`. */
export async function saveSchoolAdmin(input: FormValues): Promise<{ message?: string }> {
  const body = {
    name: text(input, 'name'),
    email: text(input, 'email'),
    phone_number: text(input, 'phone_number'),
  };
  const { message } = await send(E.addAdmin, { params: { id: text(input, 'school_id') }, body });
  return { message };
}

/** The reset dialog's submit: mails the admin in the form's hidden `user_id` a new code. */
export const sendResetCode = fromPromise<{ message?: string }, FormValues>(async ({ input }) => {
  const { message } = await send(E.adminPasswordReset, { params: { id: text(input, 'user_id') } });
  return { message };
});
