import type { LoginChallenge, SignedIn } from './auth';
import { confirmCodeValidator, loginValidator, resendCodeValidator } from './auth.validators';
import { endpoint, PUBLIC, shape, SIGNED_IN } from './endpoint';
import { forgotPasswordValidator, resetPasswordValidator } from './schools.validators';

/**
 * Signing in and out, and setting a password with a mailed code: everything the browser may ask before
 * it has a session, and the logout. The SPA's session actors import this lazily (src/api/session.ts),
 * so the login page's entry chunk stays free of VineJS.
 */
export const AUTH_ENDPOINTS = {
  login: endpoint({
    method: 'POST',
    path: '/api/auth/login',
    roles: PUBLIC,
    summary: 'Check an email and password, and mail a 6-digit code to confirm the sign-in',
    input: { in: 'json', validator: loginValidator },
    answer: shape<LoginChallenge>(),
  }),
  confirmCode: endpoint({
    method: 'POST',
    path: '/api/auth/confirm-code',
    roles: PUBLIC,
    summary: 'Confirm a sign-in with its mailed code: the user and a session token',
    input: { in: 'json', validator: confirmCodeValidator },
    answer: shape<SignedIn>(),
  }),
  resendCode: endpoint({
    method: 'POST',
    path: '/api/auth/resend-code',
    roles: PUBLIC,
    summary: 'Mail a new code for a pending sign-in',
    input: { in: 'json', validator: resendCodeValidator },
    answer: shape<void>(),
  }),
  logout: endpoint({
    method: 'POST',
    path: '/api/auth/logout',
    roles: SIGNED_IN,
    summary: "End the caller's session",
    answer: shape<void>(),
  }),
  /** One answer, whether or not an account has the address. */
  forgotPassword: endpoint({
    method: 'POST',
    path: '/api/auth/forgot-password',
    roles: PUBLIC,
    summary: 'Mail a password-reset code to the account with this address, if there is one',
    input: { in: 'json', validator: forgotPasswordValidator },
    answer: shape<void>(),
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: '/api/auth/reset-password',
    roles: PUBLIC,
    summary: 'Set a new password with a mailed reset code',
    input: { in: 'json', validator: resetPasswordValidator },
    answer: shape<void>(),
  }),
} as const;
