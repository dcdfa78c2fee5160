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
    // Stopped with its children: none is left in the list.
    expect(getLiveStates().actors.map((a) => a.actor)).not.toContain('kid');
    expect(getLiveStates().actors.map((a) => a.actor)).not.toContain('parentMachine');
  });
});

/** A page's own actor (a payment, a form): a root of its own, with unnamed children (a sheet's rows). */
const row = setup({}).createMachine({ id: 'rowMachine', initial: 'clean', states: { clean: {} } });
const pageMachine = setup({
  types: { context: {} as { email: string }, events: {} as { type: 'pay' } | { type: 'finish' } },
  actors: { row },
}).createMachine({
  id: 'pageMachine',
  context: { email: 'someone@example.org' },
  invoke: [
    { id: 'row1', src: 'row' },
    { id: 'row2', src: 'row' },
  ],
  initial: 'choosing',
  states: {
    choosing: { on: { pay: 'paying' } },
    paying: { on: { finish: 'paid' } },
    paid: { type: 'final' },
  },
});

describe('live state of a page’s own actors', () => {
  const pageEntries = () => getLiveStates().actors.filter((a) => a.machine === 'pageMachine');

  it('lists a page actor while it runs, follows it, and drops it when the page stops it', () => {
    const payment = createActor(pageMachine, { inspect: inspectAppActors }).start();
    expect(pageEntries()).toEqual([expect.objectContaining({ actor: 'pageMachine', value: 'choosing' })]);
    // Its unnamed children (a sheet's rows) are not listed: the list stays the user's few actors.
    expect(getLiveStates().actors.some((a) => a.machine === 'rowMachine')).toBe(false);
    payment.send({ type: 'pay' });
    expect(pageEntries()[0].value).toBe('paying');
    expect(JSON.stringify(getLiveStates())).not.toContain('someone@example.org');

    payment.stop();
    expect(pageEntries()).toEqual([]);
  });

  it('keeps two actors of one machine apart, and drops one that finishes', () => {
    const first = createActor(pageMachine, { inspect: inspectAppActors }).start();
    const second = createActor(pageMachine, { inspect: inspectAppActors }).start();
    second.send({ type: 'pay' });
    expect(pageEntries().map((a) => a.value)).toEqual(['choosing', 'paying']);
    expect(new Set(pageEntries().map((a) => a.id)).size).toBe(2);

    second.send({ type: 'finish' });
    expect(pageEntries().map((a) => a.value)).toEqual(['choosing']);
    first.stop();
    expect(pageEntries()).toEqual([]);
  });
});
