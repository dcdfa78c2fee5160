import type { Role } from '../contract/roles';

/**
 * The authorisation matrix, kept as data: every API route, and who may call it. A route that is not
 * here is refused (deny by default); tests/api/access.test.ts walks this table for every role and
 * checks that it names exactly the routes the app serves. School scoping (a school admin sees only
 * their own school's rows) is enforced by the handlers' queries and tested with them.
 */
export type Audience = 'public' | readonly Role[];

export interface AccessRule {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  allow: Audience;
}

const ADMIN: readonly Role[] = ['admin'];
const SCHOOL_ADMIN: readonly Role[] = ['school_admin'];
const SIGNED_IN: readonly Role[] = ['admin', 'school_admin'];

export const ACCESS_MATRIX: readonly AccessRule[] = [
  { method: 'GET', path: '/api/health', allow: 'public' },
  { method: 'POST', path: '/api/auth/login', allow: 'public' },
  { method: 'POST', path: '/api/auth/confirm-code', allow: 'public' },
  { method: 'POST', path: '/api/auth/resend-code', allow: 'public' },
  { method: 'POST', path: '/api/auth/logout', allow: SIGNED_IN },
  { method: 'POST', path: '/api/auth/reset-password', allow: 'public' },
  { method: 'POST', path: '/api/auth/forgot-password', allow: 'public' },
  // Redeemed with the impersonated session's token, which is a school admin's.
  { method: 'POST', path: '/api/auth/switch-back-to-admin', allow: SCHOOL_ADMIN },

  { method: 'GET', path: '/api/admin/user-profile-information', allow: ADMIN },
  { method: 'GET', path: '/api/training-school-admin/user-profile-information', allow: SCHOOL_ADMIN },
  { method: 'POST', path: '/api/admin/user-profile-update', allow: ADMIN },
  {
    method: 'POST',
    path: '/api/training-school-admin/update-user-training-school-profile',
    allow: SCHOOL_ADMIN,
  },
  { method: 'POST', path: '/api/admin/change-password', allow: ADMIN },
  { method: 'POST', path: '/api/training-school-admin/change-password', allow: SCHOOL_ADMIN },
  { method: 'GET', path: '/api/admin/nationality', allow: ADMIN },
  { method: 'GET', path: '/api/training-school-admin/nationality', allow: SCHOOL_ADMIN },

  { method: 'POST', path: '/api/admin/impersonate', allow: ADMIN },
  { method: 'GET', path: '/api/admin/training-schools', allow: ADMIN },
  { method: 'POST', path: '/api/admin/training-schools', allow: ADMIN },
  { method: 'POST', path: '/api/admin/training-schools/:id', allow: ADMIN },
  { method: 'POST', path: '/api/admin/training-schools/:id/status', allow: ADMIN },
  { method: 'POST', path: '/api/admin/training-schools/:id/admins', allow: ADMIN },
  { method: 'POST', path: '/api/admin/school-admins/:id/active', allow: ADMIN },
  { method: 'POST', path: '/api/admin/school-admins/:id/password-reset', allow: ADMIN },

  { method: 'GET', path: '/api/admin/training-school-notification-unread', allow: ADMIN },
  { method: 'GET', path: '/api/admin/training-school-notification-read', allow: ADMIN },
  { method: 'GET', path: '/api/admin/count-unread-notification', allow: ADMIN },
  { method: 'POST', path: '/api/admin/notifications/mark-read', allow: ADMIN },
  { method: 'POST', path: '/api/training-school-admin/message-board', allow: SCHOOL_ADMIN },

  // Candidates (school scoping of the school admin's routes: server/routes/registration.ts).
  { method: 'GET', path: '/api/admin/candidate-form-options', allow: ADMIN },
  { method: 'POST', path: '/api/admin/candidates', allow: ADMIN },
  { method: 'GET', path: '/api/admin/candidates', allow: ADMIN },
  { method: 'GET', path: '/api/admin/candidates/:id', allow: ADMIN },
  { method: 'POST', path: '/api/admin/candidates/:id', allow: ADMIN },
  { method: 'POST', path: '/api/admin/candidates/:id/verification', allow: ADMIN },
  { method: 'GET', path: '/api/admin/registered-candidates', allow: ADMIN },
  { method: 'POST', path: '/api/admin/candidates/:id/reg-status', allow: ADMIN },
  { method: 'GET', path: '/api/training-school-admin/registered-candidates', allow: SCHOOL_ADMIN },
  { method: 'POST', path: '/api/training-school-admin/candidates/:id/reg-status', allow: SCHOOL_ADMIN },

  // Exam offenders (server/routes/offenders.ts).
  { method: 'GET', path: '/api/admin/exam-offenders', allow: ADMIN },
  { method: 'POST', path: '/api/admin/exam-offenders', allow: ADMIN },
  { method: 'POST', path: '/api/admin/exam-offenders/:id/remove', allow: ADMIN },

  // Resit candidates (server/routes/resits.ts; a school admin's are scoped to their school there).
  { method: 'GET', path: '/api/admin/resit-candidates', allow: ADMIN },
  { method: 'POST', path: '/api/admin/resit-candidates', allow: ADMIN },
  { method: 'POST', path: '/api/admin/resit-candidates/:id/remove', allow: ADMIN },
  { method: 'GET', path: '/api/training-school-admin/resit-candidates', allow: SCHOOL_ADMIN },
  { method: 'POST', path: '/api/training-school-admin/resit-candidates', allow: SCHOOL_ADMIN },
  { method: 'POST', path: '/api/training-school-admin/resit-candidates/:id/remove', allow: SCHOOL_ADMIN },

  // Course headers (server/routes/courses.ts).
  { method: 'GET', path: '/api/admin/course-headers', allow: ADMIN },
  { method: 'POST', path: '/api/admin/course-headers', allow: ADMIN },
  { method: 'POST', path: '/api/admin/course-headers/:id', allow: ADMIN },
  { method: 'POST', path: '/api/admin/course-headers/:id/indexing-status', allow: ADMIN },
  { method: 'POST', path: '/api/admin/course-headers/:id/registration-status', allow: ADMIN },
];

function toPattern(path: string): RegExp {
  const source = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\/:[A-Za-z_]+/g, '/[^/]+');
  // Exactly the path Hono serves (strict routing): '/api/health/' is not '/api/health', so it is a 404
  // here rather than passing the matrix and falling through to the SPA.
  return new RegExp(`^${source}$`);
}

const compiled = ACCESS_MATRIX.map((rule) => ({ rule, pattern: toPattern(rule.path) }));

export function findRule(method: string, path: string): AccessRule | null {
  return compiled.find((entry) => entry.rule.method === method && entry.pattern.test(path))?.rule ?? null;
}
