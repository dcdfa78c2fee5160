import {
  DIET_PATHS,
  type DietChoice,
  type DietExtension,
  type DietRow,
  type RegistrationWindow,
} from '../../contract/diets';
import { dietValidator, extensionValidator } from '../../contract/diets.validators';
import type { Role } from '../../contract/roles';
import type { FormValues } from '../../machines/formDialog.machine';
import { call } from './client';
import { checkInBrowser, messageOf } from './listForms';

/** The diets' I/O: the choices and the window for both roles; the board's diet and extension changes. */

export const loadDietChoices = (role: Role) =>
  call<DietChoice[]>(DIET_PATHS.choices(role)).then((r) => r.data!);

export const loadRegistrationWindow = (role: Role) =>
  call<RegistrationWindow>(DIET_PATHS.window(role)).then((r) => r.data!);

/** Creates (no `id` in the values) or edits a diet; the contract's validator runs first, as on the server. */
export async function saveDiet(values: FormValues): Promise<{ message?: string }> {
  const body = {
    code: values.code,
    name: values.name,
    first_paper_on: values.first_paper_on,
    last_paper_on: values.last_paper_on,
    registration_opens_at: values.registration_opens_at,
    registration_closes_at: values.registration_closes_at,
  };
  await checkInBrowser(dietValidator, body);
  const id = Number(values.id);
  const response = await call<DietRow>(id ? DIET_PATHS.one(id) : DIET_PATHS.list, { method: 'POST', body });
  return { message: messageOf(response) };
}

/** Make current, or close: a step on one diet, answered with the server's sentence. */
export async function dietStep(id: number, step: 'current' | 'close'): Promise<{ message?: string }> {
  const response = await call<DietRow>(DIET_PATHS[step](id), { method: 'POST' });
  return { message: messageOf(response) };
}

export const loadExtensions = (id: number) =>
  call<DietExtension[]>(DIET_PATHS.extensions(id)).then((r) => r.data!);

export async function grantExtension(values: FormValues): Promise<{ message?: string }> {
  const body = { training_school: values.training_school, until: values.until, reason: values.reason };
  await checkInBrowser(extensionValidator, body);
  const response = await call<DietExtension[]>(DIET_PATHS.extensions(Number(values.diet_id)), {
    method: 'POST',
    body,
  });
  return { message: messageOf(response) };
}

export async function withdrawExtension(id: number, school: string): Promise<{ message?: string }> {
  const response = await call<DietExtension[]>(DIET_PATHS.withdrawExtension(id, school), { method: 'POST' });
  return { message: messageOf(response) };
}
