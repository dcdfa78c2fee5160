import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { ApiFailure } from '../../contract/envelope';
import { NOTIFICATION_POLL_MS } from '../../contract/notifications';
import { unreadCountMachine, type UnreadCountEvent } from '../../machines/unreadCount.machine';
import { createPathModel, matchCoverageFile, outputOf, type ReplayStep } from './paths';

const POLL_TIMER = 'xstate.after.pollInterval.unreadCount.running.waiting';

const events: UnreadCountEvent[] = [
  { type: 'unread.start' },
  { type: 'unread.startPaused' },
  { type: 'unread.stop' },
  { type: 'unread.pause' },
  { type: 'unread.resume' },
  { type: 'unread.refresh' },
];

const failures: ApiFailure[] = [
  { status: 0, message: 'The network is unreachable.', fields: {} },
  { status: 500, message: 'The portal answered 500. Please try again.', fields: {} },
];

/** The simulated time at which the machine last entered `waiting`, per replay. */
let waitingSince = 0;

function checkUnreadCount(replayed: ReplayStep<typeof unreadCountMachine>): void {
  const { step, snapshot, previous, calls, now, timers, emitted } = replayed;
  const { context } = snapshot;
  const event = step.event;
  const at = `after ${event.type} at ${now} ms in ${JSON.stringify(snapshot.value)}`;
  const pending = calls.filter((call) => call.status === 'pending');
  const latest = calls[calls.length - 1];

  expect(snapshot.hasTag('paused'), at).toBe(snapshot.matches({ running: 'paused' }));
  expect(emitted, at).toEqual([]);
  expect(context.unread, at).toBeGreaterThanOrEqual(0);

  // Exactly one thing can ask the server next, and only while running and not paused.
  if (snapshot.matches('stopped')) {
    expect(context.unread, `${at}: a stopped count shows nothing`).toBe(0);
    expect([pending, timers], at).toEqual([[], []]);
  } else if (snapshot.matches({ running: 'paused' })) {
    // Paused (the user is idle): no request in flight and no timer, so nothing polls until resumed.
    expect([pending, timers], at).toEqual([[], []]);
  } else if (snapshot.matches({ running: 'fetching' })) {
    expect(pending, `${at}: one count in flight`).toHaveLength(1);
    expect(pending[0]).toMatchObject({ id: 'countUnread', src: 'countUnread', input: undefined });
    expect(timers, at).toEqual([]);
  } else {
    expect(snapshot.matches({ running: 'waiting' }), at).toBe(true);
    expect(pending, at).toEqual([]);
    // The next count is due one poll interval after the last one answered.
    if (!previous?.matches({ running: 'waiting' })) waitingSince = now;
    expect(timers, `${at}: the poll timer`).toEqual([
      { event: POLL_TIMER, due: waitingSince + NOTIFICATION_POLL_MS },
    ]);
  }

  // A new count is asked for exactly when fetching is (re)entered: start, resume, refresh, poll timer.
  const asked = ['unread.start', 'unread.resume', 'unread.refresh', POLL_TIMER].includes(event.type);
  if (asked && snapshot.matches({ running: 'fetching' })) {
    expect(latest?.status, `${at}: a fresh count`).toBe('pending');
    expect(previous?.children.countUnread === snapshot.children.countUnread, `${at}: a new request`).toBe(
      false,
    );
  }
  if (event.type === POLL_TIMER) {
    expect(now - waitingSince, `${at}: polled after exactly the interval`).toBe(NOTIFICATION_POLL_MS);
  }

  switch (event.type) {
    case 'xstate.done.actor.countUnread':
      expect(context.unread, at).toBe(outputOf(event));
      break;
    case 'xstate.error.actor.countUnread':
      // A failed background count keeps the last one shown.
      expect(context.unread, at).toBe(previous?.context.unread);
      break;
    case 'unread.refresh':
      if (previous?.matches({ running: 'fetching' })) {
        // The count that was in flight may predate the refresh: it is dropped for a new one.
        expect(calls[calls.length - 2]?.status, at).toBe('stopped');
      }
      break;
    case 'unread.pause':
      if (previous?.matches({ running: 'fetching' })) expect(latest?.status, at).toBe('stopped');
      expect(context.unread, `${at}: the badge keeps its count while paused`).toBe(previous?.context.unread);
      break;
    case 'unread.stop':
      if (previous?.matches({ running: 'fetching' })) expect(latest?.status, at).toBe('stopped');
      break;
    case 'unread.startPaused':
      // Started for a user already idle: paused from the start, nothing asked until they resume.
      if (previous?.matches('stopped')) {
        expect(snapshot.value, at).toEqual({ running: 'paused' });
        expect(calls, at).toEqual([]);
      }
      break;
  }
}

const model = createPathModel(unreadCountMachine, {
  events,
  outputs: { countUnread: [4, 120] },
  errors: { countUnread: failures },
  // Small enough to replay every edge: each answer and each failure from every state it can happen in.
  edges: 'all',
  check: checkUnreadCount,
});

describe('unread count machine: model-based paths', () => {
  it('covers every state and every transition', () => {
    model.assertCoverage();
    expect(model.coverage().states.all).toEqual([
      '#unreadCount.stopped',
      '#unreadCount.running',
      '#unreadCount.running.fetching',
      '#unreadCount.running.waiting',
      '#unreadCount.running.paused',
    ]);
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });
});

/** An unread count on a simulated clock whose countUnread answers at once with the next number given. */
function startCounting(answers: Array<number | ApiFailure>) {
  const clock = new SimulatedClock();
  let asked = 0;
  const actor = createActor(
    unreadCountMachine.provide({
      actors: {
        countUnread: fromPromise<number, void>(async () => {
          const answer = answers[Math.min(asked, answers.length - 1)];
          asked += 1;
          if (typeof answer !== 'number') throw answer;
          return answer;
        }),
      },
    }),
    { clock },
  ).start();
  /** Lets an answered count reach the machine. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { clock, actor, settle, asked: () => asked };
}

describe('unread count machine: examples', () => {
  it('polls every 30,000 ms while running: not at 29,999 ms', async () => {
    expect(unreadCountMachine.implementations.delays.pollInterval).toBe(NOTIFICATION_POLL_MS);
    expect(NOTIFICATION_POLL_MS).toBe(30_000);
    const { clock, actor, settle, asked } = startCounting([3, 5, 8]);
    expect(asked()).toBe(0);
    actor.send({ type: 'unread.start' });
    expect(asked()).toBe(1);
    await settle();
    expect(actor.getSnapshot().context.unread).toBe(3);
    clock.increment(29_999);
    expect(asked()).toBe(1);
    clock.increment(1);
    expect(asked()).toBe(2);
    await settle();
    expect(actor.getSnapshot().context.unread).toBe(5);
    clock.increment(NOTIFICATION_POLL_MS);
    expect(asked()).toBe(3);
    actor.stop();
  });

  it('does not poll while paused, and counts at once on resume', async () => {
    const { clock, actor, settle, asked } = startCounting([3, 7]);
    actor.send({ type: 'unread.start' });
    await settle();
    actor.send({ type: 'unread.pause' });
    clock.increment(10 * NOTIFICATION_POLL_MS);
    expect(asked()).toBe(1);
    expect(actor.getSnapshot().context.unread).toBe(3);
    // A refresh while the user is idle does not start the poll loop again either.
    actor.send({ type: 'unread.refresh' });
    clock.increment(NOTIFICATION_POLL_MS);
    expect(asked()).toBe(1);
    expect(actor.getSnapshot().hasTag('paused')).toBe(true);
    actor.send({ type: 'unread.resume' });
    expect(asked()).toBe(2);
    await settle();
    expect(actor.getSnapshot().context.unread).toBe(7);
    expect(actor.getSnapshot().hasTag('paused')).toBe(false);
    actor.stop();
  });

  it('a failed count keeps the last one and tries again a poll interval later', async () => {
    const offline: ApiFailure = { status: 0, message: 'The network is unreachable.', fields: {} };
    const { clock, actor, settle, asked } = startCounting([12, offline, 9]);
    actor.send({ type: 'unread.start' });
    await settle();
    clock.increment(NOTIFICATION_POLL_MS);
    await settle();
    expect(asked()).toBe(2);
    expect(actor.getSnapshot().context.unread).toBe(12);
    expect(actor.getSnapshot().value).toEqual({ running: 'waiting' });
    clock.increment(NOTIFICATION_POLL_MS);
    await settle();
    expect(actor.getSnapshot().context.unread).toBe(9);
    actor.stop();
  });

  it('refresh counts now and restarts the interval from its answer', async () => {
    const { clock, actor, settle, asked } = startCounting([5, 2, 2]);
    actor.send({ type: 'unread.start' });
    await settle();
    clock.increment(20_000);
    actor.send({ type: 'unread.refresh' });
    expect(asked()).toBe(2);
    await settle();
    expect(actor.getSnapshot().context.unread).toBe(2);
    // The old timer (due at 30,000 ms) is gone; the next poll is 30,000 ms after the refresh.
    clock.increment(10_000);
    expect(asked()).toBe(2);
    clock.increment(20_000);
    expect(asked()).toBe(3);
    actor.stop();
  });

  it('refresh while a count is in flight drops that count for a fresh one', async () => {
    const answers: Array<(value: number) => void> = [];
    const actor = createActor(
      unreadCountMachine.provide({
        actors: { countUnread: fromPromise(() => new Promise<number>((resolve) => answers.push(resolve))) },
      }),
    ).start();
    actor.send({ type: 'unread.start' });
    // Notifications are marked read while the first count (taken before) is still on its way.
    actor.send({ type: 'unread.refresh' });
    expect(answers).toHaveLength(2);
    answers[0](10);
    answers[1](0);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().context.unread).toBe(0);
    actor.stop();
  });

  it('stop forgets the count; pause and resume mean nothing while stopped', async () => {
    const { actor, settle, asked } = startCounting([42]);
    actor.send({ type: 'unread.start' });
    await settle();
    expect(actor.getSnapshot().context.unread).toBe(42);
    actor.send({ type: 'unread.stop' });
    expect(actor.getSnapshot().context.unread).toBe(0);
    actor.send({ type: 'unread.pause' });
    actor.send({ type: 'unread.resume' });
    expect(actor.getSnapshot().value).toBe('stopped');
    // A pause sent while stopped is not remembered: start counts at once (the app must pause again if idle).
    actor.send({ type: 'unread.start' });
    expect(actor.getSnapshot().value).toEqual({ running: 'fetching' });
    expect(asked()).toBe(2);
    actor.stop();
  });
});

describe('unreadCount machine: coverage file', () => {
  it('docs/statecharts/coverage/unreadCount.json is what its paths cover', () => matchCoverageFile(model));
});
