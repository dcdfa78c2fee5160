import { DIET_CHOICES } from '../../contract/diets.choices';
import { REGISTRATION_WINDOW } from '../../contract/registration.window';
import type { Role } from '../../contract/roles';
import { askEarly, takeEarly } from './early';
import { send } from './send';

/**
 * The diets as choices and the registration window for the caller's role: a module of its own, without
 * the diets' forms and their VineJS checks, as the Dashboard, the lists' diet filters and Score Entry
 * show them at first paint.
 */
export const loadDietChoices = async (role: Role) => (await send(DIET_CHOICES[role])).data;

const fetchRegistrationWindow = async (role: Role) => (await send(REGISTRATION_WINDOW[role])).data;

/** The registration window machine's load: the answer asked for with the page's chunk, the first time. */
export const loadRegistrationWindow = (role: Role) =>
  takeEarly(`registration-window-${role}`, () => fetchRegistrationWindow(role));

/**
 * Asked for with the page's chunk on the pages that show the window (the Dashboards, Registered
 * Candidates): its notice is their largest paint, which otherwise waited for the page's code to run.
 */
export const askRegistrationWindowEarly = (role: Role) =>
  askEarly(`registration-window-${role}`, () => fetchRegistrationWindow(role));
