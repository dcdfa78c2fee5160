import vine, { SimpleMessagesProvider } from '@vinejs/vine';
import {
  CANDIDATE_OUTCOME_MESSAGES as O,
  CANDIDATE_RULE_MESSAGES as R,
  REG_STATUSES,
} from '../../contract/candidates';
import { rolePrefix, type Role } from '../../contract/roles';
import { loadRow } from '../candidates/records';
import { setRegStatus } from '../candidates/service';
import { NotFound } from '../errors';
import { dbOf, nowOf, scopeOf, transact } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { post, type Route } from '../http/route';
import { json } from '../http/validate';

const regStatusValidator = vine.create(vine.object({ reg_status: vine.enum(REG_STATUSES) }));
regStatusValidator.messagesProvider = new SimpleMessagesProvider({
  'reg_status.required': R.choose,
  'reg_status.enum': R.choose,
});

/**
 * The registered-candidates row toggle (the list: server/lists/), for each role under its own prefix,
 * for the diet current for registration: the board changes any candidate, a school admin their own
 * school's while their window is open (server/candidates/service.ts setRegStatus).
 */
const registrationRoutes = (role: Role): Route[] => [
  post(`${rolePrefix(role)}/candidates/:id/reg-status`, [role], json(regStatusValidator), async (c) => {
    const { reg_status } = c.req.valid('json');
    const id = idOf(c, O.notFound);
    await transact(c, (tx, actor) => setRegStatus(tx, actor, scopeOf(c), id, reg_status, nowOf(c)));
    const row = await loadRow(dbOf(c), id);
    if (!row) throw new NotFound(O.notFound);
    return ok(c, row, reg_status === 'registered' ? O.registered : O.unregistered);
  }),
];

export const boardRegistrationRoutes = registrationRoutes('admin');
export const schoolRegistrationRoutes = registrationRoutes('school_admin');
