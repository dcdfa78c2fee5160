import { assign, emit, setup } from 'xstate';
import type { CandidateRecord } from '../contract/candidates';
import type { FieldMessages } from '../contract/envelope';
import { asFailure } from './failure';
import type { FormValues } from './formDialog.machine';
import { missingCallback, missingPromise } from './missing';
import type { NotifyEmitted } from './notify';

/**
 * The candidate form's submission (issue: candidates): the spec's rules checked in the browser first,
 * then the upload with its progress, the server's own checks mapped back beside each field, and a
 * network failure that can be retried without indexing the candidate twice (the same submission key
 * goes with every attempt, and the server answers a repeated key with the first result).
 * Nothing typed is ever lost: the values stay in the form and in context until a success.
 */
export interface CandidateFormInput {
  /** A fresh key for this form; a new form (after a success) gets a new one. */
  submissionKey: string;
  /** Editing an existing candidate, or indexing a new one. */
  candidateId?: number | null;
}

export interface CandidateFormContext {
  submissionKey: string;
  candidateId: number | null;
  values: FormValues | null;
  fieldErrors: FieldMessages;
  error: string | null;
  /** Upload progress, 0 to 1, while submitting. */
  progress: number;
  result: CandidateRecord | null;
}

export type CandidateFormEvent =
  | { type: 'candidate.submit'; values: FormValues }
  | { type: 'candidate.retry' }
  | { type: 'candidate.new'; submissionKey: string }
  // Sent by the submit actor while it runs.
  | { type: 'candidate.progress'; loaded: number; total: number }
  | { type: 'candidate.saved'; record: CandidateRecord; message: string }
  | { type: 'candidate.failed'; error: unknown };

export interface SubmitCandidateInput {
  values: FormValues;
  submissionKey: string;
  candidateId: number | null;
}

export const candidateFormMachine = setup({
  types: {
    input: {} as CandidateFormInput,
    context: {} as CandidateFormContext,
    events: {} as CandidateFormEvent,
    emitted: {} as NotifyEmitted,
  },
  actors: {
    /** The shared contract validator (spec section 5); rejects with an ApiFailure of field messages. */
    validate: missingPromise<void, FormValues>('candidateForm', 'validate'),
    /** The multipart upload: sends candidate.progress, then candidate.saved or candidate.failed. */
    submitCandidate: missingCallback<CandidateFormEvent, SubmitCandidateInput>(
      'candidateForm',
      'submitCandidate',
    ),
  },
  guards: {
    /** The server refused the content (422): the user has something to correct. */
    refusedFields: (_, params: { error: unknown }) => asFailure(params.error).status === 422,
  },
  actions: {
    rememberFailure: assign((_, params: { error: unknown }) => {
      const failure = asFailure(params.error);
      return { fieldErrors: failure.fields, error: failure.message };
    }),
    notifyError: emit((_, params: { error: unknown }) => ({
      type: 'notify' as const,
      tone: 'error' as const,
      message: asFailure(params.error).message,
    })),
  },
}).createMachine({
  id: 'candidateForm',
  context: ({ input }) => ({
    submissionKey: input.submissionKey,
    candidateId: input.candidateId ?? null,
    values: null,
    fieldErrors: {},
    error: null,
    progress: 0,
    result: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'candidate.submit': {
          target: 'validating',
          actions: assign({ values: ({ event }) => event.values }),
        },
      },
    },
    validating: {
      tags: ['busy'],
      invoke: {
        id: 'validate',
        src: 'validate',
        input: ({ context }) => context.values!,
        onDone: { target: 'submitting' },
        onError: {
          target: 'invalid',
          actions: { type: 'rememberFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    invalid: {
      tags: ['invalid'],
      on: {
        'candidate.submit': {
          target: 'validating',
          actions: assign({ values: ({ event }) => event.values }),
        },
      },
    },
    submitting: {
      tags: ['busy', 'uploading'],
      entry: assign({ progress: 0, fieldErrors: {}, error: null }),
      invoke: {
        id: 'submitCandidate',
        src: 'submitCandidate',
        input: ({ context }) => ({
          values: context.values!,
          submissionKey: context.submissionKey,
          candidateId: context.candidateId,
        }),
        // The upload threw instead of reporting (building the form failed, say): without this the error
        // would stop the whole form actor, and what was typed with it. The same key makes a retry safe.
        onError: {
          target: 'failed',
          actions: [
            { type: 'rememberFailure', params: ({ event }) => ({ error: event.error }) },
            { type: 'notifyError', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
      on: {
        'candidate.progress': {
          actions: assign({ progress: ({ event }) => (event.total > 0 ? event.loaded / event.total : 0) }),
        },
        'candidate.saved': {
          target: 'succeeded',
          actions: [
            assign({ result: ({ event }) => event.record, progress: 1 }),
            emit(({ event }) => ({
              type: 'notify' as const,
              tone: 'success' as const,
              message: event.message,
            })),
          ],
        },
        'candidate.failed': [
          {
            guard: { type: 'refusedFields', params: ({ event }) => ({ error: event.error }) },
            target: 'invalid',
            actions: [
              { type: 'rememberFailure', params: ({ event }) => ({ error: event.error }) },
              { type: 'notifyError', params: ({ event }) => ({ error: event.error }) },
            ],
          },
          {
            // The network or the server failed: nothing to correct, the same submission can be retried.
            target: 'failed',
            actions: [
              { type: 'rememberFailure', params: ({ event }) => ({ error: event.error }) },
              { type: 'notifyError', params: ({ event }) => ({ error: event.error }) },
            ],
          },
        ],
      },
    },
    failed: {
      tags: ['failed'],
      on: {
        'candidate.retry': { target: 'submitting' },
        'candidate.submit': {
          target: 'validating',
          actions: assign({ values: ({ event }) => event.values }),
        },
      },
    },
    succeeded: {
      tags: ['succeeded'],
      on: {
        // Editing stays on the record; indexing offers a new, empty form with a new key.
        'candidate.submit': {
          target: 'validating',
          actions: assign({ values: ({ event }) => event.values }),
        },
        'candidate.new': {
          target: 'editing',
          actions: assign({
            submissionKey: ({ event }) => event.submissionKey,
            values: null,
            result: null,
            progress: 0,
            fieldErrors: {},
            error: null,
          }),
        },
      },
    },
  },
});
