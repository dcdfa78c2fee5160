import { setup } from 'xstate';
import { IDLE_TIMEOUT_MS } from '../contract/constants';
import { missingCallback } from './missing';

/**
 * The idle timer (spec section 4): after 10,000 ms without a click or a scroll the idle flag is set;
 * any click or scroll clears it. While idle the portal stops polling the server.
 */
export type IdleEvent = { type: 'idle.activity' };

export const idleMachine = setup({
  types: { events: {} as IdleEvent },
  actors: {
    /** Sends 'idle.activity' on every click and scroll of the page. */
    watchActivity: missingCallback<IdleEvent>('idle', 'watchActivity'),
  },
  delays: { idleTimeout: IDLE_TIMEOUT_MS },
}).createMachine({
  id: 'idle',
  invoke: { id: 'activity', src: 'watchActivity' },
  initial: 'active',
  states: {
    active: {
      after: { idleTimeout: { target: 'idle' } },
      // Re-entering restarts the timer.
      on: { 'idle.activity': { target: 'active', reenter: true } },
    },
    idle: {
      tags: ['idle'],
      on: { 'idle.activity': { target: 'active' } },
    },
  },
});
