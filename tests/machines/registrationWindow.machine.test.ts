import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { RegistrationWindow } from '../../contract/diets';
import type { ApiFailure } from '../../contract/envelope';
import {
  REFRESH_TICKS,
  registrationWindowMachine,
  RETRY_MS,
  TICK_MS,
  type RegistrationWindowEvent,
} from '../../machines/registrationWindow.machine';
import { createPathModel, matchCoverageFile, outputOf, type ReplayStep } from './paths';

const SERVER_NOW = '2027-03-28T12:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(SERVER_NOW) + ms).toISOString();

const windowClosingIn = (ms: number): RegistrationWindow => ({
  diet: { code: 'MAY-2027', name: 'May 2027 Professional Examinations' },
  opens_at: '2027-02-01T16:00:00.000Z',
  closes_at: at(ms),
  extension: null,
  open: true,
  next_change_at: at(ms),
  server_now: SERVER_NOW,
});

const NO_DIET: RegistrationWindow = {
  diet: null,
  opens_at: null,
  closes_at: null,
  extension: null,
  open: false,
  next_change_at: null,
  server_now: SERVER_NOW,
};

const offline: ApiFailure = { status: 0, message: 'The network is unreachable.', fields: {} };

const events: RegistrationWindowEvent[] = [{ type: 'window.refresh' }];

function checkWindow(replayed: ReplayStep<typeof registrationWindowMachine>): void {
  const { step, snapshot, previous, calls, timers } = replayed;
  const { context } = snapshot;
  const where = `after ${step.event.type} in ${JSON.stringify(snapshot.value)}`;
  const pending = calls.filter((call) => call.status === 'pending');

  expect(snapshot.hasTag('loading'), where).toBe(snapshot.matches('loading'));
  expect(snapshot.hasTag('counting'), where).toBe(snapshot.matches({ known: 'counting' }));
  expect(snapshot.hasTag('failed'), where).toBe(snapshot.matches('failed'));
  if (snapshot.matches('loading')) {
    // One request in flight, no timer: the countdown waits for the server's answer.
    expect(pending, where).toHaveLength(1);
    expect(timers, where).toEqual([]);
  } else {
    expect(pending, where).toEqual([]);
    expect(timers, `${where}: exactly one timer`).toHaveLength(1);
  }
  if (snapshot.matches({ known: 'counting' })) {
    // What is left is counted from the server's clock (its server_now), never the browser's.
    expect(context.remaining, where).toBeGreaterThan(0);
    expect(timers[0].due - replayed.now, where).toBe(Math.min(TICK_MS, context.remaining!));
  }
  if (snapshot.matches({ known: 'settled' })) expect(context.remaining, where).toBeNull();
  if (step.event.type === 'xstate.done.actor.loadWindow') {
    const answer = outputOf(step.event) as RegistrationWindow;
    expect(context.window, where).toEqual(answer);
    expect(context.ticks, where).toBe(0);
  }
  if (step.event.type === 'xstate.error.actor.loadWindow') {
    // A failed ask keeps the window last known on screen.
    expect(context.window, where).toEqual(previous?.context.window);
  }
}

const model = createPathModel(registrationWindowMachine, {
  events,
  outputs: { loadWindow: [windowClosingIn(150_000), NO_DIET] },
  errors: { loadWindow: [offline] },
  check: checkWindow,
});

describe('registration window machine: model-based paths', () => {
  it('covers every state and every transition', () => {
    model.assertCoverage();
    expect(model.coverage().states.all).toEqual([
      '#registrationWindow.loading',
      '#registrationWindow.known',
      '#registrationWindow.known.deciding',
      '#registrationWindow.known.counting',
      '#registrationWindow.known.settled',
      '#registrationWindow.failed',
    ]);
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });
});

/** The machine on a simulated clock, its loadWindow answering at once with the next answer given. */
function startWindow(answers: Array<RegistrationWindow | ApiFailure>) {
  const clock = new SimulatedClock();
  let asked = 0;
  const actor = createActor(
    registrationWindowMachine.provide({
      actors: {
        loadWindow: fromPromise<RegistrationWindow, void>(async () => {
          const answer = answers[Math.min(asked, answers.length - 1)];
          asked += 1;
          if ('status' in answer) throw answer;
          return answer;
        }),
      },
    }),
    { clock },
  ).start();
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { clock, actor, settle, asked: () => asked };
}

describe('registration window machine: examples', () => {
  it('counts down a minute at a time and asks the server again at zero, not before', async () => {
    const closed = { ...windowClosingIn(0), open: false, next_change_at: null };
    const { clock, actor, settle, asked } = startWindow([windowClosingIn(3 * TICK_MS + 5_000), closed]);
    await settle();
    expect(actor.getSnapshot().context.remaining).toBe(3 * TICK_MS + 5_000);
    clock.increment(TICK_MS);
    expect(actor.getSnapshot().context.remaining).toBe(2 * TICK_MS + 5_000);
    clock.increment(TICK_MS);
    expect(actor.getSnapshot().context.remaining).toBe(TICK_MS + 5_000);
    clock.increment(TICK_MS);
    expect(actor.getSnapshot().context.remaining).toBe(5_000);
    expect(asked()).toBe(1);
    clock.increment(4_999);
    expect(asked()).toBe(1);
    clock.increment(1);
    expect(asked()).toBe(2);
    await settle();
    expect(actor.getSnapshot().context.window?.open).toBe(false);
    expect(actor.getSnapshot().matches({ known: 'settled' })).toBe(true);
    actor.stop();
  });

  it('asks again every quarter of an hour however far the close is', async () => {
    const { clock, actor, settle, asked } = startWindow([windowClosingIn(3 * 24 * 3600_000)]);
    await settle();
    for (let tick = 1; tick < REFRESH_TICKS; tick++) clock.increment(TICK_MS);
    expect(asked()).toBe(1);
    clock.increment(TICK_MS);
    expect(asked()).toBe(2);
    actor.stop();
  });

  it('a failed ask keeps what was shown and tries again a minute later', async () => {
    const { clock, actor, settle, asked } = startWindow([windowClosingIn(30_000), offline, NO_DIET]);
    await settle();
    clock.increment(30_000);
    await settle();
    expect(actor.getSnapshot().hasTag('failed')).toBe(true);
    expect(actor.getSnapshot().context.window?.diet?.code).toBe('MAY-2027');
    clock.increment(RETRY_MS - 1);
    expect(asked()).toBe(2);
    clock.increment(1);
    expect(asked()).toBe(3);
    actor.stop();
  });
});

describe('registrationWindow machine: coverage file', () => {
  it('docs/statecharts/coverage/registrationWindow.json is what its paths cover', () =>
    matchCoverageFile(model));
});
