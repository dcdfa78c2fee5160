import { DIET_ENDPOINTS as E } from '../../contract/diets.endpoints';
import type { FormValues } from '../../machines/formDialog.machine';
import { send } from './send';

/** The diets' I/O: the choices and the window for both roles; the board's diet and extension changes. */

/**
 * Creates (no `id` in the values) or edits a diet; the contract's validator runs first (in `send`), as
 * on the server.
 */
export async function saveDiet(values: FormValues): Promise<{ message?: string }> {
  const body = {
    code: values.code,
    name: values.name,
    first_paper_on: values.first_paper_on,
    last_paper_on: values.last_paper_on,
    registration_opens_at: values.registration_opens_at,
    registration_closes_at: values.registration_closes_at,
  };
  const id = Number(values.id);
  const { message } = id ? await send(E.update, { params: { id }, body }) : await send(E.create, { body });
  return { message };
}

/** Make current, or close: a step on one diet, answered with the server's sentence. */
export async function dietStep(id: number, step: 'current' | 'close'): Promise<{ message?: string }> {
  const { message } = await send(E[step], { params: { id } });
  return { message };
}

export const loadExtensions = async (id: number) => (await send(E.extensions, { params: { id } })).data;

export async function grantExtension(values: FormValues): Promise<{ message?: string }> {
  const body = { training_school: values.training_school, until: values.until, reason: values.reason };
  const { message } = await send(E.grantExtension, { params: { id: Number(values.diet_id) }, body });
  return { message };
}

export async function withdrawExtension(id: number, school: string): Promise<{ message?: string }> {
  const { message } = await send(E.withdrawExtension, { params: { id, school } });
  return { message };
}
