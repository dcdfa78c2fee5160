import { REGISTRATION_WINDOW } from '../../contract/registration.window';
import type { Role } from '../../contract/roles';
import { send } from './send';

/**
 * The registration window for the caller's role: a module of its own, without the diets' forms and their
 * VineJS checks, as the Dashboard and the Registered list show it at first paint.
 */
export const loadRegistrationWindow = async (role: Role) => (await send(REGISTRATION_WINDOW[role])).data;
