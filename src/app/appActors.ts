import { createActor, type ActorRefFrom } from 'xstate';
import { appMachine, type AppChildName } from '../../machines/app.machine';
import { formDialogMachine } from '../../machines/formDialog.machine';
import { idleMachine } from '../../machines/idle.machine';
import { impersonationMachine } from '../../machines/impersonation.machine';
import { sessionMachine } from '../../machines/session.machine';
import { unreadCountMachine } from '../../machines/unreadCount.machine';
import { readImpersonationToken, readToken } from '../api/cookies';
import { readPendingLogin } from '../api/pendingLogin';
import { sessionActors } from '../api/session';
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
import { inspectAppActors } from './liveStates';
import { connectSession } from './session';

/**
 * The app actor (machines/app.machine.ts), each child handed its I/O from src/api. How the children work
 * together is the app machine's chart; here they are only made, and their toasts shown.
 */
const appLogic = appMachine.provide({
  actors: {
    session: sessionMachine.provide({ actors: sessionActors }),
    idle: idleMachine.provide({ actors: { watchActivity } }),
    unreadCount: unreadCountMachine.provide({ actors: { countUnread } }),
    impersonation: impersonationMachine.provide({ actors: { startImpersonation, switchBack, reloadRoot } }),
    profileForm: formDialogMachine.provide({ actors: { submit: updateProfile } }),
    passwordForm: formDialogMachine.provide({ actors: { submit: changePassword } }),
    messageForm: formDialogMachine.provide({ actors: { submit: messageBoard } }),
  },
});

/** The children the views read, by name. */
interface AppChildren {
  session: ActorRefFrom<typeof sessionMachine>;
  idle: ActorRefFrom<typeof idleMachine>;
  unreadCount: ActorRefFrom<typeof unreadCountMachine>;
  impersonation: ActorRefFrom<typeof impersonationMachine>;
  profileForm: ActorRefFrom<typeof formDialogMachine>;
  passwordForm: ActorRefFrom<typeof formDialogMachine>;
  messageForm: ActorRefFrom<typeof formDialogMachine>;
}

export function createAppActors() {
  const app = createActor(appLogic, {
    input: {
      session: { hasStoredToken: readToken() !== null, pendingLogin: readPendingLogin() },
      impersonation: { impersonationToken: readImpersonationToken() },
    },
    // What /statecharts shows a signed-in user of their own actors, as it changes (state values only).
    inspect: inspectAppActors,
  });
  // The one toast subscriber: the app emits every child's `notify`. Toasts load with the shell chunk,
  // never with /login.
  app.on('notify', (notice) => void import('./toasts').then(({ showToast }) => showToast(notice)));
  app.start();
  const child = <K extends AppChildName>(name: K) => app.system.get(name) as AppChildren[K];
  const children: AppChildren = {
    session: child('session'),
    idle: child('idle'),
    unreadCount: child('unreadCount'),
    impersonation: child('impersonation'),
    profileForm: child('profileForm'),
    passwordForm: child('passwordForm'),
    messageForm: child('messageForm'),
  };
  const disconnect = connectSession(children.session);
  return {
    app,
    ...children,
    /** Stops the app and with it every child (tests make a fresh set per render). */
    stopAll: () => {
      disconnect();
      app.stop();
    },
  };
}

export type AppActors = ReturnType<typeof createAppActors>;
