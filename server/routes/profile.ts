import { PASSWORD_MESSAGES, PROFILE_MESSAGES } from '../../contract/profile';
import {
  adminProfileValidator,
  changePasswordValidator,
  schoolProfileValidator,
} from '../../contract/profile.validators';
import { rolePrefix, type Role } from '../../contract/roles';
import { Unauthenticated } from '../errors';
import { actorOf, callerOf, dbOf, withStorage } from '../http/context';
import { ok } from '../http/respond';
import { ADMIN, get, post, SCHOOL_ADMIN, type Route } from '../http/route';
import { form, json, type StandardValidator } from '../http/validate';
import { changePassword, PHOTO_RULE, updateProfile, type ProfileInput } from '../profile/service';
import { findUserView } from '../users';

/** The signed-in user's own profile and password, under each role's prefix (spec section 7). */
const profileRoutes = (role: Role): Route[] => [
  get(`${rolePrefix(role)}/user-profile-information`, [role], async (c) => {
    const caller = callerOf(c);
    const user = await findUserView(dbOf(c), caller.userId, caller.impersonatorId);
    if (!user) throw new Unauthenticated();
    return ok(c, user);
  }),

  post(`${rolePrefix(role)}/change-password`, [role], json(changePasswordValidator), async (c) => {
    const caller = callerOf(c);
    const session = { tokenId: caller.tokenId, impersonated: caller.impersonatorId !== null };
    await changePassword(dbOf(c), actorOf(c), session, c.req.valid('json'));
    return ok(c, { message: PASSWORD_MESSAGES.changed });
  }),
];

/**
 * The profile form (server/profile/service.ts). Spec section 7: the admin's form posts multipart with
 * `_method=PUT`, the school admin's with `_method=POST`; each route is the POST itself.
 */
const updateProfileRoute = (
  path: string,
  allow: readonly Role[],
  validator: StandardValidator<ProfileInput>,
) =>
  post(path, allow, form(validator, { photo: PHOTO_RULE }), async (c) => {
    const { input, files } = c.req.valid('form');
    await updateProfile(withStorage(c), actorOf(c), input, files.photo);
    return ok(c, undefined, PROFILE_MESSAGES.updated);
  });

export const adminProfileRoutes: Route[] = [
  ...profileRoutes('admin'),
  updateProfileRoute('/api/admin/user-profile-update', ADMIN, adminProfileValidator),
];

export const schoolProfileRoutes: Route[] = [
  ...profileRoutes('school_admin'),
  updateProfileRoute(
    '/api/training-school-admin/update-user-training-school-profile',
    SCHOOL_ADMIN,
    schoolProfileValidator,
  ),
];
