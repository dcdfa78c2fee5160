import { IMPERSONATION_MESSAGES } from '../../contract/impersonation';
import { IMPERSONATION_ENDPOINTS as E } from '../../contract/impersonation.endpoints';
import { Refused } from '../errors';
import { callerOf, dbOf, transact, type AppContext } from '../http/context';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';
import { startImpersonation, switchBack } from '../impersonation/service';
import { findUserView } from '../users';

const sessionOf = (c: AppContext) => ({
  tokenId: callerOf(c).tokenId,
  tokenTtlMinutes: c.get('deps').config.tokenTtlMinutes,
});

/** Impersonation (server/impersonation/service.ts). */
export const impersonationRoutes: Route[] = [
  serve(E.start, async (c) => {
    const session = sessionOf(c);
    const started = await transact(c, (tx, actor) =>
      startImpersonation(tx, actor, session, c.req.valid('json')),
    );
    const user = await findUserView(dbOf(c), started.userId, callerOf(c).userId);
    return ok(c, { user, access_token: started.token, impersonation_token: started.switchBack });
  }),

  serve(E.switchBack, async (c) => {
    const session = sessionOf(c);
    const back = await transact(c, (tx, actor) => switchBack(tx, actor, session, c.req.valid('json')));
    // The impersonation has ended either way; an admin deactivated meanwhile gets no session back.
    if (!back.token) throw new Refused(403, IMPERSONATION_MESSAGES.switchBackRefused);
    const user = await findUserView(dbOf(c), back.adminId);
    return ok(c, { user, access_token: back.token });
  }),
];
