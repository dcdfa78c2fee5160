import { fromCallback, fromPromise } from 'xstate';
import type {
  ImpersonationStarted,
  StartImpersonationPayload,
  SwitchedBack,
} from '../../contract/impersonation';
import { isApiFailure } from '../../contract/envelope';
import { IMPERSONATION_PATHS } from '../../contract/impersonation';
import { NOTIFICATION_PATHS } from '../../contract/notifications';
import { METHOD_OVERRIDE_FIELD, PROFILE_UPDATE, type ChangePasswordPayload } from '../../contract/profile';
import { rolePrefix } from '../../contract/roles';
import type { IdleEvent } from '../../machines/idle.machine';
import type { FormValues } from '../../machines/formDialog.machine';
import { call } from './client';
import { readRole, storeImpersonationToken, storeSession } from './cookies';

/** The I/O of the shell's machines: idle timer, unread count, dialogs' forms, impersonation. */

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
    const response = await call<number>(NOTIFICATION_PATHS.count);
    return Number(response.data ?? 0);
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

export const updateProfile = fromPromise<{ message?: string }, FormValues>(async ({ input }) => {
  const { path, methodOverride } = PROFILE_UPDATE[readRole() ?? 'school_admin'];
  const form = toFormData(input);
  form.set(METHOD_OVERRIDE_FIELD, methodOverride);
  const response = await call(path, { method: 'POST', body: form });
  return { message: typeof response.message === 'string' ? response.message : undefined };
});

export const changePassword = fromPromise<{ message?: string }, FormValues>(async ({ input }) => {
  const body: ChangePasswordPayload = {
    current_password: String(input.current_password ?? ''),
    password: String(input.password ?? ''),
    password_confirmation: String(input.password_confirmation ?? ''),
  };
  const response = await call<{ message?: string }>(`${rolePrefix(readRole())}/change-password`, {
    method: 'POST',
    body: { ...body },
  });
  return { message: response.data?.message };
});

export const messageBoard = fromPromise<{ message?: string }, FormValues>(async ({ input }) => {
  const response = await call(NOTIFICATION_PATHS.messageBoard, {
    method: 'POST',
    body: { subject: String(input.subject ?? ''), message: String(input.message ?? '') },
  });
  return { message: typeof response.message === 'string' ? response.message : undefined };
});

export const startImpersonation = fromPromise<ImpersonationStarted, StartImpersonationPayload>(
  async ({ input }) => {
    const response = await call<ImpersonationStarted>(IMPERSONATION_PATHS.start, {
      method: 'POST',
      body: { ...input },
    });
    const started = response.data!;
    storeSession(started.access_token, started.user.user_role);
    storeImpersonationToken(started.impersonation_token);
    return started;
  },
);

export const switchBack = fromPromise<SwitchedBack, { token: string }>(async ({ input }) => {
  let response;
  try {
    response = await call<SwitchedBack>(IMPERSONATION_PATHS.switchBack, {
      method: 'POST',
      body: { token: input.token },
    });
  } catch (failure) {
    // Refused for good: the token is dead, so the browser stops offering Switch To Admin.
    if (isApiFailure(failure) && failure.status === 403) storeImpersonationToken(null);
    throw failure;
  }
  const admin = response.data!;
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
