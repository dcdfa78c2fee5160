import { PASSWORD_MESSAGES, PROFILE_MESSAGES } from '../../contract/profile';
import { PROFILE_ENDPOINTS as E } from '../../contract/profile.endpoints';
import type { Role } from '../../contract/roles';
import { Unauthenticated } from '../errors';
import { actorOf, callerOf, dbOf, withStorage } from '../http/context';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';
import { form } from '../http/validate';
import { changePassword, PHOTO_RULE, updateProfile } from '../profile/service';
import { findUserView } from '../users';

/**
 * The signed-in user's own profile and password, under each role's prefix (spec section 7). The
 * profile form (server/profile/service.ts): spec section 7 has the admin's form post multipart with
 * `_method=PUT`, the school admin's with `_method=POST`; each route is the POST itself.
 */
const profileRoutes = (role: Role): Route[] => [
  serve(E.read[role], async (c) => {
    const caller = callerOf(c);
    const user = await findUserView(dbOf(c), caller.userId, caller.impersonatorId);
    if (!user) throw new Unauthenticated();
    return ok(c, user);
  }),

  serve(E.changePassword[role], async (c) => {
    const caller = callerOf(c);
    const session = { tokenId: caller.tokenId, impersonated: caller.impersonatorId !== null };
    await changePassword(dbOf(c), actorOf(c), session, c.req.valid('json'));
    return ok(c, { message: PASSWORD_MESSAGES.changed });
  }),

  serve(E.update[role], form(E.update[role].input.validator, { photo: PHOTO_RULE }), async (c) => {
    const { input, files } = c.req.valid('form');
    await updateProfile(withStorage(c), actorOf(c), input, files.photo);
    return ok(c, undefined, PROFILE_MESSAGES.updated);
  }),
];

export const adminProfileRoutes: Route[] = profileRoutes('admin');

export const schoolProfileRoutes: Route[] = profileRoutes('school_admin');
