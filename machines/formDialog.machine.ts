import { assign, emit, setup } from 'xstate';
import type { FieldMessages } from '../contract/envelope';
import { asFailure } from './failure';
import { missingPromise } from './missing';
import type { NotifyEmitted } from './notify';

/**
 * A form in a dialog that sends itself to the server: Edit profile, Change password, a message to the
 * board. Success closes the dialog (so the form is reset) and toasts the server's message; failure keeps
 * the dialog and what was typed, toasts the first message and puts field messages beside the fields.
 */
export interface FormDialogInput {
  /** The toast when the server says nothing of its own. */
  successMessage: string;
}

export interface FormDialogContext {
  successMessage: string;
  /** What the open dialog is about (the school being edited, the admin to mail), or null for a new one.
   * Kept after closing, so a closing dialog still shows it; the next opening replaces it. */
  subject: unknown;
  fieldErrors: FieldMessages;
  /** The last failure's sentence, also shown inside the dialog: a modal dialog hides the toast area
   * from screen readers, so the dialog must say it too. */
  error: string | null;
}

export type FormDialogEvent =
  | { type: 'form.open'; subject?: unknown }
  | { type: 'form.close' }
  | { type: 'form.submit'; values: FormValues };

/** What the form holds: text, and files (a photo) for multipart forms. */
export type FormValues = Record<string, string | File | null>;

export type FormDialogEmitted = NotifyEmitted | { type: 'form.succeeded' };

export const formDialogMachine = setup({
  types: {
    input: {} as FormDialogInput,
    context: {} as FormDialogContext,
    events: {} as FormDialogEvent,
    emitted: {} as FormDialogEmitted,
  },
  actors: {
    submit: missingPromise<{ message?: string }, FormValues>('formDialog', 'submit'),
  },
  actions: {
    notify: emit((_, params: Omit<NotifyEmitted, 'type'>) => ({ type: 'notify' as const, ...params })),
  },
}).createMachine({
  id: 'formDialog',
  context: ({ input }) => ({
    successMessage: input.successMessage,
    subject: null,
    fieldErrors: {},
    error: null,
  }),
  initial: 'closed',
  states: {
    closed: {
      on: {
        'form.open': {
          target: 'open',
          actions: assign({ subject: ({ event }) => event.subject ?? null, fieldErrors: {}, error: null }),
        },
      },
    },
    open: {
      tags: ['open'],
      initial: 'editing',
      states: {
        editing: {
          on: {
            // A new attempt clears the last attempt's field messages, so none shows beside a corrected field.
            'form.submit': { target: 'submitting', actions: assign({ fieldErrors: {}, error: null }) },
            'form.close': { target: '#formDialog.closed' },
          },
        },
        submitting: {
          tags: ['busy'],
          invoke: {
            id: 'submit',
            src: 'submit',
            input: ({ event }) => (event as Extract<FormDialogEvent, { type: 'form.submit' }>).values,
            onDone: {
              target: '#formDialog.closed',
              actions: [
                {
                  type: 'notify',
                  params: ({ context, event }) => ({
                    tone: 'success' as const,
                    message: event.output.message || context.successMessage,
                  }),
                },
                emit({ type: 'form.succeeded' as const }),
              ],
            },
            onError: {
              target: 'editing',
              actions: [
                assign({
                  fieldErrors: ({ event }) => asFailure(event.error).fields,
                  error: ({ event }) => asFailure(event.error).message,
                }),
                {
                  type: 'notify',
                  params: ({ event }) => ({
                    tone: 'error' as const,
                    message: asFailure(event.error).message,
                  }),
                },
              ],
            },
          },
        },
      },
    },
  },
});
