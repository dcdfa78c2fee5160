import { RESET_MESSAGES } from '../../contract/schools';
import { forgotPasswordValidator, resetPasswordValidator } from '../../contract/schools.validators';
import { requestPasswordReset, resetPassword } from '../auth/passwordReset';
import { actorOf, dbOf } from '../http/context';
import { ok } from '../http/respond';
import { post, PUBLIC, type Route } from '../http/route';
import { json } from '../http/validate';
import { mailRequestedResetCode } from '../schools/accounts';

/** Asking for a mailed reset code, and setting a password with it (server/auth/passwordReset.ts). */
export const passwordResetRoutes: Route[] = [
  post('/api/auth/reset-password', PUBLIC, json(resetPasswordValidator), async (c) => {
    await resetPassword(dbOf(c), actorOf(c), c.req.valid('json'));
    return ok(c, undefined, RESET_MESSAGES.done);
  }),
  // One answer whether or not the account exists; the mail goes after it.
  post('/api/auth/forgot-password', PUBLIC, json(forgotPasswordValidator), async (c) => {
    const issued = await requestPasswordReset(dbOf(c), actorOf(c), c.req.valid('json'));
    if (issued) {
      mailRequestedResetCode(c, issued.email, issued.code).catch((error: unknown) => {
        // The code is stored; the person can ask again. The code itself never goes in the log.
        c.get('deps').log.error('mail.failed', {
          to: issued.email,
          error: error instanceof Error ? error.message : String(error),
        });
      });
    }
    return ok(c, undefined, RESET_MESSAGES.codeMailed);
  }),
];
