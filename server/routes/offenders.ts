import { OFFENDER_MESSAGES as M } from '../../contract/offenders';
import { offenceValidator } from '../../contract/offenders.validators';
import { transact } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { ADMIN, post, type Route } from '../http/route';
import { json } from '../http/validate';
import { recordOffence, removeOffence } from '../offenders/service';

/** Exam offenders: board admins only (server/offenders/service.ts). */
export const offenderRoutes: Route[] = [
  post('/api/admin/exam-offenders', ADMIN, json(offenceValidator), async (c) => {
    const recorded = await transact(c, (tx, actor) => recordOffence(tx, actor, c.req.valid('json')));
    return ok(c, recorded, M.recorded);
  }),

  post('/api/admin/exam-offenders/:id/remove', ADMIN, async (c) => {
    const id = idOf(c, M.notFound);
    await transact(c, (tx, actor) => removeOffence(tx, actor, id));
    return ok(c, undefined, M.removed);
  }),
];
