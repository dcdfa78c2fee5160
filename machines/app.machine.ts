import { and, emit, fromCallback, sendTo, setup, stateIn, type AnyActorRef } from 'xstate';
import { NOTIFICATION_MESSAGES } from '../contract/notifications';
import { PASSWORD_MESSAGES, PROFILE_MESSAGES } from '../contract/profile';
import type { Role } from '../contract/roles';
import { formDialogMachine } from './formDialog.machine';
import { idleMachine } from './idle.machine';
import { impersonationMachine, type ImpersonationInput } from './impersonation.machine';
import type { NotifyEmitted } from './notify';
import { sessionMachine, type SessionInput } from './session.machine';
import { unreadCountMachine } from './unreadCount.machine';

/**
 * The app: its app-wide actors (the session, the idle timer, the unread count, impersonation and the
 * shell's three form dialogs), invoked here for as long as the portal is open, and how they work
 * together, as transitions of this chart: an admin's sign-in starts the unread count (paused at once if
 * the user is already idle), idleness pauses it, activity resumes it, signing out stops it; a saved
 * profile makes the session load the profile again; every child's `notify` is emitted again here, so one
 * subscriber shows every toast. It also knows whether the header's profile card is open.
 *
 * The children stay as they are and keep working alone (their own tests, a page's own form dialog):
 * they do not `sendParent` (which throws without a parent). What the app needs of them, a few facts,
 * reaches it as events from `watchChildren`, which reads them from the actor system.
 */

export interface AppInput {
  session: SessionInput;
  impersonation: ImpersonationInput;
}

export interface AppContext {
  /** What the session and impersonation actors start from (a stored token, a pending sign-in). */
  input: AppInput;
}

export type AppEvent =
  /** The session's signed-in role changed: `null` when nobody is signed in (watchChildren). */
  | { type: 'app.signedIn'; role: Role }
  | { type: 'app.signedOut' }
  /** The idle timer's flag changed (watchChildren). */
  | { type: 'app.idle' }
  | { type: 'app.active' }
  /** A child emitted `notify` (watchChildren). */
  | { type: 'app.notify'; notice: NotifyEmitted }
  /** The profile form saved (watchChildren). */
  | { type: 'app.profileSaved' }
  /** The header's read-only profile card, and its Edit profile button. */
  | { type: 'app.profileCard.open' }
  | { type: 'app.profileCard.close' }
  | { type: 'app.profileCard.edit' };

/** The children by their ids; each is also registered under the same systemId. */
const APP_CHILDREN = [
  'session',
  'idle',
  'unreadCount',
  'impersonation',
  'profileForm',
  'passwordForm',
  'messageForm',
] as const;
export type AppChildName = (typeof APP_CHILDREN)[number];

interface SessionFacts {
  hasTag(tag: string): boolean;
  context: { user: { user_role: Role } | null };
}

/** The signed-in role a session snapshot shows, or null. */
const signedInRole = (session: SessionFacts): Role | null =>
  session.hasTag('signedIn') ? (session.context.user?.user_role ?? null) : null;

/**
 * Reports what the app coordinates on: the session's signed-in role and the idle flag when they change,
 * every `notify` a child emits, and the profile form's success. It only listens; it decides nothing.
 */
const watchChildren = fromCallback<AppEvent>(({ system, sendBack }) => {
  const child = (name: AppChildName) => system.get(name) as AnyActorRef | undefined;
  const stops: Array<() => void> = [];
  const session = child('session');
  if (session) {
    let role: Role | null = null;
    const report = (snapshot: SessionFacts) => {
      const now = signedInRole(snapshot);
      if (now === role) return;
      role = now;
      sendBack(now ? { type: 'app.signedIn', role: now } : { type: 'app.signedOut' });
    };
    report(session.getSnapshot() as SessionFacts);
    const subscription = session.subscribe(report);
    stops.push(() => subscription.unsubscribe());
  }
  const idle = child('idle');
  if (idle) {
    let wasIdle = false;
    const report = (snapshot: { hasTag(tag: string): boolean }) => {
      const isIdle = snapshot.hasTag('idle');
      if (isIdle === wasIdle) return;
      wasIdle = isIdle;
      sendBack({ type: isIdle ? 'app.idle' : 'app.active' });
    };
    report(idle.getSnapshot() as { hasTag(tag: string): boolean });
    const subscription = idle.subscribe(report);
    stops.push(() => subscription.unsubscribe());
  }
  for (const name of APP_CHILDREN) {
    const subscription = child(name)?.on('notify', (notice: NotifyEmitted) =>
      sendBack({ type: 'app.notify', notice }),
    );
    if (subscription) stops.push(() => subscription.unsubscribe());
  }
  const saved = child('profileForm')?.on('form.succeeded', () => sendBack({ type: 'app.profileSaved' }));
  if (saved) stops.push(() => saved.unsubscribe());
  return () => stops.forEach((stop) => stop());
});

export const appMachine = setup({
  types: {
    input: {} as AppInput,
    context: {} as AppContext,
    events: {} as AppEvent,
    emitted: {} as NotifyEmitted,
  },
  actors: {
    session: sessionMachine,
    idle: idleMachine,
    unreadCount: unreadCountMachine,
    impersonation: impersonationMachine,
    profileForm: formDialogMachine,
    passwordForm: formDialogMachine,
    messageForm: formDialogMachine,
    watchChildren,
  },
  guards: {
    /** The sign-in reported is a board admin's. */
    isAdmin: ({ event }) => event.type === 'app.signedIn' && event.role === 'admin',
    userIdle: stateIn({ activity: 'idle' }),
  },
  actions: {
    startCounting: sendTo('unreadCount', { type: 'unread.start' }),
    startCountingPaused: sendTo('unreadCount', { type: 'unread.startPaused' }),
    stopCounting: sendTo('unreadCount', { type: 'unread.stop' }),
    // The count ignores these while it is stopped.
    pauseCounting: sendTo('unreadCount', { type: 'unread.pause' }),
    resumeCounting: sendTo('unreadCount', { type: 'unread.resume' }),
  },
}).createMachine({
  id: 'app',
  context: ({ input }) => ({ input }),
  invoke: [
    { id: 'session', systemId: 'session', src: 'session', input: ({ context }) => context.input.session },
    { id: 'idle', systemId: 'idle', src: 'idle' },
    { id: 'unreadCount', systemId: 'unreadCount', src: 'unreadCount' },
    {
      id: 'impersonation',
      systemId: 'impersonation',
      src: 'impersonation',
      input: ({ context }) => context.input.impersonation,
    },
    {
      id: 'profileForm',
      systemId: 'profileForm',
      src: 'profileForm',
      input: { successMessage: PROFILE_MESSAGES.updated },
    },
    {
      id: 'passwordForm',
      systemId: 'passwordForm',
      src: 'passwordForm',
      input: { successMessage: PASSWORD_MESSAGES.changed },
    },
    {
      id: 'messageForm',
      systemId: 'messageForm',
      src: 'messageForm',
      input: { successMessage: NOTIFICATION_MESSAGES.messageSent },
    },
    // Last, so that every child it listens to has started.
    { id: 'watchChildren', src: 'watchChildren' },
  ],
  type: 'parallel',
  on: {
    'app.notify': {
      actions: emit(({ event }) => ({
        type: 'notify' as const,
        tone: event.notice.tone,
        message: event.notice.message,
      })),
    },
    'app.profileSaved': { actions: sendTo('session', { type: 'session.reloadProfile' }) },
  },
  states: {
    /** Who is signed in, as far as the app cares: the unread count is the board admins'. */
    account: {
      initial: 'signedOut',
      states: {
        signedOut: {
          on: {
            'app.signedIn': [
              {
                // Already idle: counting waits (paused at once) until the user comes back.
                guard: and(['isAdmin', 'userIdle']),
                target: 'admin',
                actions: 'startCountingPaused',
              },
              {
                guard: 'isAdmin',
                target: 'admin',
                actions: 'startCounting',
              },
              { target: 'schoolAdmin' },
            ],
          },
        },
        admin: {
          on: { 'app.signedOut': { target: 'signedOut', actions: 'stopCounting' } },
        },
        schoolAdmin: {
          on: { 'app.signedOut': { target: 'signedOut' } },
        },
      },
    },
    /** Whether the user is idle (spec section 4): the portal stops polling while they are. */
    activity: {
      initial: 'active',
      states: {
        active: { on: { 'app.idle': { target: 'idle', actions: 'pauseCounting' } } },
        idle: {
          tags: ['idle'],
          on: { 'app.active': { target: 'active', actions: 'resumeCounting' } },
        },
      },
    },
    /** The header's "Your profile" card; its Edit profile button opens the profile form in its place. */
    profileCard: {
      initial: 'closed',
      states: {
        closed: { on: { 'app.profileCard.open': { target: 'open' } } },
        open: {
          tags: ['profileCard'],
          on: {
            'app.profileCard.close': { target: 'closed' },
            'app.profileCard.edit': {
              target: 'closed',
              actions: sendTo('profileForm', { type: 'form.open' }),
            },
          },
        },
      },
    },
  },
});
