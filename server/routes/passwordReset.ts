import { RESET_MESSAGES } from '../../contract/schools';
import { resetPasswordValidator } from '../../contract/schools.validators';
import { resetPassword } from '../auth/passwordReset';
import { actorOf, dbOf } from '../http/context';
import { ok } from '../http/respond';
import { post, PUBLIC, type Route } from '../http/route';
import { json } from '../http/validate';

/** Setting a password with a mailed reset code (server/auth/passwordReset.ts). */
export const passwordResetRoutes: Route[] = [
  post('/api/auth/reset-password', PUBLIC, json(resetPasswordValidator), async (c) => {
    await resetPassword(dbOf(c), actorOf(c), c.req.valid('json'));
    return ok(c, undefined, RESET_MESSAGES.done);
  }),
];
