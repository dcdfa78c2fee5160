import type { Role } from '../../contract/roles';
import { RESIT_MESSAGES as M } from '../../contract/resits';
import { RESIT_ENDPOINTS as E } from '../../contract/resits.endpoints';
import { nowOf, scopeOf, transact } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';
import { addResit, removeResit } from '../resits/service';

/** Resit candidates, for each role under its own prefix (server/resits/service.ts). */
const resitRoutes = (role: Role): Route[] => [
  serve(E.add[role], async (c) => {
    const added = await transact(c, (tx, actor) =>
      addResit(tx, actor, scopeOf(c), c.req.valid('json'), nowOf(c)),
    );
    return ok(c, added, M.added);
  }),

  serve(E.remove[role], async (c) => {
    const id = idOf(c, M.notFound);
    await transact(c, (tx, actor) => removeResit(tx, actor, scopeOf(c), id, nowOf(c)));
    return ok(c, undefined, M.removed);
  }),
];

export const boardResitRoutes = resitRoutes('admin');
export const schoolResitRoutes = resitRoutes('school_admin');
