import { STAFF_MESSAGES as M } from '../../contract/staff';
import { STAFF_ENDPOINTS as E } from '../../contract/staff.endpoints';
import { actorOf, dbOf, transact, type AppContext } from '../http/context';
import { afterAnswer } from '../http/afterAnswer';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';
import { describeError } from '../log';
import { mailWaitingInvitations } from '../staff/invitations';
import * as staff from '../staff/service';

const staffId = (c: AppContext) => idOf(c, M.notFound);

/**
 * The outbox's job woken once the invitation is committed (server/staff/invitations.ts): one job
 * queued however many invitations wait ('short' policy), and the five-minute run for any left over.
 */
async function mailInvitations(c: AppContext) {
  const { jobs, database, mailer, config, log } = c.get('deps');
  if (jobs) {
    await jobs.send('staff-invitation', {}, { singletonKey: 'staff-invitation', wake: false });
    afterAnswer(c, () => jobs.wake('staff-invitation'));
    return;
  }
  // An app made without a queue (a script's): the same work, after the answer.
  afterAnswer(c, () => {
    mailWaitingInvitations({ db: database.db, mailer, publicUrl: config.publicUrl }).catch((error: unknown) =>
      log.error('mail.failed', { kind: 'board invitation', ...describeError(error) }),
    );
  });
}

/** The board's own staff (server/staff/service.ts), for board admins. */
export const staffRoutes: Route[] = [
  serve(E.list, async (c) => ok(c, await staff.listStaff(dbOf(c), actorOf(c)))),

  serve(E.invite, async (c) => {
    const member = await transact(c, (tx, actor) => staff.inviteStaff(tx, actor, c.req.valid('json')));
    await mailInvitations(c);
    return ok(c, member, M.invited);
  }),

  serve(E.resendInvitation, async (c) => {
    const id = staffId(c);
    await transact(c, (tx, actor) => staff.resendInvitation(tx, actor, id));
    await mailInvitations(c);
    return ok(c, undefined, M.invitationResent);
  }),

  serve(E.suspension, async (c) => {
    const id = staffId(c);
    const input = c.req.valid('json');
    const member = await transact(c, (tx, actor) => staff.setSuspended(tx, actor, id, input));
    return ok(c, member, input.suspended ? M.suspended : M.reinstated);
  }),
];
