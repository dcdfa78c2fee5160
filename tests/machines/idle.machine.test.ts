import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, SimulatedClock } from 'xstate';
import { IDLE_TIMEOUT_MS } from '../../contract/constants';
import { idleMachine, type IdleEvent } from '../../machines/idle.machine';
import { createPathModel, matchCoverageFile, type ReplayStep } from './paths';

const activity: IdleEvent = { type: 'idle.activity' };
const IDLE_TIMER = 'xstate.after.idleTimeout.idle.active';

/** The page watcher, replaced: it records each run, and hands out its `sendBack` to play a click. */
interface Watcher {
  stopped: boolean;
  report: () => void;
}
const watchers: Watcher[] = [];
const fakeWatchActivity = fromCallback<IdleEvent>(({ sendBack }) => {
  const watcher: Watcher = { stopped: false, report: () => sendBack(activity) };
  watchers.push(watcher);
  return () => {
    watcher.stopped = true;
  };
});

/** When the live actor last (re)entered `active`, per replay: the timer counts from there. */
let activeSince = 0;
let watchersBefore = 0;

function checkIdle({ index, step, snapshot, previous, now, timers, calls }: ReplayStep<typeof idleMachine>) {
  const at = `after ${step.event.type} at ${now} ms in ${JSON.stringify(snapshot.value)}`;

  // The tag views read is exactly the state.
  expect(snapshot.hasTag('idle'), at).toBe(snapshot.matches('idle'));

  // One watcher for the actor's whole life: invoked on the root, never restarted by the timer or activity.
  if (index === 0) watchersBefore = watchers.length - 1;
  expect(watchers.length - watchersBefore, `${at}: watchers started`).toBe(1);
  expect(watchers[watchers.length - 1].stopped, `${at}: watcher stopped`).toBe(false);
  expect(snapshot.children.activity, at).toBeDefined();
  // Nothing here asks the server.
  expect(calls, at).toEqual([]);

  if (snapshot.matches('active')) {
    // Entering or re-entering `active` (start, activity) starts a full 10,000 ms countdown from now.
    if (step.event.type === 'xstate.init' || step.event.type === 'idle.activity') activeSince = now;
    expect(timers, `${at}: the idle timer`).toEqual([
      { event: IDLE_TIMER, due: activeSince + IDLE_TIMEOUT_MS },
    ]);
    expect(activeSince, at).toBe(now);
  } else {
    // Idle: no timer left; only activity brings it back.
    expect(timers, at).toEqual([]);
    if (step.event.type === IDLE_TIMER) {
      expect(previous?.matches('active'), at).toBe(true);
      expect(now - activeSince, `${at}: time without activity`).toBe(IDLE_TIMEOUT_MS);
    }
  }
  // No event is emitted (the app reads the tag); the harness already compares with the model.
}

const model = createPathModel(idleMachine, {
  events: [activity],
  actors: { watchActivity: fakeWatchActivity },
  check: checkIdle,
});

describe('idle machine: model-based paths', () => {
  it('covers every state and every transition', () => {
    model.assertCoverage();
    expect(model.coverage().transitions.all.map((t) => t.label)).toEqual([
      '#idle.active --idle.activity--> #idle.active',
      '#idle.active --after idleTimeout--> #idle.idle',
      '#idle.idle --idle.activity--> #idle.active',
    ]);
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });
});

/** An idle actor on a simulated clock, with the fake watcher (its last run is the one to play with). */
function startIdle() {
  const clock = new SimulatedClock();
  const actor = createActor(idleMachine.provide({ actors: { watchActivity: fakeWatchActivity } }), {
    clock,
  }).start();
  const watcher = watchers[watchers.length - 1];
  const isIdle = () => actor.getSnapshot().hasTag('idle');
  return { clock, actor, watcher, isIdle };
}

describe('idle machine: examples', () => {
  it('waits the 10,000 ms of spec section 9', () => {
    expect(IDLE_TIMEOUT_MS).toBe(10_000);
    expect(idleMachine.implementations.delays.idleTimeout).toBe(10_000);
  });

  it('goes idle after exactly 10,000 ms without activity, not at 9,999 ms', () => {
    const { clock, actor, isIdle } = startIdle();
    clock.increment(9_999);
    expect(isIdle()).toBe(false);
    clock.increment(1);
    expect(isIdle()).toBe(true);
    expect(actor.getSnapshot().value).toBe('idle');
    actor.stop();
  });

  it('activity at 9,000 ms restarts the countdown: idle at 19,000 ms, not at 18,999 ms', () => {
    const { clock, actor, watcher, isIdle } = startIdle();
    clock.increment(9_000);
    watcher.report();
    clock.increment(1_000);
    // 10,000 ms since the start, but only 1,000 since the click.
    expect(isIdle()).toBe(false);
    clock.increment(8_999);
    expect(isIdle()).toBe(false);
    clock.increment(1);
    expect(clock.now()).toBe(19_000);
    expect(isIdle()).toBe(true);
    actor.stop();
  });

  it('activity while idle clears the flag at once, and the countdown starts again from then', () => {
    const { clock, actor, watcher, isIdle } = startIdle();
    clock.increment(25_000);
    expect(isIdle()).toBe(true);
    watcher.report();
    expect(isIdle()).toBe(false);
    clock.increment(9_999);
    expect(isIdle()).toBe(false);
    clock.increment(1);
    expect(isIdle()).toBe(true);
    actor.stop();
  });

  it('the watcher runs while the actor runs and is removed when it stops', () => {
    const { actor, watcher } = startIdle();
    expect(watcher.stopped).toBe(false);
    actor.stop();
    expect(watcher.stopped).toBe(true);
  });

  it('without its watchActivity actor the machine fails loudly instead of never going idle', () => {
    const actor = createActor(idleMachine);
    const errors: unknown[] = [];
    actor.subscribe({ error: (error) => errors.push(error) });
    actor.start();
    expect(actor.getSnapshot().status).toBe('error');
    expect(String(errors[0])).toMatch(/idle machine needs its watchActivity actor/);
  });
});

describe('idle machine: coverage file', () => {
  it('docs/statecharts/coverage/idle.json is what its paths cover', () => matchCoverageFile(model));
});
