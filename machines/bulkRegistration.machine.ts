import { assign, emit, setup } from 'xstate';
import {
  bulkRegistrationSummary,
  type BulkRegistrationRequest,
  type BulkRegistrationResult,
} from '../contract/registration';
import { asFailure } from './failure';
import { missingPromise } from './missing';
import type { NotifyEmitted } from './notify';

/**
 * Registering many candidates at once from Registered Candidates (issue 22): the ticked rows, or every
 * verified candidate of the diet the page shows (asked first: it may be many). One request at a time;
 * its answer counts what was registered and what was refused, and why, and stays on the page until the
 * next. Ticks are kept when the request fails, and cleared once it is answered.
 */
export interface BulkRegistrationContext {
  /** The ticked rows' candidate ids, in the order ticked. */
  selected: number[];
  /** What is being asked (kept while confirming and sending). */
  ask: BulkRegistrationRequest | null;
  result: BulkRegistrationResult | null;
  /** The answer in a sentence ('12 registered; 3 refused: 2 not verified by the board, 1 under sanction'). */
  summary: string | null;
  error: string | null;
}

export type BulkRegistrationEvent =
  | { type: 'bulk.tick'; ids: number[]; on: boolean }
  | { type: 'bulk.clear' }
  | { type: 'bulk.registerTicked' }
  | { type: 'bulk.registerAllVerified'; diet: string; course_header?: string; year?: number }
  | { type: 'bulk.confirm' }
  | { type: 'bulk.cancel' };

/** Said to whoever listens once candidates are registered, so the list shows them. */
export type BulkRegistrationEmitted = NotifyEmitted | { type: 'bulk.registered' };

export const bulkRegistrationMachine = setup({
  types: {
    context: {} as BulkRegistrationContext,
    events: {} as BulkRegistrationEvent,
    emitted: {} as BulkRegistrationEmitted,
  },
  actors: {
    /** POST the role's REGISTRATION_ENDPOINTS.bulk; resolves with the result, rejects with an ApiFailure. */
    register: missingPromise<BulkRegistrationResult, BulkRegistrationRequest>('bulkRegistration', 'register'),
  },
  guards: {
    anyTicked: ({ context }) => context.selected.length > 0,
  },
  actions: {
    tick: assign({
      selected: ({ context, event }) => {
        if (event.type !== 'bulk.tick') return context.selected;
        const rest = context.selected.filter((id) => !event.ids.includes(id));
        return event.on ? [...rest, ...event.ids] : rest;
      },
    }),
  },
}).createMachine({
  id: 'bulkRegistration',
  context: { selected: [], ask: null, result: null, summary: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'bulk.tick': { actions: 'tick' },
        'bulk.clear': { actions: assign({ selected: [] }) },
        'bulk.registerTicked': {
          guard: 'anyTicked',
          target: 'registering',
          actions: assign({ ask: ({ context }) => ({ candidate_ids: [...context.selected] }) }),
        },
        'bulk.registerAllVerified': {
          target: 'confirming',
          actions: assign({
            ask: ({ event }) => ({
              all_verified: true as const,
              diet: event.diet,
              ...(event.course_header ? { course_header: event.course_header } : {}),
              ...(event.year ? { year: event.year } : {}),
            }),
          }),
        },
      },
    },
    confirming: {
      tags: ['confirming'],
      on: {
        'bulk.confirm': { target: 'registering' },
        'bulk.cancel': { target: 'idle', actions: assign({ ask: null }) },
      },
    },
    registering: {
      tags: ['busy'],
      entry: assign({ error: null }),
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ context }) => context.ask!,
        onDone: {
          target: 'idle',
          actions: [
            assign({
              result: ({ event }) => event.output,
              summary: ({ event }) => bulkRegistrationSummary(event.output),
              selected: [],
              ask: null,
            }),
            emit(({ event }) => ({
              type: 'notify' as const,
              tone: 'success' as const,
              message: bulkRegistrationSummary(event.output),
            })),
            emit({ type: 'bulk.registered' as const }),
          ],
        },
        onError: {
          target: 'idle',
          actions: [
            assign({ error: ({ event }) => asFailure(event.error).message, ask: null }),
            emit(({ event }) => ({
              type: 'notify' as const,
              tone: 'error' as const,
              message: asFailure(event.error).message,
            })),
          ],
        },
      },
    },
  },
});
