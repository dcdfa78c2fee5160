import { fromPromise } from 'xstate';
import type { ConfirmCodePayload, LoginChallenge, LoginPayload, SignedIn } from '../../contract/auth';
import { firstMessage, isApiFailure } from '../../contract/envelope';
import { PROFILE_READ } from '../../contract/profile.read';
import type { User } from '../../contract/user';
import { clearSession, readRole, storeSession } from './cookies';
import { send } from './send';

/** The session machine's I/O (machines/session.machine.ts names these actors). */

/**
 * The session's endpoints, imported when an actor first runs: their validators are VineJS, which the
 * login page's entry chunk does without. Signing in fetches it once, beside the shell's chunk (which
 * carries VineJS too); every later call finds it loaded.
 */
const auth = () => import('../../contract/auth.endpoints').then((module) => module.AUTH_ENDPOINTS);
/** Starts fetching the sign-in's checks as the user starts typing, so the POST does not wait for them. */
export const prepareSignIn = () => void auth().catch(() => {});

/**
 * For a view that shows one sentence, not field messages (the code page, the impersonation dialog): a
 * refusal by the browser's own check says its first field message, as the server's 422 does
 * (src/api/client.ts), rather than the forms' summary.
 */
export function inOneSentence(failure: unknown): unknown {
  return isApiFailure(failure) && failure.status === 422
    ? { ...failure, message: firstMessage(failure.fields, failure.message) }
    : failure;
}

export const sessionActors = {
  signIn: fromPromise<LoginChallenge, LoginPayload>(async ({ input }) => {
    const { data } = await send((await auth()).login, { body: { ...input } });
    return data;
  }),
  confirmCode: fromPromise<SignedIn, ConfirmCodePayload>(async ({ input }) => {
    const { data } = await send((await auth()).confirmCode, { body: { ...input } }).catch((failure) => {
      throw inOneSentence(failure);
    });
    storeSession(data.access_token, data.user.user_role);
    return data;
  }),
  resendCode: fromPromise<{ message: string }, LoginChallenge>(async ({ input }) => {
    const { message } = await send((await auth()).resendCode, { body: { login_id: input.login_id } }).catch(
      (failure) => {
        throw inOneSentence(failure);
      },
    );
    return { message: message ?? 'A new code has been sent.' };
  }),
  loadProfile: fromPromise<User, void>(async () => {
    const { data } = await send(PROFILE_READ[readRole() ?? 'school_admin']);
    return data;
  }),
  signOut: fromPromise<void, void>(async () => {
    try {
      await send((await auth()).logout, { expectUnauthenticated: true });
    } finally {
      clearSession();
    }
  }),
};
