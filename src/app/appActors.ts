import { createActor } from 'xstate';
import { PASSWORD_MESSAGES, PROFILE_MESSAGES } from '../../contract/profile';
import { NOTIFICATION_MESSAGES } from '../../contract/notifications';
import { formDialogMachine } from '../../machines/formDialog.machine';
import { idleMachine } from '../../machines/idle.machine';
import { impersonationMachine } from '../../machines/impersonation.machine';
import type { NotifyEmitted } from '../../machines/notify';
import { unreadCountMachine } from '../../machines/unreadCount.machine';
import { readImpersonationToken } from '../api/cookies';
import {
  changePassword,
  countUnread,
  messageBoard,
  reloadRoot,
  startImpersonation,
  switchBack,
  updateProfile,
  watchActivity,
} from '../api/shell';
import { createSessionActor } from './session';

/**
 * The composition root of the app's actors: each is made here, handed its I/O, and wired to the
 * others, so that no component needs an effect to connect them.
 */
export function createAppActors() {
  const session = createSessionActor();
  const idle = createActor(idleMachine.provide({ actors: { watchActivity } }));
  const unreadCount = createActor(unreadCountMachine.provide({ actors: { countUnread } }));
  const impersonation = createActor(
    impersonationMachine.provide({ actors: { startImpersonation, switchBack, reloadRoot } }),
    { input: { impersonationToken: readImpersonationToken() } },
  );
  const formDialog = (submit: typeof updateProfile, successMessage: string) =>
    createActor(formDialogMachine.provide({ actors: { submit } }), { input: { successMessage } });
  const profileForm = formDialog(updateProfile, PROFILE_MESSAGES.updated);
  const passwordForm = formDialog(changePassword, PASSWORD_MESSAGES.changed);
  const messageForm = formDialog(messageBoard, NOTIFICATION_MESSAGES.messageSent);

  // Toasts load with the shell chunk, never with /login.
  const toast = (notice: NotifyEmitted) => void import('./toasts').then(({ showToast }) => showToast(notice));
  for (const form of [profileForm, passwordForm, messageForm]) form.on('notify', toast);
  impersonation.on('notify', toast);
  profileForm.on('form.succeeded', () => session.send({ type: 'session.reloadProfile' }));

  // The unread count runs for a signed-in admin only, and pauses while the user is idle.
  let counting = false;
  session.subscribe((snapshot) => {
    const shouldCount = snapshot.hasTag('signedIn') && snapshot.context.user?.user_role === 'admin';
    if (shouldCount !== counting) {
      counting = shouldCount;
      unreadCount.send({ type: shouldCount ? 'unread.start' : 'unread.stop' });
      // Started while the user is already idle: wait for activity before polling.
      if (shouldCount && idle.getSnapshot().hasTag('idle')) unreadCount.send({ type: 'unread.pause' });
    }
  });
  let wasIdle = false;
  idle.subscribe((snapshot) => {
    const isIdle = snapshot.hasTag('idle');
    if (isIdle !== wasIdle) {
      wasIdle = isIdle;
      unreadCount.send({ type: isIdle ? 'unread.pause' : 'unread.resume' });
    }
  });

  const others = [idle, unreadCount, impersonation, profileForm, passwordForm, messageForm];
  for (const actor of others) actor.start();
  return {
    session,
    idle,
    unreadCount,
    impersonation,
    profileForm,
    passwordForm,
    messageForm,
    /** Stops every actor (tests make a fresh set per render). */
    stopAll: () => [session, ...others].forEach((actor) => actor.stop()),
  };
}

export type AppActors = ReturnType<typeof createAppActors>;
