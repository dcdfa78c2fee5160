import { afterAnswer } from '../http/afterAnswer';
import type { AppContext } from '../http/context';
import { describeError } from '../log';
import { checkPending } from './finder';

/**
 * After a candidate is indexed or changed (their check queued in `integrity_pending` in the same
 * transaction): the 'integrity-check' job queued (one however many requests ask) and woken once the
 * answer is sent; its five-minute run takes any a stopped process left.
 */
export async function checkDuplicatesSoon(c: AppContext) {
  const { jobs, database, log } = c.get('deps');
  if (jobs) {
    await jobs.send('integrity-check', {}, { singletonKey: 'integrity-check', wake: false });
    afterAnswer(c, () => jobs.wake('integrity-check'));
    return;
  }
  // An app made without a queue (a script's): the same work, after the answer.
  afterAnswer(c, () => {
    checkPending(database.db).catch((error: unknown) => log.error('integrity.failed', describeError(error)));
  });
}
