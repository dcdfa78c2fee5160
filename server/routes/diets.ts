import { DIET_MESSAGES as M } from '../../contract/diets';
import { DIET_ENDPOINTS as E } from '../../contract/diets.endpoints';
import { REGISTRATION_ENDPOINTS } from '../../contract/registration.endpoints';
import { ROLES } from '../../contract/roles';
import * as diets from '../diets/service';
import { windowFor } from '../diets/window';
import { callerOf, dbOf, nowOf, transact, type AppContext } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';

const dietId = (c: AppContext) => idOf(c, M.notFound);

/**
 * Exam diets (server/diets/): the board's create, edit, make current, close and extensions; and for
 * both roles the diets as choices and the registration window as it applies to the caller. The list is
 * one of the lists (contract/lists.ts DIETS_LIST).
 */
export const dietRoutes: Route[] = [
  serve(E.create, async (c) => {
    const row = await transact(c, (tx, actor) => diets.createDiet(tx, actor, c.req.valid('json')));
    return ok(c, row, M.created);
  }),

  serve(E.update, async (c) => {
    const id = dietId(c);
    const row = await transact(c, (tx, actor) => diets.updateDiet(tx, actor, id, c.req.valid('json')));
    return ok(c, row, M.updated);
  }),

  serve(E.current, async (c) => {
    const id = dietId(c);
    const row = await transact(c, (tx, actor) => diets.makeCurrent(tx, actor, id));
    return ok(c, row, M.madeCurrent);
  }),

  serve(E.close, async (c) => {
    const id = dietId(c);
    const row = await transact(c, (tx, actor) => diets.closeDiet(tx, actor, id));
    return ok(c, row, M.closedNow);
  }),

  serve(E.extensions, async (c) => ok(c, await diets.listExtensions(dbOf(c), dietId(c)))),

  serve(E.grantExtension, async (c) => {
    const id = dietId(c);
    const rows = await transact(c, (tx, actor) => diets.grantExtension(tx, actor, id, c.req.valid('json')));
    return ok(c, rows, M.extensionGranted);
  }),

  serve(E.withdrawExtension, async (c) => {
    const id = dietId(c);
    const school = (c.req.param('school') ?? '').slice(0, 100);
    const rows = await transact(c, (tx, actor) => diets.withdrawExtension(tx, actor, id, school));
    return ok(c, rows, M.extensionWithdrawn);
  }),

  ...ROLES.flatMap((role) => [
    serve(E.choices[role], async (c) => ok(c, await diets.dietChoices(dbOf(c)))),

    serve(REGISTRATION_ENDPOINTS.window[role], async (c) => {
      const caller = callerOf(c);
      const school = role === 'school_admin' ? caller.trainingSchoolId : null;
      const { window } = await windowFor(dbOf(c), school, nowOf(c));
      return ok(c, window);
    }),
  ]),
];
