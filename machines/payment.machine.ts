import { assign, emit, setup } from 'xstate';
import type { ApiFailure } from '../contract/envelope';
import {
  SETTLED_MESSAGE,
  type PaymentDetail,
  type PaymentQuote,
  type PaymentStart,
  type PaymentStatus,
} from '../contract/payments';
import { asFailure } from './failure';
import { missingCallback, missingPromise } from './missing';
import type { NotifyEmitted } from './notify';

/**
 * One payment, from the school's choice to its settled result (the design card: "payment (provider
 * script loading and verification)"). The school chooses a fee and candidates; the server quotes what it
 * costs; on confirmation the provider's script is loaded once (the spec's flag, `scriptLoaded`), the
 * server starts the transaction and returns its reference, which the machine holds while paying (the
 * spec's payment reference number), the provider's popup takes the payment, and the server verifies it by
 * reference with the provider. The answer is paid (a receipt), pending (asked again after a named delay),
 * failed, cancelled, or under review (the board's reconciliation queue). A script that fails to load, a
 * popup that could not open or was closed, and a lost connection while verifying each have their state
 * and a way on; a closed popup is verified too, since a payer may close it after paying. Nothing here
 * decides whether money arrived: only the server's verify does.
 */

export const RECHECK_MS = 30_000;
export const RETRY_VERIFY_MS = 10_000;

/** What the school is paying for. */
export interface PaymentChoice {
  fee_id: number;
  candidate_ids?: number[];
  all?: boolean;
}

export interface PaymentContext {
  choice: PaymentChoice | null;
  quote: PaymentQuote | null;
  /** The spec's flag: whether the provider's script has loaded (it is loaded once a page). */
  scriptLoaded: boolean;
  /** The spec's payment reference, held from the server's start until the payment is settled. */
  reference: string | null;
  accessCode: string | null;
  /** The payment as the server last verified it. */
  payment: PaymentDetail | null;
  error: ApiFailure | null;
}

export type PaymentEvent =
  | { type: 'payment.quote'; choice: PaymentChoice }
  | { type: 'payment.confirm' }
  | { type: 'payment.back' }
  | { type: 'payment.retry' }
  | { type: 'payment.resume' }
  | { type: 'payment.check'; reference: string }
  | { type: 'payment.done' }
  // What the provider's popup reports (the openPopup callback actor sends them).
  | { type: 'popup.succeeded' }
  | { type: 'popup.closed' }
  | { type: 'popup.failed'; message: string };

export const paymentMachine = setup({
  types: {
    context: {} as PaymentContext,
    events: {} as PaymentEvent,
    emitted: {} as NotifyEmitted,
  },
  actors: {
    quotePayment: missingPromise<PaymentQuote, PaymentChoice>('payment', 'quotePayment'),
    loadScript: missingPromise<void, void>('payment', 'loadScript'),
    startPayment: missingPromise<PaymentStart, PaymentChoice>('payment', 'startPayment'),
    openPopup: missingCallback<PaymentEvent, { accessCode: string }>('payment', 'openPopup'),
    verifyPayment: missingPromise<PaymentDetail, { reference: string }>('payment', 'verifyPayment'),
  },
  delays: {
    recheck: RECHECK_MS,
    retryVerify: RETRY_VERIFY_MS,
  },
  guards: {
    scriptLoaded: ({ context }) => context.scriptLoaded,
    // A payment only checked (started on another visit) has no popup code here to resume with.
    canResume: ({ context }) => context.accessCode !== null,
    // Where a verified status leads (read from the verify's done event).
    settledAs: ({ event }, params: { status: PaymentStatus }) =>
      (event as unknown as { output?: PaymentDetail }).output?.status === params.status,
  },
  actions: {
    forget: assign({
      choice: null,
      quote: null,
      reference: null,
      accessCode: null,
      payment: null,
      error: null,
    }),
    clearError: assign({ error: null }),
    tellResult: emit(({ context }) => ({
      type: 'notify' as const,
      tone:
        context.payment?.status === 'paid' || context.payment?.status === 'pending'
          ? ('success' as const)
          : ('error' as const),
      message: SETTLED_MESSAGE[(context.payment?.status ?? 'initialised') as PaymentStatus],
    })),
  },
}).createMachine({
  id: 'payment',
  context: {
    choice: null,
    quote: null,
    scriptLoaded: false,
    reference: null,
    accessCode: null,
    payment: null,
    error: null,
  },
  initial: 'choosing',
  states: {
    choosing: {
      tags: ['choosing'],
      on: {
        'payment.quote': {
          target: 'quoting',
          actions: assign({ choice: ({ event }) => event.choice, quote: null, error: null }),
        },
        // A payment started earlier (a history row's 'Check again', the board's verify by hand).
        'payment.check': {
          target: 'verifying',
          actions: assign({ reference: ({ event }) => event.reference, payment: null, error: null }),
        },
      },
    },
    quoting: {
      tags: ['busy', 'choosing'],
      invoke: {
        id: 'quotePayment',
        src: 'quotePayment',
        input: ({ context }) => context.choice!,
        onDone: { target: 'confirming', actions: assign({ quote: ({ event }) => event.output }) },
        onError: { target: 'choosing', actions: assign({ error: ({ event }) => asFailure(event.error) }) },
      },
    },
    confirming: {
      tags: ['confirming'],
      on: {
        'payment.confirm': [
          { guard: 'scriptLoaded', target: 'initialising', actions: 'clearError' },
          { target: 'loadingScript', actions: 'clearError' },
        ],
        'payment.back': { target: 'choosing', actions: 'clearError' },
      },
    },
    loadingScript: {
      tags: ['busy', 'confirming'],
      invoke: {
        id: 'loadScript',
        src: 'loadScript',
        onDone: { target: 'initialising', actions: assign({ scriptLoaded: true }) },
        onError: {
          target: 'scriptFailed',
          actions: assign({ error: ({ event }) => asFailure(event.error) }),
        },
      },
    },
    scriptFailed: {
      tags: ['confirming'],
      on: {
        'payment.retry': { target: 'loadingScript', actions: 'clearError' },
        'payment.back': { target: 'choosing', actions: 'clearError' },
      },
    },
    initialising: {
      tags: ['busy', 'confirming'],
      invoke: {
        id: 'startPayment',
        src: 'startPayment',
        input: ({ context }) => context.choice!,
        onDone: {
          target: 'paying',
          actions: assign({
            reference: ({ event }) => event.output.reference,
            accessCode: ({ event }) => event.output.access_code,
          }),
        },
        // Nothing was started (the provider unreachable, candidates paid meanwhile): say so, keep the choice.
        onError: { target: 'confirming', actions: assign({ error: ({ event }) => asFailure(event.error) }) },
      },
    },
    paying: {
      tags: ['popup'],
      invoke: {
        id: 'openPopup',
        src: 'openPopup',
        input: ({ context }) => ({ accessCode: context.accessCode! }),
      },
      on: {
        'popup.succeeded': { target: 'verifying' },
        // Closed: perhaps after paying (a transfer), so the server is asked all the same.
        'popup.closed': { target: 'verifying' },
        'popup.failed': {
          target: 'popupFailed',
          actions: assign({ error: ({ event }) => ({ status: 0, message: event.message, fields: {} }) }),
        },
      },
    },
    popupFailed: {
      on: {
        'payment.resume': { guard: 'canResume', target: 'paying', actions: 'clearError' },
        'payment.retry': { target: 'verifying', actions: 'clearError' },
      },
    },
    verifying: {
      tags: ['busy'],
      invoke: {
        id: 'verifyPayment',
        src: 'verifyPayment',
        input: ({ context }) => ({ reference: context.reference! }),
        onDone: [
          {
            guard: { type: 'settledAs', params: { status: 'paid' } },
            target: 'paid',
            actions: assign({ payment: ({ event }) => event.output }),
          },
          {
            guard: { type: 'settledAs', params: { status: 'failed' } },
            target: 'failed',
            actions: assign({ payment: ({ event }) => event.output }),
          },
          {
            guard: { type: 'settledAs', params: { status: 'abandoned' } },
            target: 'cancelled',
            actions: assign({ payment: ({ event }) => event.output }),
          },
          {
            guard: { type: 'settledAs', params: { status: 'review' } },
            target: 'review',
            actions: assign({ payment: ({ event }) => event.output }),
          },
          { target: 'pending', actions: assign({ payment: ({ event }) => event.output }) },
        ],
        // The connection dropped, or the provider could not be asked: the payment is safe (the server
        // settles it from the webhook or its own re-query); asked again shortly, or now on request.
        onError: {
          target: 'verifyFailed',
          actions: assign({ error: ({ event }) => asFailure(event.error) }),
        },
      },
    },
    verifyFailed: {
      after: { retryVerify: { target: 'verifying', actions: 'clearError' } },
      on: { 'payment.retry': { target: 'verifying', actions: 'clearError' } },
    },
    pending: {
      tags: ['settled'],
      entry: 'tellResult',
      after: { recheck: 'verifying' },
      on: {
        'payment.retry': 'verifying',
        'payment.done': { target: 'choosing', actions: 'forget' },
      },
    },
    paid: {
      tags: ['settled'],
      entry: 'tellResult',
      on: { 'payment.done': { target: 'choosing', actions: 'forget' } },
    },
    failed: {
      tags: ['settled'],
      entry: 'tellResult',
      on: {
        // Paystack lets the payer try again in the same transaction.
        'payment.resume': { guard: 'canResume', target: 'paying' },
        'payment.done': { target: 'choosing', actions: 'forget' },
      },
    },
    cancelled: {
      tags: ['settled'],
      entry: 'tellResult',
      on: {
        'payment.resume': { guard: 'canResume', target: 'paying' },
        'payment.done': { target: 'choosing', actions: 'forget' },
      },
    },
    review: {
      tags: ['settled'],
      entry: 'tellResult',
      on: { 'payment.done': { target: 'choosing', actions: 'forget' } },
    },
  },
});
