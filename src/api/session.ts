import { fromPromise } from 'xstate';
import type { ConfirmCodePayload, LoginChallenge, LoginPayload, SignedIn } from '../../contract/auth';
import { rolePrefix } from '../../contract/roles';
import type { User } from '../../contract/user';
import { call } from './client';
import { clearSession, readRole, storeSession } from './cookies';

/** The session machine's I/O (machines/session.machine.ts names these actors). */

const PENDING_LOGIN_KEY = 'pending-login';

/** A sign-in waiting for its code survives a reload (a phone may drop the tab while the user reads
 * the mail); sessionStorage keeps it to this tab only. */
export function readPendingLogin(): LoginChallenge | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(PENDING_LOGIN_KEY) ?? 'null');
    return stored && typeof stored.login_id === 'string' && typeof stored.email === 'string' ? stored : null;
  } catch {
    return null;
  }
}

export function writePendingLogin(challenge: LoginChallenge | null) {
  if (challenge) sessionStorage.setItem(PENDING_LOGIN_KEY, JSON.stringify(challenge));
  else sessionStorage.removeItem(PENDING_LOGIN_KEY);
}

export const sessionActors = {
  signIn: fromPromise<LoginChallenge, LoginPayload>(async ({ input }) => {
    const response = await call<LoginChallenge>('/api/auth/login', { method: 'POST', body: { ...input } });
    return response.data!;
  }),
  confirmCode: fromPromise<SignedIn, ConfirmCodePayload>(async ({ input }) => {
    const response = await call<SignedIn>('/api/auth/confirm-code', { method: 'POST', body: { ...input } });
    storeSession(response.data!.access_token, response.data!.user.user_role);
    return response.data!;
  }),
  resendCode: fromPromise<{ message: string }, LoginChallenge>(async ({ input }) => {
    const response = await call('/api/auth/resend-code', {
      method: 'POST',
      body: { login_id: input.login_id },
    });
    return { message: typeof response.message === 'string' ? response.message : 'A new code has been sent.' };
  }),
  loadProfile: fromPromise<User, void>(async () => {
    const response = await call<User>(`${rolePrefix(readRole())}/user-profile-information`);
    return response.data!;
  }),
  signOut: fromPromise<void, void>(async () => {
    try {
      await call('/api/auth/logout', { method: 'POST', expectUnauthenticated: true });
    } finally {
      clearSession();
    }
  }),
};
