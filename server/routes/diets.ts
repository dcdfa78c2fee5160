import { DIET_MESSAGES as M, DIET_PATHS } from '../../contract/diets';
import { dietValidator, extensionValidator } from '../../contract/diets.validators';
import { rolePrefix, type Role } from '../../contract/roles';
import * as diets from '../diets/service';
import { windowFor } from '../diets/window';
import { callerOf, dbOf, nowOf, transact, type AppContext } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { ADMIN, get, post, type Route } from '../http/route';
import { json } from '../http/validate';

const dietId = (c: AppContext) => idOf(c, M.notFound);

/**
 * Exam diets (server/diets/): the board's create, edit, make current, close and extensions; and for
 * both roles the diets as choices and the registration window as it applies to the caller. The list is
 * one of the lists (contract/lists.ts DIETS_LIST).
 */
export const dietRoutes: Route[] = [
  post(DIET_PATHS.list, ADMIN, json(dietValidator), async (c) => {
    const row = await transact(c, (tx, actor) => diets.createDiet(tx, actor, c.req.valid('json')));
    return ok(c, row, M.created);
  }),

  post('/api/admin/diets/:id', ADMIN, json(dietValidator), async (c) => {
    const id = dietId(c);
    const row = await transact(c, (tx, actor) => diets.updateDiet(tx, actor, id, c.req.valid('json')));
    return ok(c, row, M.updated);
  }),

  post('/api/admin/diets/:id/current', ADMIN, async (c) => {
    const id = dietId(c);
    const row = await transact(c, (tx, actor) => diets.makeCurrent(tx, actor, id));
    return ok(c, row, M.madeCurrent);
  }),

  post('/api/admin/diets/:id/close', ADMIN, async (c) => {
    const id = dietId(c);
    const row = await transact(c, (tx, actor) => diets.closeDiet(tx, actor, id));
    return ok(c, row, M.closedNow);
  }),

  get('/api/admin/diets/:id/extensions', ADMIN, async (c) =>
    ok(c, await diets.listExtensions(dbOf(c), dietId(c))),
  ),

  post('/api/admin/diets/:id/extensions', ADMIN, json(extensionValidator), async (c) => {
    const id = dietId(c);
    const rows = await transact(c, (tx, actor) => diets.grantExtension(tx, actor, id, c.req.valid('json')));
    return ok(c, rows, M.extensionGranted);
  }),

  post('/api/admin/diets/:id/extensions/:school/withdraw', ADMIN, async (c) => {
    const id = dietId(c);
    const school = (c.req.param('school') ?? '').slice(0, 100);
    const rows = await transact(c, (tx, actor) => diets.withdrawExtension(tx, actor, id, school));
    return ok(c, rows, M.extensionWithdrawn);
  }),

  ...(['admin', 'school_admin'] as const satisfies readonly Role[]).flatMap((role) => [
    get(`${rolePrefix(role)}/diet-choices`, [role], async (c) => ok(c, await diets.dietChoices(dbOf(c)))),

    get(`${rolePrefix(role)}/registration-window`, [role], async (c) => {
      const caller = callerOf(c);
      const school = role === 'school_admin' ? caller.trainingSchoolId : null;
      const { window } = await windowFor(dbOf(c), school, nowOf(c));
      return ok(c, window);
    }),
  ]),
];
