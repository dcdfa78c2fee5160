import { ADMIN, endpoint, SCHOOL_ADMIN, shape } from './endpoint';
import { adminProfileValidator, changePasswordValidator, schoolProfileValidator } from './profile.validators';
import { PROFILE_READ } from './profile.read';

/** The signed-in user's own profile and password, each role under its own prefix (spec section 7). */
export const PROFILE_ENDPOINTS = {
  read: PROFILE_READ,
  /**
   * The profile form: multipart with the method override the spec names (`_method`, PROFILE_METHOD_OVERRIDE),
   * or JSON without a photo; each route is the POST itself.
   */
  update: {
    admin: endpoint({
      method: 'POST',
      path: '/api/admin/user-profile-update',
      roles: ADMIN,
      summary: "Update the admin's own name, email, phone number, gender and photo",
      input: { in: 'form', validator: adminProfileValidator, files: ['photo'] },
      answer: shape<void>(),
    }),
    school_admin: endpoint({
      method: 'POST',
      path: '/api/training-school-admin/update-user-training-school-profile',
      roles: SCHOOL_ADMIN,
      summary: "Update the school admin's own name, email, phone number and photo",
      input: { in: 'form', validator: schoolProfileValidator, files: ['photo'] },
      answer: shape<void>(),
    }),
  },
  /** Spec section 7: the sentence comes back as `data.message`. */
  changePassword: {
    admin: endpoint({
      method: 'POST',
      path: '/api/admin/change-password',
      roles: ADMIN,
      summary: "Change the admin's own password, given the old one",
      input: { in: 'json', validator: changePasswordValidator },
      answer: shape<{ message: string }>(),
    }),
    school_admin: endpoint({
      method: 'POST',
      path: '/api/training-school-admin/change-password',
      roles: SCHOOL_ADMIN,
      summary: "Change the school admin's own password, given the old one (not while impersonated)",
      input: { in: 'json', validator: changePasswordValidator },
      answer: shape<{ message: string }>(),
    }),
  },
} as const;
