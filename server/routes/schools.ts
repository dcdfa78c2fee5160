import { SCHOOL_ADMIN_MESSAGES as A, SCHOOL_MESSAGES } from '../../contract/schools';
import {
  adminActiveValidator,
  schoolAdminValidator,
  schoolStatusValidator,
  schoolValidator,
} from '../../contract/schools.validators';
import { transact, type AppContext } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { ADMIN, post, type Route } from '../http/route';
import { json } from '../http/validate';
import { mailResetCode } from '../schools/accounts';
import * as schools from '../schools/service';

const schoolId = (c: AppContext) => idOf(c, SCHOOL_MESSAGES.notFound);
const adminId = (c: AppContext) => idOf(c, A.notFound);

/** The training schools and their admin accounts, for the board (server/schools/service.ts). */
export const schoolRoutes: Route[] = [
  post('/api/admin/training-schools', ADMIN, json(schoolValidator), async (c) => {
    const school = await transact(c, (tx, actor) => schools.createSchool(tx, actor, c.req.valid('json')));
    return ok(c, school, SCHOOL_MESSAGES.created);
  }),

  post('/api/admin/training-schools/:id', ADMIN, json(schoolValidator), async (c) => {
    const id = schoolId(c);
    const school = await transact(c, (tx, actor) => schools.updateSchool(tx, actor, id, c.req.valid('json')));
    return ok(c, school, SCHOOL_MESSAGES.updated);
  }),

  post('/api/admin/training-schools/:id/status', ADMIN, json(schoolStatusValidator), async (c) => {
    const { status } = c.req.valid('json');
    const id = schoolId(c);
    const school = await transact(c, (tx, actor) => schools.setSchoolStatus(tx, actor, id, status));
    return ok(c, school, status === 'active' ? SCHOOL_MESSAGES.activated : SCHOOL_MESSAGES.suspended);
  }),

  post('/api/admin/training-schools/:id/admins', ADMIN, json(schoolAdminValidator), async (c) => {
    const id = schoolId(c);
    const added = await transact(c, (tx, actor) =>
      schools.addSchoolAdmin(tx, actor, id, c.req.valid('json')),
    );
    // Mailed once the account is committed: a mail about an account that was rolled back helps nobody.
    await mailResetCode(c, added.email, added.code, true);
    return ok(c, added.admin, A.created);
  }),

  post('/api/admin/school-admins/:id/active', ADMIN, json(adminActiveValidator), async (c) => {
    const input = c.req.valid('json');
    const id = adminId(c);
    const admin = await transact(c, (tx, actor) => schools.setAdminActive(tx, actor, id, input));
    return ok(c, admin, input.active ? A.reactivated : A.deactivated);
  }),

  post('/api/admin/school-admins/:id/password-reset', ADMIN, async (c) => {
    const id = adminId(c);
    const sent = await transact(c, (tx, actor) => schools.sendPasswordReset(tx, actor, id));
    await mailResetCode(c, sent.email, sent.code, false);
    return ok(c, undefined, A.resetSent);
  }),
];
