import { IMPERSONATION_MESSAGES, IMPERSONATION_PATHS } from '../../contract/impersonation';
import { startImpersonationValidator, switchBackValidator } from '../../contract/impersonation.validators';
import { Refused } from '../errors';
import { callerOf, dbOf, transact, type AppContext } from '../http/context';
import { ok } from '../http/respond';
import { ADMIN, post, SCHOOL_ADMIN, type Route } from '../http/route';
import { json } from '../http/validate';
import { startImpersonation, switchBack } from '../impersonation/service';
import { findUserView } from '../users';

const sessionOf = (c: AppContext) => ({
  tokenId: callerOf(c).tokenId,
  tokenTtlMinutes: c.get('deps').config.tokenTtlMinutes,
});

/** Impersonation (server/impersonation/service.ts). */
export const impersonationRoutes: Route[] = [
  post(IMPERSONATION_PATHS.start, ADMIN, json(startImpersonationValidator), async (c) => {
    const session = sessionOf(c);
    const started = await transact(c, (tx, actor) =>
      startImpersonation(tx, actor, session, c.req.valid('json')),
    );
    const user = await findUserView(dbOf(c), started.userId, callerOf(c).userId);
    return ok(c, { user, access_token: started.token, impersonation_token: started.switchBack });
  }),

  /**
   * Spec section 7, word for word: `{ token }` in, `success, data.user, data.access_token` out. Redeemed
   * with the impersonated session's token, which is a school admin's.
   */
  post(IMPERSONATION_PATHS.switchBack, SCHOOL_ADMIN, json(switchBackValidator), async (c) => {
    const session = sessionOf(c);
    const back = await transact(c, (tx, actor) => switchBack(tx, actor, session, c.req.valid('json')));
    // The impersonation has ended either way; an admin deactivated meanwhile gets no session back.
    if (!back.token) throw new Refused(403, IMPERSONATION_MESSAGES.switchBackRefused);
    const user = await findUserView(dbOf(c), back.adminId);
    return ok(c, { user, access_token: back.token });
  }),
];
