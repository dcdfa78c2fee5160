import { assign, emit, setup } from 'xstate';
import type {
  ImpersonationStarted,
  StartImpersonationPayload,
  SwitchedBack,
} from '../contract/impersonation';
import { asFailure } from './failure';
import { missingPromise } from './missing';
import type { NotifyEmitted } from './notify';

/**
 * An admin signs in as a school admin, giving a reason, and switches back (spec sections 2, 4, 7).
 * While the switch-back token exists the portal is impersonating: the profile menu offers Switch To
 * Admin. Both ends reload the root page, so every actor starts again as the new user.
 */
export interface ImpersonationInput {
  /** The switch-back token kept by the browser, when one exists. */
  impersonationToken: string | null;
}

/** The school admin the admin asked to sign in as. */
export interface ImpersonationTarget {
  id: number;
  name: string;
  email: string;
}

export interface ImpersonationContext {
  token: string | null;
  target: ImpersonationTarget | null;
  error: string | null;
}

export type ImpersonationEvent =
  | { type: 'impersonation.request'; user: ImpersonationTarget }
  | { type: 'impersonation.confirm'; reason: string }
  | { type: 'impersonation.cancel' }
  | { type: 'impersonation.switchBack' };

export const impersonationMachine = setup({
  types: {
    input: {} as ImpersonationInput,
    context: {} as ImpersonationContext,
    events: {} as ImpersonationEvent,
    emitted: {} as NotifyEmitted,
  },
  actors: {
    /** Asks the server, then keeps the school admin's token and the switch-back token. */
    startImpersonation: missingPromise<ImpersonationStarted, StartImpersonationPayload>(
      'impersonation',
      'startImpersonation',
    ),
    /** Posts the switch-back token, then keeps the admin's new token and drops the switch-back one. */
    switchBack: missingPromise<SwitchedBack, { token: string }>('impersonation', 'switchBack'),
    /** Loads the root page afresh; it never resolves, the page goes away. */
    reloadRoot: missingPromise<void, void>('impersonation', 'reloadRoot'),
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    /** The server will never honour this switch-back token (403): keeping it would offer a dead button. */
    switchBackRefused: (_, params: { error: unknown }) => asFailure(params.error).status === 403,
  },
  actions: {
    notifyError: emit((_, params: { error: unknown }) => ({
      type: 'notify' as const,
      tone: 'error' as const,
      message: asFailure(params.error).message,
    })),
  },
}).createMachine({
  id: 'impersonation',
  context: ({ input }) => ({ token: input.impersonationToken, target: null, error: null }),
  initial: 'deciding',
  states: {
    deciding: {
      always: [{ guard: 'hasToken', target: 'impersonating' }, { target: 'notImpersonating' }],
    },
    notImpersonating: {
      on: {
        'impersonation.request': {
          target: 'askingReason',
          actions: assign({ target: ({ event }) => event.user, error: null }),
        },
      },
    },
    askingReason: {
      on: {
        // A new attempt clears the last failure, as switching back does, so none shows under the spinner.
        'impersonation.confirm': { target: 'starting', actions: assign({ error: null }) },
        'impersonation.cancel': {
          target: 'notImpersonating',
          actions: assign({ target: null, error: null }),
        },
      },
    },
    starting: {
      tags: ['busy'],
      invoke: {
        id: 'startImpersonation',
        src: 'startImpersonation',
        input: ({ context, event }) => ({
          user_id: context.target!.id,
          reason: (event as Extract<ImpersonationEvent, { type: 'impersonation.confirm' }>).reason,
        }),
        onDone: {
          target: 'reloading',
          actions: assign({ token: ({ event }) => event.output.impersonation_token }),
        },
        onError: {
          target: 'askingReason',
          actions: [
            assign({ error: ({ event }) => asFailure(event.error).message }),
            { type: 'notifyError', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
    impersonating: {
      tags: ['impersonating'],
      on: { 'impersonation.switchBack': { target: 'switchingBack', actions: assign({ error: null }) } },
    },
    switchingBack: {
      tags: ['impersonating', 'busy'],
      invoke: {
        id: 'switchBack',
        src: 'switchBack',
        input: ({ context }) => ({ token: context.token! }),
        onDone: { target: 'reloading', actions: assign({ token: null }) },
        onError: [
          {
            guard: { type: 'switchBackRefused', params: ({ event }) => ({ error: event.error }) },
            target: 'notImpersonating',
            actions: [
              assign({ token: null, error: ({ event }) => asFailure(event.error).message }),
              { type: 'notifyError', params: ({ event }) => ({ error: event.error }) },
            ],
          },
          {
            target: 'impersonating',
            actions: [
              assign({ error: ({ event }) => asFailure(event.error).message }),
              { type: 'notifyError', params: ({ event }) => ({ error: event.error }) },
            ],
          },
        ],
      },
    },
    reloading: {
      tags: ['busy'],
      invoke: { id: 'reloadRoot', src: 'reloadRoot' },
    },
  },
});
