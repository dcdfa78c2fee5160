import { assign, setup } from 'xstate';
import { NOTIFICATION_POLL_MS } from '../contract/notifications';
import { missingPromise } from './missing';

/**
 * The board's unread-notification count, for the bell and the sidebar badge: fetched while an admin is
 * signed in, refreshed every poll interval, paused while the user is idle and resumed on activity.
 */
export type UnreadCountEvent =
  | { type: 'unread.start' }
  /** Started for a user who is already idle: nothing is asked until they resume. */
  | { type: 'unread.startPaused' }
  | { type: 'unread.stop' }
  | { type: 'unread.pause' }
  | { type: 'unread.resume' }
  | { type: 'unread.refresh' };

export const unreadCountMachine = setup({
  types: {
    context: {} as { unread: number },
    events: {} as UnreadCountEvent,
  },
  actors: {
    countUnread: missingPromise<number, void>('unreadCount', 'countUnread'),
  },
  delays: { pollInterval: NOTIFICATION_POLL_MS },
}).createMachine({
  id: 'unreadCount',
  context: { unread: 0 },
  initial: 'stopped',
  states: {
    stopped: {
      on: {
        'unread.start': { target: 'running' },
        'unread.startPaused': { target: 'running.paused' },
      },
    },
    running: {
      initial: 'fetching',
      on: {
        'unread.stop': { target: 'stopped', actions: assign({ unread: 0 }) },
        'unread.pause': { target: '.paused' },
      },
      states: {
        fetching: {
          // A count already in flight may predate what the refresh is about (notifications just marked read).
          on: { 'unread.refresh': { target: 'fetching', reenter: true } },
          invoke: {
            id: 'countUnread',
            src: 'countUnread',
            onDone: { target: 'waiting', actions: assign({ unread: ({ event }) => event.output }) },
            // A failed background count keeps the last one shown (spec section 8: only logged).
            onError: { target: 'waiting' },
          },
        },
        waiting: {
          after: { pollInterval: { target: 'fetching' } },
          on: { 'unread.refresh': { target: 'fetching' } },
        },
        paused: {
          tags: ['paused'],
          // No refresh here: it would start the poll loop again while the user is idle. Resuming counts at once.
          on: { 'unread.resume': { target: 'fetching' } },
        },
      },
    },
  },
});
