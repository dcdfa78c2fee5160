import { fromCallback, fromPromise } from 'xstate';
import { isApiFailure } from '../../contract/envelope';
import { NOTIFICATION_READS } from '../../contract/notifications.reads';
import type {
  ImpersonationStarted,
  StartImpersonationPayload,
  SwitchedBack,
} from '../../contract/impersonation';
import {
  METHOD_OVERRIDE_FIELD,
  PROFILE_METHOD_OVERRIDE,
  type ChangePasswordPayload,
} from '../../contract/profile';
import type { IdleEvent } from '../../machines/idle.machine';
import type { FormValues } from '../../machines/formDialog.machine';
import { readRole, storeImpersonationToken, storeSession } from './cookies';
import { send } from './send';
import { inOneSentence } from './session';

/** The I/O of the shell's machines: idle timer, unread count, dialogs' forms, impersonation. */

/**
 * The endpoints these actors call, imported when one first runs: the actors are made with the app, in
 * the entry chunk, and the endpoints' validators are VineJS, which the login page does without.
 */
const notifications = () =>
  import('../../contract/notifications.endpoints').then((module) => module.NOTIFICATION_ENDPOINTS);
const profile = () => import('../../contract/profile.endpoints').then((module) => module.PROFILE_ENDPOINTS);
const impersonation = () =>
  import('../../contract/impersonation.endpoints').then((module) => module.IMPERSONATION_ENDPOINTS);

/** The caller's role, as the spec reads it: anyone not an admin uses the school admin's endpoints. */
const role = () => readRole() ?? 'school_admin';

/** Clicks and scrolls anywhere on the page (scrolls inside panels too: they are caught on the way down). */
export const watchActivity = fromCallback<IdleEvent>(({ sendBack }) => {
  const onActivity = () => sendBack({ type: 'idle.activity' });
  const options = { capture: true, passive: true } as const;
  document.addEventListener('click', onActivity, options);
  document.addEventListener('scroll', onActivity, options);
  return () => {
    document.removeEventListener('click', onActivity, options);
    document.removeEventListener('scroll', onActivity, options);
  };
});

/** Background count: a failure is only logged (spec section 8), the machine keeps the last count. */
export const countUnread = fromPromise<number, void>(async () => {
  try {
    const { data } = await send(NOTIFICATION_READS.count);
    return Number(data ?? 0);
  } catch (failure) {
    console.warn('Could not refresh the unread notification count', failure);
    throw failure;
  }
});

function toFormData(values: FormValues): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) {
    if (value instanceof File) {
      if (value.size > 0) form.append(name, value);
    } else if (value !== null) {
      form.append(name, value);
    }
  }
  return form;
}

/** The profile form, multipart (it may carry a photo): the server checks it, as `send` checks no form with files. */
export const updateProfile = fromPromise<{ message?: string }, FormValues>(async ({ input }) => {
  const form = toFormData(input);
  form.set(METHOD_OVERRIDE_FIELD, PROFILE_METHOD_OVERRIDE[role()]);
  const { message } = await send((await profile()).update[role()], { body: form });
  return { message };
});

export const changePassword = fromPromise<{ message?: string }, FormValues>(async ({ input }) => {
  const body: ChangePasswordPayload = {
    current_password: String(input.current_password ?? ''),
    password: String(input.password ?? ''),
    password_confirmation: String(input.password_confirmation ?? ''),
  };
  const { data } = await send((await profile()).changePassword[role()], { body: { ...body } });
  return { message: data.message };
});

export const messageBoard = fromPromise<{ message?: string }, FormValues>(async ({ input }) => {
  const body = { subject: String(input.subject ?? ''), message: String(input.message ?? '') };
  const { message } = await send((await notifications()).messageBoard, { body });
  return { message };
});

export const startImpersonation = fromPromise<ImpersonationStarted, StartImpersonationPayload>(
  async ({ input }) => {
    const { data: started } = await send((await impersonation()).start, { body: { ...input } }).catch(
      (failure) => {
        throw inOneSentence(failure);
      },
    );
    storeSession(started.access_token, started.user.user_role);
    storeImpersonationToken(started.impersonation_token);
    return started;
  },
);

export const switchBack = fromPromise<SwitchedBack, { token: string }>(async ({ input }) => {
  let admin: SwitchedBack;
  try {
    admin = (await send((await impersonation()).switchBack, { body: { token: input.token } })).data;
  } catch (failure) {
    // Refused for good: the token is dead, so the browser stops offering Switch To Admin.
    if (isApiFailure(failure) && failure.status === 403) storeImpersonationToken(null);
    throw inOneSentence(failure);
  }
  storeSession(admin.access_token, admin.user.user_role);
  storeImpersonationToken(null);
  return admin;
});

/** Spec section 4: switching reloads the root page, so every actor starts again as the new user. */
export const reloadRoot = fromPromise<void, void>(
  () =>
    new Promise<void>(() => {
      window.location.assign('/');
    }),
);
