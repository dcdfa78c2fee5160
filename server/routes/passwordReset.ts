import { AUTH_ENDPOINTS as E } from '../../contract/auth.endpoints';
import { RESET_MESSAGES } from '../../contract/schools';
import { requestPasswordReset, resetPassword, sendRequestedReset } from '../auth/passwordReset';
import { actorOf, dbOf } from '../http/context';
import { afterAnswer } from '../http/afterAnswer';
import { describeError } from '../log';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';

/** Asking for a mailed reset code, and setting a password with it (server/auth/passwordReset.ts). */
export const passwordResetRoutes: Route[] = [
  serve(E.resetPassword, async (c) => {
    await resetPassword(dbOf(c), actorOf(c), c.req.valid('json'));
    return ok(c, undefined, RESET_MESSAGES.done);
  }),
  // One answer, after the same statements, whether or not the account exists: the job decides, and mails.
  serve(E.forgotPassword, async (c) => {
    const request = await requestPasswordReset(dbOf(c), actorOf(c), c.req.valid('json'));
    const { jobs, database, mailer, config, log } = c.get('deps');
    if (jobs) {
      // Its worker is woken once the answer has left, so the job's work (a known address's code, hash
      // and mail) never shares the answer's time either.
      await jobs.send('password-reset-request', request, { wake: false });
      afterAnswer(c, () => jobs.wake('password-reset-request'));
    } else {
      // An app made without a queue (a script's): the same work, after the answer.
      sendRequestedReset({ db: database.db, mailer, publicUrl: config.publicUrl }, request).catch(
        (error: unknown) => log.error('mail.failed', { to: request.email, ...describeError(error) }),
      );
    }
    return ok(c, undefined, RESET_MESSAGES.codeMailed);
  }),
];
