import { SCHOOL_ADMIN_MESSAGES as A, SCHOOL_MESSAGES } from '../../contract/schools';
import { SCHOOL_ENDPOINTS as E } from '../../contract/schools.endpoints';
import { transact, type AppContext } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';
import { mailResetCode } from '../schools/accounts';
import * as schools from '../schools/service';

const schoolId = (c: AppContext) => idOf(c, SCHOOL_MESSAGES.notFound);
const adminId = (c: AppContext) => idOf(c, A.notFound);

/** The training schools and their admin accounts, for the board (server/schools/service.ts). */
export const schoolRoutes: Route[] = [
  serve(E.create, async (c) => {
    const school = await transact(c, (tx, actor) => schools.createSchool(tx, actor, c.req.valid('json')));
    return ok(c, school, SCHOOL_MESSAGES.created);
  }),

  serve(E.update, async (c) => {
    const id = schoolId(c);
    const school = await transact(c, (tx, actor) => schools.updateSchool(tx, actor, id, c.req.valid('json')));
    return ok(c, school, SCHOOL_MESSAGES.updated);
  }),

  serve(E.status, async (c) => {
    const { status } = c.req.valid('json');
    const id = schoolId(c);
    const school = await transact(c, (tx, actor) => schools.setSchoolStatus(tx, actor, id, status));
    return ok(c, school, status === 'active' ? SCHOOL_MESSAGES.activated : SCHOOL_MESSAGES.suspended);
  }),

  serve(E.addAdmin, async (c) => {
    const id = schoolId(c);
    const added = await transact(c, (tx, actor) =>
      schools.addSchoolAdmin(tx, actor, id, c.req.valid('json')),
    );
    // Mailed once the account is committed: a mail about an account that was rolled back helps nobody.
    await mailResetCode(c, added.email, added.code, true);
    return ok(c, added.admin, A.created);
  }),

  serve(E.adminActive, async (c) => {
    const input = c.req.valid('json');
    const id = adminId(c);
    const admin = await transact(c, (tx, actor) => schools.setAdminActive(tx, actor, id, input));
    return ok(c, admin, input.active ? A.reactivated : A.deactivated);
  }),

  serve(E.adminPasswordReset, async (c) => {
    const id = adminId(c);
    const sent = await transact(c, (tx, actor) => schools.sendPasswordReset(tx, actor, id));
    await mailResetCode(c, sent.email, sent.code, false);
    return ok(c, undefined, A.resetSent);
  }),
];
