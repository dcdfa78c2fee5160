/**
 * Roles and where each one's calls go. The spec reads the role from the stored cookie `user_role`:
 * admin uses the admin endpoints, anyone else the training-school-admin endpoints.
 */
export const ROLES = ['admin', 'school_admin'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Board admin',
  school_admin: 'School admin',
};

/** Cookie names, as the spec says: the token and the role are stored in cookies. */
export const TOKEN_COOKIE = 'token';
export const ROLE_COOKIE = 'user_role';

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
