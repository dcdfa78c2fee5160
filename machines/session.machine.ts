import { assign, setup } from 'xstate';
import type { ConfirmCodePayload, LoginChallenge, LoginPayload, SignedIn } from '../contract/auth';
import type { FieldMessages } from '../contract/envelope';
import { asFailure } from './failure';
import type { User } from '../contract/user';
import { missingPromise } from './missing';

/**
 * The session: signing in with a password and a mailed code, the signed-in user, logging out, and the
 * 401 path. All I/O arrives as the named actors below (src/api provides them); views only render.
 */

export interface SessionInput {
  /** A token cookie exists, so the profile is loaded to find out whether it is still good. */
  hasStoredToken: boolean;
  /** A sign-in that was waiting for its code when the page was reloaded. */
  pendingLogin: LoginChallenge | null;
}

export interface SessionContext {
  user: User | null;
  challenge: LoginChallenge | null;
  /** The message of the last failure, for the view to show. */
  error: string | null;
  fieldErrors: FieldMessages;
  /** A sentence for the user that is not an error ('a new code has been sent'). */
  notice: string | null;
  /** Why the session ended: 'expired' sends the user back to where they were after signing in. */
  endedBecause: 'expired' | 'loggedOut' | null;
  /** A token was stored when the portal opened; read once, to decide whether to load the profile. */
  tokenStored: boolean;
}

export type SessionEvent =
  | { type: 'session.signIn'; email: string; password: string }
  | { type: 'session.confirm'; code: string }
  | { type: 'session.resend' }
  | { type: 'session.cancel' }
  | { type: 'session.retry' }
  | { type: 'session.signOut' }
  | { type: 'session.signOut.confirm' }
  | { type: 'session.signOut.cancel' }
  | { type: 'session.reloadProfile' }
  | { type: 'session.expired' };

const missing = <TOutput, TInput>(actor: string) => missingPromise<TOutput, TInput>('session', actor);

const failure = asFailure;

const cleared = { error: null, fieldErrors: {}, notice: null } as const;

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actors: {
    signIn: missing<LoginChallenge, LoginPayload>('signIn'),
    confirmCode: missing<SignedIn, ConfirmCodePayload>('confirmCode'),
    resendCode: missing<{ message: string }, LoginChallenge>('resendCode'),
    loadProfile: missing<User, void>('loadProfile'),
    signOut: missing<void, void>('signOut'),
  },
  guards: {
    hasStoredToken: ({ context }) => context.tokenStored,
    hasPendingLogin: ({ context }) => context.challenge !== null,
    wasUnauthenticated: (_, params: { error: unknown }) => failure(params.error).status === 401,
    /** 410: the server voided the pending sign-in (too many wrong codes, expired, already used). */
    signInGone: (_, params: { error: unknown }) => failure(params.error).status === 410,
  },
  actions: {
    rememberFailure: assign((_, params: { error: unknown }) => {
      const { message, fields } = failure(params.error);
      return { error: message, fieldErrors: fields, notice: null };
    }),
    forgetSession: assign({ user: null, challenge: null, tokenStored: false, ...cleared }),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    user: null,
    challenge: input.pendingLogin,
    ...cleared,
    endedBecause: null,
    tokenStored: input.hasStoredToken,
  }),
  initial: 'starting',
  on: {
    'session.expired': {
      target: '.signedOut',
      actions: ['forgetSession', assign({ endedBecause: 'expired' })],
    },
  },
  states: {
    starting: {
      always: [
        { guard: 'hasStoredToken', target: 'loadingProfile' },
        { guard: 'hasPendingLogin', target: 'awaitingCode' },
        { target: 'signedOut' },
      ],
    },
    signedOut: {
      tags: ['signedOut'],
      on: {
        'session.signIn': { target: 'signingIn', actions: assign({ ...cleared }) },
      },
    },
    signingIn: {
      tags: ['signedOut', 'busy'],
      invoke: {
        id: 'signIn',
        src: 'signIn',
        input: ({ event }) => {
          const { email, password } = event as Extract<SessionEvent, { type: 'session.signIn' }>;
          return { email, password };
        },
        onDone: {
          target: 'awaitingCode',
          actions: assign(({ event }) => ({ challenge: event.output, ...cleared })),
        },
        onError: {
          target: 'signedOut',
          actions: { type: 'rememberFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    awaitingCode: {
      tags: ['signedOut', 'awaitingCode'],
      on: {
        'session.confirm': { target: 'confirming', actions: assign({ ...cleared }) },
        'session.resend': { target: 'resendingCode', actions: assign({ ...cleared }) },
        'session.cancel': { target: 'signedOut', actions: 'forgetSession' },
      },
    },
    resendingCode: {
      tags: ['signedOut', 'awaitingCode', 'busy'],
      invoke: {
        id: 'resendCode',
        src: 'resendCode',
        input: ({ context }) => context.challenge!,
        onDone: {
          target: 'awaitingCode',
          actions: assign(({ event }) => ({ notice: event.output.message })),
        },
        onError: [
          {
            // The sign-in is gone (expired or voided): no code can ever confirm it, so start again.
            guard: { type: 'signInGone', params: ({ event }) => ({ error: event.error }) },
            target: 'signedOut',
            actions: [
              'forgetSession',
              { type: 'rememberFailure', params: ({ event }) => ({ error: event.error }) },
            ],
          },
          {
            target: 'awaitingCode',
            actions: { type: 'rememberFailure', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    confirming: {
      tags: ['signedOut', 'awaitingCode', 'busy'],
      invoke: {
        id: 'confirmCode',
        src: 'confirmCode',
        input: ({ context, event }) => ({
          login_id: context.challenge!.login_id,
          code: (event as Extract<SessionEvent, { type: 'session.confirm' }>).code,
        }),
        // The answer carries the user as the profile's read gives it: no second round trip before the
        // first page (issue 28: a sign-in on slow 3G waited 0.4 s more for the same user).
        onDone: {
          target: 'signedIn',
          actions: assign(({ event }) => ({
            user: event.output.user,
            challenge: null,
            endedBecause: null,
            ...cleared,
          })),
        },
        onError: [
          {
            // The server voided the sign-in (too many wrong codes, or it expired): start again.
            guard: { type: 'signInGone', params: ({ event }) => ({ error: event.error }) },
            target: 'signedOut',
            actions: [
              'forgetSession',
              { type: 'rememberFailure', params: ({ event }) => ({ error: event.error }) },
            ],
          },
          {
            target: 'awaitingCode',
            actions: { type: 'rememberFailure', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    loadingProfile: {
      tags: ['busy'],
      invoke: {
        id: 'loadProfile',
        src: 'loadProfile',
        onDone: {
          target: 'signedIn',
          actions: assign(({ event }) => ({ user: event.output, ...cleared })),
        },
        onError: [
          {
            guard: { type: 'wasUnauthenticated', params: ({ event }) => ({ error: event.error }) },
            target: 'signedOut',
            actions: ['forgetSession', assign({ endedBecause: 'expired' })],
          },
          {
            target: 'profileUnavailable',
            actions: { type: 'rememberFailure', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    profileUnavailable: {
      // The network failed while loading the profile: the token may be good, so offer to try again.
      on: {
        'session.retry': { target: 'loadingProfile', actions: assign({ ...cleared }) },
        'session.signOut': { target: 'signingOut' },
      },
    },
    signedIn: {
      tags: ['signedIn'],
      initial: 'idle',
      states: {
        idle: {
          on: {
            'session.signOut': { target: 'confirmingSignOut' },
            'session.reloadProfile': { target: 'reloadingProfile' },
          },
        },
        confirmingSignOut: {
          on: {
            'session.signOut.confirm': { target: '#session.signingOut' },
            'session.signOut.cancel': { target: 'idle' },
          },
        },
        reloadingProfile: {
          invoke: {
            id: 'reloadProfile',
            src: 'loadProfile',
            onDone: { target: 'idle', actions: assign(({ event }) => ({ user: event.output })) },
            onError: [
              {
                // A 401 means the token is dead: keeping the profile on screen would hide that.
                guard: { type: 'wasUnauthenticated', params: ({ event }) => ({ error: event.error }) },
                target: '#session.signedOut',
                actions: ['forgetSession', assign({ endedBecause: 'expired' })],
              },
              // Any other failed background reload keeps the profile already shown (spec section 8: only logged).
              { target: 'idle' },
            ],
          },
        },
      },
    },
    signingOut: {
      tags: ['busy'],
      invoke: {
        id: 'signOut',
        src: 'signOut',
        // Whether or not the server answered, the local session is gone (the actor clears the cookies).
        onDone: { target: 'signedOut', actions: ['forgetSession', assign({ endedBecause: 'loggedOut' })] },
        onError: { target: 'signedOut', actions: ['forgetSession', assign({ endedBecause: 'loggedOut' })] },
      },
    },
  },
});
