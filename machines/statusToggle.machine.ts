import { assign, emit, enqueueActions, setup } from 'xstate';
import { asFailure } from './failure';
import { missingPromise } from './missing';
import type { NotifyEmitted } from './notify';

/**
 * One status of one list row (a candidate's reg_status, a course header's indexing_status, a school's
 * status), changed in the list: one actor per row, spawned by the list. A change that needs it is
 * confirmed first; while the server updates it the row shows the new value; a success says the
 * server's sentence, a failure puts the old value back and says why.
 */
export interface StatusToggleInput {
  /** The row: its id, and the status field this toggle changes. */
  row: { id: number | string } & Record<string, unknown>;
  field: string;
  /** Values whose choice is confirmed first (taking a candidate off the exam, suspending a school). */
  confirmValues?: readonly string[];
}

export interface StatusToggleContext {
  id: number | string;
  field: string;
  /** What the row shows: the new value while it is being saved. */
  value: string;
  /** The value to put back if the server refuses. */
  saved: string;
  /** The value waiting for confirmation. */
  pending: string | null;
  confirmValues: readonly string[];
  error: string | null;
}

export type StatusToggleEvent =
  { type: 'toggle.change'; value: string } | { type: 'toggle.confirm' } | { type: 'toggle.cancel' };

export const statusToggleMachine = setup({
  types: {
    input: {} as StatusToggleInput,
    context: {} as StatusToggleContext,
    events: {} as StatusToggleEvent,
    emitted: {} as NotifyEmitted,
  },
  actors: {
    /** Saves the value; resolves with the value the server now holds. */
    updateStatus: missingPromise<
      { value: string; message?: string },
      { id: number | string; field: string; value: string }
    >('statusToggle', 'updateStatus'),
  },
  guards: {
    isSame: ({ context }, params: { value: string }) => params.value === context.value,
    needsConfirmation: ({ context }, params: { value: string }) =>
      context.confirmValues.includes(params.value),
  },
}).createMachine({
  id: 'statusToggle',
  context: ({ input }) => {
    const value = String(input.row[input.field] ?? '');
    return {
      id: input.row.id,
      field: input.field,
      value,
      saved: value,
      pending: null,
      confirmValues: input.confirmValues ?? [],
      error: null,
    };
  },
  initial: 'ready',
  states: {
    ready: {
      initial: 'saved',
      states: {
        saved: {},
        // The server refused: the old value is back, the reason is in context.error.
        failed: { tags: ['failed'] },
      },
      on: {
        'toggle.change': [
          { guard: { type: 'isSame', params: ({ event }) => ({ value: event.value }) } },
          {
            guard: { type: 'needsConfirmation', params: ({ event }) => ({ value: event.value }) },
            target: 'confirming',
            actions: assign({ pending: ({ event }) => event.value, error: null }),
          },
          {
            target: 'updating',
            actions: assign({ pending: ({ event }) => event.value, error: null }),
          },
        ],
      },
    },
    confirming: {
      tags: ['confirming'],
      on: {
        'toggle.confirm': { target: 'updating' },
        'toggle.cancel': { target: 'ready', actions: assign({ pending: null }) },
      },
    },
    updating: {
      tags: ['busy'],
      entry: assign({ value: ({ context }) => context.pending!, pending: null }),
      invoke: {
        id: 'updateStatus',
        src: 'updateStatus',
        input: ({ context }) => ({ id: context.id, field: context.field, value: context.value }),
        onDone: {
          target: 'ready.saved',
          actions: [
            assign({
              value: ({ event }) => event.output.value,
              saved: ({ event }) => event.output.value,
            }),
            // The server's sentence, when it says one, is toasted (announced), so a change is heard.
            enqueueActions(({ event, enqueue }) => {
              const { message } = event.output;
              if (message) enqueue.emit({ type: 'notify', tone: 'success', message });
            }),
          ],
        },
        onError: {
          target: 'ready.failed',
          actions: [
            assign({
              value: ({ context }) => context.saved,
              error: ({ event }) => asFailure(event.error).message,
            }),
            emit(({ context }) => ({
              type: 'notify' as const,
              tone: 'error' as const,
              message: context.error ?? '',
            })),
          ],
        },
      },
    },
  },
});
