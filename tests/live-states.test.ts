import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, setup } from 'xstate';
import { getLiveStates, inspectAppActors, subscribeLiveStates } from '../src/app/liveStates';

/** What /statecharts shows and copies of the app's actors: state values from XState's inspection only. */

const child = setup({
  types: { context: {} as { token: string }, events: {} as { type: 'go' } },
}).createMachine({
  id: 'childMachine',
  context: { token: 'secret-token-123' },
  initial: 'waiting',
  states: { waiting: { on: { go: 'done' } }, done: {} },
});

const parent = setup({
  actors: { child, lookup: fromPromise(async () => 'secret-answer') },
}).createMachine({
  id: 'parentMachine',
  type: 'parallel',
  invoke: [
    { id: 'kid', systemId: 'kid', src: 'child' },
    { id: 'lookup', src: 'lookup' },
  ],
  states: { a: { initial: 'one', states: { one: {} } }, b: { initial: 'two', states: { two: {} } } },
});

describe('live state of the app actors', () => {
  it('keeps each machine actor’s state value as it changes, never its context, and tells subscribers', () => {
    let told = 0;
    const unsubscribe = subscribeLiveStates(() => (told += 1));
    const app = createActor(parent, { inspect: inspectAppActors }).start();
    const byActor = () => Object.fromEntries(getLiveStates().actors.map((a) => [a.actor, a]));
    expect(byActor().parentMachine).toMatchObject({
      machine: 'parentMachine',
      value: { a: 'one', b: 'two' },
      status: 'active',
    });
    expect(byActor().kid).toMatchObject({ machine: 'childMachine', value: 'waiting' });
    // The promise actor has no state value: not listed.
    expect(Object.keys(byActor())).toEqual(expect.arrayContaining(['parentMachine', 'kid']));
    expect(Object.keys(byActor())).not.toContain('lookup');

    const before = told;
    app.system.get('kid')!.send({ type: 'go' });
    expect(byActor().kid.value).toBe('done');
    expect(told).toBeGreaterThan(before);
    expect(JSON.stringify(getLiveStates())).not.toContain('secret');
    unsubscribe();
    app.stop();
  });
});
