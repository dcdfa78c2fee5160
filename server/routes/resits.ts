import { rolePrefix, type Role } from '../../contract/roles';
import { RESIT_MESSAGES as M } from '../../contract/resits';
import { resitValidator } from '../../contract/resits.validators';
import type { ListScope } from '../candidates/list';
import { resits } from '../db/schema';
import { callerOf, scopeOf, transact, type AppContext } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { get, post, type Route } from '../http/route';
import { json } from '../http/validate';
import { listPage } from '../listed';
import { addResit, removeResit, selectResits, toResitRow } from '../resits/service';

/** GET ?search=&page=&per_page=: listed entries, newest first; a school admin's, their school's only. */
function listResits(c: AppContext, role: Role) {
  const scope: ListScope =
    role === 'admin' ? { kind: 'board' } : { kind: 'school', schoolId: callerOf(c).trainingSchoolId };
  return listPage(c, scope, resits, selectResits(c.get('deps').database.db), toResitRow);
}

/** Resit candidates, for each role under its own prefix (server/resits/service.ts). */
const resitRoutes = (role: Role): Route[] => [
  get(`${rolePrefix(role)}/resit-candidates`, [role], (c) => listResits(c, role)),

  post(`${rolePrefix(role)}/resit-candidates`, [role], json(resitValidator), async (c) => {
    const added = await transact(c, (tx, actor) => addResit(tx, actor, scopeOf(c), c.req.valid('json')));
    return ok(c, added, M.added);
  }),

  post(`${rolePrefix(role)}/resit-candidates/:id/remove`, [role], async (c) => {
    const id = idOf(c, M.notFound);
    await transact(c, (tx, actor) => removeResit(tx, actor, scopeOf(c), id));
    return ok(c, undefined, M.removed);
  }),
];

export const boardResitRoutes = resitRoutes('admin');
export const schoolResitRoutes = resitRoutes('school_admin');
