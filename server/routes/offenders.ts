import { OFFENDER_MESSAGES as M } from '../../contract/offenders';
import { OFFENDER_ENDPOINTS as E } from '../../contract/offenders.endpoints';
import { transact } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';
import { recordOffence, removeOffence } from '../offenders/service';

/** Exam offenders: board admins only (server/offenders/service.ts). */
export const offenderRoutes: Route[] = [
  serve(E.record, async (c) => {
    const recorded = await transact(c, (tx, actor) => recordOffence(tx, actor, c.req.valid('json')));
    return ok(c, recorded, M.recorded);
  }),

  serve(E.remove, async (c) => {
    const id = idOf(c, M.notFound);
    await transact(c, (tx, actor) => removeOffence(tx, actor, id));
    return ok(c, undefined, M.removed);
  }),
];
