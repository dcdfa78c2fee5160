import { OFFENDER_MESSAGES as M } from '../../contract/offenders';
import { offenceValidator } from '../../contract/offenders.validators';
import { boardToday } from '../boardDate';
import { transact, type AppContext } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { ADMIN, get, post, type Route } from '../http/route';
import { json } from '../http/validate';
import { listPage } from '../listed';
import { examOffences } from '../db/schema';
import { recordOffence, removeOffence, selectOffenders, toOffenderRow } from '../offenders/service';

/** GET ?search=&page=&per_page=: the listed offences (not removed), newest first. */
function listOffenders(c: AppContext) {
  const rows = selectOffenders(c.get('deps').database.db, boardToday());
  return listPage(c, { kind: 'board' }, examOffences, rows, toOffenderRow);
}

/** Exam offenders: board admins only (server/offenders/service.ts). */
export const offenderRoutes: Route[] = [
  get('/api/admin/exam-offenders', ADMIN, listOffenders),

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
