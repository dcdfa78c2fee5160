import { assign, setup } from 'xstate';
import type { RegistrationWindow } from '../contract/diets';
import { missingPromise } from './missing';

/**
 * The registration window's countdown ('Registration closes in 3 days 4 hours') on a school admin's
 * dashboard and Registered Candidates. The server decides the window and says its own time
 * (`server_now`): the count starts from what is left by the server's clock, never the browser's, and is
 * counted down by a named delay, a minute at a time. At zero the window is asked for again (it has
 * closed, or opened, or an extension moved it); it is asked again every quarter of an hour anyway, so a
 * laptop woken from sleep soon shows the truth.
 */

export const TICK_MS = 60_000;
/** Ticks before the window is asked for again though nothing is due. */
export const REFRESH_TICKS = 15;
export const RETRY_MS = 60_000;

export interface RegistrationWindowContext {
  window: RegistrationWindow | null;
  /** Milliseconds to the window's next change (its close, or its opening), by the server's clock. */
  remaining: number | null;
  ticks: number;
}

export type RegistrationWindowEvent = { type: 'window.refresh' };

const untilChange = (window: RegistrationWindow) =>
  window.next_change_at
    ? Math.max(0, Date.parse(window.next_change_at) - Date.parse(window.server_now))
    : null;

export const registrationWindowMachine = setup({
  types: {
    context: {} as RegistrationWindowContext,
    events: {} as RegistrationWindowEvent,
  },
  actors: {
    loadWindow: missingPromise<RegistrationWindow, void>('registrationWindow', 'loadWindow'),
  },
  delays: {
    // A minute, or what is left of the last one.
    tick: ({ context }) => Math.min(TICK_MS, context.remaining ?? TICK_MS),
    recheck: TICK_MS * REFRESH_TICKS,
    retry: RETRY_MS,
  },
  guards: {
    counting: ({ context }) => context.remaining !== null,
    due: ({ context }) => (context.remaining ?? 0) <= TICK_MS || context.ticks + 1 >= REFRESH_TICKS,
  },
}).createMachine({
  id: 'registrationWindow',
  context: { window: null, remaining: null, ticks: 0 },
  initial: 'loading',
  on: { 'window.refresh': { target: '.loading' } },
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadWindow',
        src: 'loadWindow',
        onDone: {
          target: 'known',
          actions: assign({
            window: ({ event }) => event.output,
            remaining: ({ event }) => untilChange(event.output),
            ticks: 0,
          }),
        },
        onError: { target: 'failed' },
      },
    },
    known: {
      initial: 'deciding',
      states: {
        deciding: {
          always: [{ guard: 'counting', target: 'counting' }, { target: 'settled' }],
        },
        counting: {
          tags: ['counting'],
          after: {
            tick: [
              { guard: 'due', target: '#registrationWindow.loading' },
              {
                target: 'counting',
                reenter: true,
                actions: assign({
                  remaining: ({ context }) => context.remaining! - TICK_MS,
                  ticks: ({ context }) => context.ticks + 1,
                }),
              },
            ],
          },
        },
        // Nothing is due (no current diet, or it has closed for good): asked again now and then.
        settled: {
          after: { recheck: { target: '#registrationWindow.loading' } },
        },
      },
    },
    // The last window known stays shown; asked again in a minute.
    failed: {
      tags: ['failed'],
      after: { retry: { target: 'loading' } },
    },
  },
});
