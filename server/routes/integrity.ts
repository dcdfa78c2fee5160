import { INTEGRITY_ENDPOINTS as E } from '../../contract/integrity.endpoints';
import { INTEGRITY_MESSAGES as M } from '../../contract/integrity';
import { afterAnswer } from '../http/afterAnswer';
import { dbOf, transact, type AppContext } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';
import { scanAll } from '../integrity/finder';
import { duplicateReport, markNotSame } from '../integrity/report';
import { describeError } from '../log';

/** The full run queued (one however many ask: 'short'), or, in an app without a queue, run after the answer. */
async function scanSoon(c: AppContext) {
  const { jobs, database, log } = c.get('deps');
  if (jobs) {
    await jobs.send('integrity-scan', {}, { singletonKey: 'integrity-scan', wake: false });
    afterAnswer(c, () => jobs.wake('integrity-scan'));
    return;
  }
  afterAnswer(c, () => {
    scanAll(database.db, log).catch((error: unknown) => log.error('integrity.failed', describeError(error)));
  });
}

/** The integrity reports (server/integrity/), for board admins. */
export const integrityRoutes: Route[] = [
  serve(E.duplicates, async (c) => ok(c, await duplicateReport(dbOf(c), c.req.valid('query').page ?? 1))),

  serve(E.notSame, async (c) => {
    const id = idOf(c, M.notFound);
    await transact(c, (tx, actor) => markNotSame(tx, actor, id));
    return ok(c, undefined, M.notSame);
  }),

  serve(E.scan, async (c) => {
    await scanSoon(c);
    return ok(c, undefined, M.scanQueued);
  }),
];
