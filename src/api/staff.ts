import { STAFF_ENDPOINTS as E } from '../../contract/staff.endpoints';
import type { StaffMember } from '../../contract/staff';
import type { FormValues } from '../../machines/formDialog.machine';
import { send } from './send';

/** The Board staff page's I/O: the list, and its dialogs' submits. */

const text = (values: FormValues, name: string) => {
  const value = values[name];
  return typeof value === 'string' ? value : '';
};

export const loadStaff = async (): Promise<StaffMember[]> => (await send(E.list)).data;

/** 'Add a board admin': the contract's validator runs first (in `send`), so a mistake shows at once. */
export async function inviteStaff(values: FormValues): Promise<{ message?: string }> {
  const { message } = await send(E.invite, {
    body: { name: text(values, 'name'), email: text(values, 'email') },
  });
  return { message };
}

/** The invitation mailed again, to the admin in the form's hidden `id`. */
export async function resendInvitation(values: FormValues): Promise<{ message?: string }> {
  const { message } = await send(E.resendInvitation, { params: { id: text(values, 'id') } });
  return { message };
}

/** Suspends or reinstates the admin in the form's hidden `id` (hidden `suspended`: 'true' or 'false'). */
export async function setSuspended(values: FormValues): Promise<{ message?: string }> {
  const { message } = await send(E.suspension, {
    params: { id: text(values, 'id') },
    body: { suspended: text(values, 'suspended') === 'true' },
  });
  return { message };
}
