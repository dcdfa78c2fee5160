import { assign, setup } from 'xstate';

/**
 * A question asked before a step (remove this row from the list?), and what it is about: the subject
 * is kept in context from the asking, so the view shows it and the page acts on it once the user says
 * yes. The step itself is the page's (a list's row action), so a confirmation does no I/O.
 */
export interface ConfirmDialogContext {
  /** What the question is about (the row to remove); kept after closing, replaced by the next question. */
  subject: unknown;
}

export type ConfirmDialogEvent =
  { type: 'confirm.ask'; subject: unknown } | { type: 'confirm.accept' } | { type: 'confirm.cancel' };

export const confirmDialogMachine = setup({
  types: {
    context: {} as ConfirmDialogContext,
    events: {} as ConfirmDialogEvent,
  },
}).createMachine({
  id: 'confirmDialog',
  context: { subject: null },
  initial: 'closed',
  states: {
    closed: {
      on: { 'confirm.ask': { target: 'asking', actions: assign({ subject: ({ event }) => event.subject }) } },
    },
    asking: {
      tags: ['open'],
      on: {
        'confirm.accept': { target: 'closed' },
        'confirm.cancel': { target: 'closed' },
      },
    },
  },
});
