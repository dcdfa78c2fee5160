import { DIET_CHOICES } from '../../contract/diets.choices';
import { REGISTRATION_WINDOW } from '../../contract/registration.window';
import type { Role } from '../../contract/roles';
import { send } from './send';

/**
 * The diets as choices and the registration window for the caller's role: a module of its own, without
 * the diets' forms and their VineJS checks, as the Dashboard, the lists' diet filters and Score Entry
 * show them at first paint.
 */
export const loadDietChoices = async (role: Role) => (await send(DIET_CHOICES[role])).data;

export const loadRegistrationWindow = async (role: Role) => (await send(REGISTRATION_WINDOW[role])).data;
