import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, SimulatedClock } from 'xstate';
import type { ApiFailure } from '../../contract/envelope';
import {
  SETTLED_MESSAGE,
  type PaymentDetail,
  type PaymentQuote,
  type PaymentStart,
} from '../../contract/payments';
import {
  paymentMachine,
  RECHECK_MS,
  RETRY_VERIFY_MS,
  type PaymentChoice,
  type PaymentEvent,
} from '../../machines/payment.machine';
import { createPathModel, matchCoverageFile, errorOf, outputOf, type ReplayStep } from './paths';

const CHOICE: PaymentChoice = { fee_id: 3, candidate_ids: [11, 12, 13] };

const QUOTE: PaymentQuote = {
  fee: { id: 3, title: 'Registration fee', basis: 'candidate' },
  amount_kobo: 4_500_000,
  candidates: [11, 12, 13].map((id) => ({
    id,
    candidate_index: `WHB/26/A1/${id}`,
    name: `C ${id}`,
    course_header: 'A1',
  })),
};

const STARTED: PaymentStart = {
  reference: 'WHB-0A1B2C3D4E5F',
  access_code: 'acc0de',
  amount_kobo: 4_500_000,
};

const detail = (status: PaymentDetail['status']): PaymentDetail => ({
  id: 7,
  transaction_ref: STARTED.reference,
  status,
  amount_kobo: 4_500_000,
  fee: { id: 3, title: 'Registration fee', kind: 'registration' },
  diet: { code: 'MAY-2027' },
  school: { id: 1, code: 'SHT-IB', name: 'School of Health Technology, Ibadan' },
  candidates: 3,
  receipt_number: status === 'paid' ? 'RCT/2027/000001' : null,
  paid_at: status === 'paid' ? '2027-03-28T12:00:00.000Z' : null,
  gateway_response: null,
  provider: 'sandbox',
  created_at: '2027-03-28T11:59:00.000Z',
  charged_kobo: status === 'paid' ? 4_500_000 : null,
  fees_kobo: null,
  covered: QUOTE.candidates,
  paid_by: 'School One',
  channel: null,
  simulated: true,
  notice: null,
  verification: { code: 'K7QD-2M4X', url: 'http://localhost/verify/K7QD-2M4X', qr: 'M4 4h1v1h-1z', size: 9 },
});

const offline: ApiFailure = { status: 0, message: 'The network is unreachable.', fields: {} };
const alreadyPaid: ApiFailure = {
  status: 409,
  message: 'Some of these candidates have been paid for already.',
  fields: {},
};

const events: PaymentEvent[] = [
  { type: 'payment.quote', choice: CHOICE },
  { type: 'payment.confirm' },
  { type: 'payment.back' },
  { type: 'payment.retry' },
  { type: 'payment.resume' },
  { type: 'payment.check', reference: STARTED.reference },
  { type: 'payment.done' },
  { type: 'popup.succeeded' },
  { type: 'popup.closed' },
  { type: 'popup.failed', message: 'The checkout could not be loaded' },
];

function checkPayment(replayed: ReplayStep<typeof paymentMachine>): void {
  const { step, snapshot, previous, calls, timers } = replayed;
  const { context } = snapshot;
  const where = `after ${step.event.type} in ${JSON.stringify(snapshot.value)}`;
  const pending = calls.filter((call) => call.status === 'pending');
  const busy = (['quoting', 'loadingScript', 'initialising', 'verifying'] as const).some((s) =>
    snapshot.matches(s),
  );
  expect(snapshot.hasTag('busy'), where).toBe(busy);
  expect(snapshot.hasTag('popup'), where).toBe(snapshot.matches('paying'));
  // One request or one popup at a time; none while the user decides.
  expect(pending.length, where).toBe(busy || snapshot.matches('paying') ? 1 : 0);
  if (snapshot.matches('paying')) {
    // The popup is opened with the access code the server returned, never without one.
    expect(pending[0].input, where).toEqual({ accessCode: STARTED.access_code });
  }
  if (snapshot.matches('verifying')) {
    // Verification is always by the reference held, on the server.
    expect(pending[0].input, where).toEqual({ reference: STARTED.reference });
    expect(context.reference, where).toBe(STARTED.reference);
  }
  if (snapshot.matches('initialising')) {
    // The provider's script is loaded before any transaction starts.
    expect(context.scriptLoaded, where).toBe(true);
  }
  // Timers only where the machine waits to ask again.
  const waits = snapshot.matches('pending') || snapshot.matches('verifyFailed');
  expect(timers.length, where).toBe(waits ? 1 : 0);
  if (snapshot.matches('pending')) expect(timers[0].due - replayed.now, where).toBe(RECHECK_MS);
  if (snapshot.matches('verifyFailed')) expect(timers[0].due - replayed.now, where).toBe(RETRY_VERIFY_MS);
  if (step.event.type === 'xstate.done.actor.verifyPayment') {
    expect(context.payment, where).toEqual(outputOf(step.event));
  }
  if (step.event.type.startsWith('xstate.error.actor.')) {
    // A failure is shown, and what was chosen is kept.
    expect(context.error, where).toEqual(errorOf(step.event));
    expect(context.choice, where).toEqual(previous?.context.choice);
  }
  if (step.event.type === 'xstate.error.actor.startPayment') {
    expect(snapshot.matches('confirming'), where).toBe(true);
    expect(context.reference, where).toBeNull();
  }
  if (snapshot.matches('choosing') && step.event.type === 'payment.done') {
    expect(context.reference, where).toBeNull();
    expect(context.payment, where).toBeNull();
  }
  // Once loaded, the script stays loaded: it is never loaded twice on a page.
  if (previous?.context.scriptLoaded) expect(context.scriptLoaded, where).toBe(true);
}

const model = createPathModel(paymentMachine, {
  events,
  outputs: {
    quotePayment: [QUOTE],
    loadScript: [undefined],
    startPayment: [STARTED],
    verifyPayment: ['paid', 'pending', 'failed', 'abandoned', 'review'].map((s) =>
      detail(s as PaymentDetail['status']),
    ),
  },
  errors: {
    quotePayment: [alreadyPaid],
    loadScript: [offline],
    startPayment: [alreadyPaid],
    verifyPayment: [offline],
  },
  // The script's flag is what makes a second payment skip loading: kept in the vertex.
  serializeState: (s) =>
    JSON.stringify([
      s.value,
      s.context.scriptLoaded,
      s.context.accessCode !== null,
      s.context.error !== null,
      s.context.quote !== null,
    ]),
  compareContext: (c) => ({ scriptLoaded: c.scriptLoaded, reference: c.reference, accessCode: c.accessCode }),
  check: checkPayment,
});

describe('payment machine: model-based paths', () => {
  it('covers every state and every transition', () => {
    model.assertCoverage();
    expect(model.coverage().states.all).toEqual([
      '#payment.choosing',
      '#payment.quoting',
      '#payment.confirming',
      '#payment.loadingScript',
      '#payment.scriptFailed',
      '#payment.initialising',
      '#payment.paying',
      '#payment.popupFailed',
      '#payment.verifying',
      '#payment.verifyFailed',
      '#payment.pending',
      '#payment.paid',
      '#payment.failed',
      '#payment.cancelled',
      '#payment.review',
    ]);
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });
});

/** The machine with I/O that answers at once, the popup driven by the test. */
function startPayment(verifyAnswers: Array<PaymentDetail | ApiFailure>) {
  const clock = new SimulatedClock();
  let scriptLoads = 0;
  let verifies = 0;
  let popup: ((event: PaymentEvent) => void) | null = null;
  const told: string[] = [];
  const actor = createActor(
    paymentMachine.provide({
      actors: {
        quotePayment: fromPromise(async () => QUOTE),
        loadScript: fromPromise(async () => {
          scriptLoads += 1;
        }),
        startPayment: fromPromise(async () => STARTED),
        openPopup: fromCallback(({ sendBack }) => {
          popup = sendBack;
        }),
        verifyPayment: fromPromise(async () => {
          const answer = verifyAnswers[Math.min(verifies, verifyAnswers.length - 1)];
          verifies += 1;
          if ('fields' in answer) throw answer;
          return answer;
        }),
      },
    }),
    { clock },
  );
  actor.on('notify', (event) => told.push(event.message));
  actor.start();
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    actor,
    clock,
    settle,
    told,
    popup: () => popup!,
    scriptLoads: () => scriptLoads,
    verifies: () => verifies,
  };
}

describe('payment machine: examples', () => {
  it('pays: quote, script once, start, popup, verify; a second payment does not load the script again', async () => {
    const run = startPayment([detail('paid')]);
    run.actor.send({ type: 'payment.quote', choice: CHOICE });
    await run.settle();
    expect(run.actor.getSnapshot().context.quote?.amount_kobo).toBe(4_500_000);
    run.actor.send({ type: 'payment.confirm' });
    await run.settle();
    await run.settle();
    expect(run.actor.getSnapshot().matches('paying')).toBe(true);
    expect(run.actor.getSnapshot().context.reference).toBe(STARTED.reference);
    run.popup()({ type: 'popup.succeeded' });
    await run.settle();
    expect(run.actor.getSnapshot().matches('paid')).toBe(true);
    expect(run.told).toEqual([SETTLED_MESSAGE.paid]);
    run.actor.send({ type: 'payment.done' });
    run.actor.send({ type: 'payment.quote', choice: CHOICE });
    await run.settle();
    run.actor.send({ type: 'payment.confirm' });
    await run.settle();
    expect(run.scriptLoads()).toBe(1);
    run.actor.stop();
  });

  it('a pending payment is asked again after the named delay until it is paid', async () => {
    const run = startPayment([detail('pending'), detail('paid')]);
    run.actor.send({ type: 'payment.check', reference: STARTED.reference });
    await run.settle();
    expect(run.actor.getSnapshot().matches('pending')).toBe(true);
    run.clock.increment(RECHECK_MS - 1);
    expect(run.verifies()).toBe(1);
    run.clock.increment(1);
    await run.settle();
    expect(run.verifies()).toBe(2);
    expect(run.actor.getSnapshot().matches('paid')).toBe(true);
    run.actor.stop();
  });

  it('a lost connection while verifying tries again by itself, and a closed popup is verified too', async () => {
    const run = startPayment([offline, detail('abandoned')]);
    run.actor.send({ type: 'payment.quote', choice: CHOICE });
    await run.settle();
    run.actor.send({ type: 'payment.confirm' });
    await run.settle();
    await run.settle();
    run.popup()({ type: 'popup.closed' });
    await run.settle();
    expect(run.actor.getSnapshot().matches('verifyFailed')).toBe(true);
    expect(run.actor.getSnapshot().context.error?.message).toBe(offline.message);
    run.clock.increment(RETRY_VERIFY_MS);
    await run.settle();
    expect(run.actor.getSnapshot().matches('cancelled')).toBe(true);
    expect(run.told).toEqual([SETTLED_MESSAGE.abandoned]);
    // The same transaction can be taken up again.
    run.actor.send({ type: 'payment.resume' });
    expect(run.actor.getSnapshot().matches('paying')).toBe(true);
    run.actor.stop();
  });
});

describe('payment machine: coverage file', () => {
  it('docs/statecharts/coverage/payment.json is what its paths cover', () => matchCoverageFile(model));
});
