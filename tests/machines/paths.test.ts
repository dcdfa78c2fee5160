import { describe, expect, it } from 'vitest';
import { assign, emit, fromCallback, fromPromise, sendTo, setup } from 'xstate';
import { coverageOf, createPathModel, type PendingTimer, type ReplayStep } from './paths';

/*
 * The harness itself (tests/machines/paths.ts), on small machines that each have one thing the portal's
 * machines rely on: timers with named and computed delays, guarded error branches, emitted events, a
 * root-invoked callback actor. Each part is proven here before a machine's tests need it.
 */

describe('path harness: timers', () => {
  const autosave = setup({
    types: {
      context: {} as { attempts: number; saved: string | null },
      events: {} as { type: 'idle.activity' } | { type: 'idle.save' },
    },
    delays: { idleTimeout: 10_000, retryDelay: ({ context }) => 1_000 * 2 ** context.attempts },
    guards: { canRetry: ({ context }) => context.attempts < 2 },
    actors: { save: fromPromise<string, void>(async () => 'saved') },
  }).createMachine({
    id: 'autosave',
    context: { attempts: 0, saved: null },
    initial: 'active',
    states: {
      active: {
        after: { idleTimeout: 'idle' },
        on: { 'idle.activity': { target: 'active', reenter: true }, 'idle.save': 'saving' },
      },
      saving: {
        invoke: {
          id: 'save',
          src: 'save',
          onDone: { target: 'active', actions: assign({ saved: ({ event }) => event.output, attempts: 0 }) },
          onError: 'retrying',
        },
      },
      retrying: {
        after: {
          retryDelay: [
            {
              guard: 'canRetry',
              target: 'saving',
              actions: assign({ attempts: ({ context }) => context.attempts + 1 }),
            },
            { target: 'idle' },
          ],
        },
      },
      idle: { on: { 'idle.activity': 'active' } },
    },
  });

  /** What each replayed step saw of the clock, for the assertions below. */
  const seen: Array<{ path: string; event: string; now: number; timers: readonly PendingTimer[] }> = [];
  const autosaveModel = createPathModel(autosave, {
    outputs: { save: ['saved'] },
    errors: { save: [new Error('disk full')] },
    check: ({ path, step, snapshot, now, timers }: ReplayStep<typeof autosave>) => {
      seen.push({ path: path.name, event: step.event.type, now, timers });
      // The timers the machine has pending are exactly those of the state it is in, due after their delay.
      if (snapshot.matches('active')) {
        expect(timers).toEqual([{ event: 'xstate.after.idleTimeout.autosave.active', due: now + 10_000 }]);
      } else if (snapshot.matches('retrying')) {
        const due = now + 1_000 * 2 ** snapshot.context.attempts;
        expect(timers).toEqual([{ event: 'xstate.after.retryDelay.autosave.retrying', due }]);
      } else {
        expect(timers).toEqual([]);
      }
    },
  });

  it('reaches every timer branch of a machine with named delays', () => {
    autosaveModel.assertCoverage();
    expect(autosaveModel.paths.some((path) => path.name.includes('after:retryDelay'))).toBe(true);
  });

  it.each(autosaveModel.paths.map((path) => [path.name, path] as const))(
    'replays %s on a simulated clock',
    async (_name, path) => {
      await autosaveModel.replay(path);
    },
  );

  it('moves the clock by exactly the delay, and only on timer steps', async () => {
    const path = autosaveModel.paths.find((candidate) =>
      candidate.name.endsWith('after:idleTimeout ⇒ "idle"'),
    )!;
    seen.length = 0;
    await autosaveModel.replay(path);
    expect(seen.map(({ event, now }) => [event, now])).toEqual([
      ['xstate.init', 0],
      ['xstate.after.idleTimeout.autosave.active', 10_000],
    ]);
  });

  const twoTimers = setup({ delays: { idleTimeout: 10_000 } }).createMachine({
    id: 'twoTimers',
    initial: 'active',
    states: { active: { after: { idleTimeout: 'idle', 60_000: 'asleep' } }, idle: {}, asleep: {} },
  });

  it('offers only the soonest timer by default, and says so when every timer is offered', async () => {
    const soonest = createPathModel(twoTimers);
    expect(() => soonest.assertCoverage()).toThrow(/#twoTimers.active --after 60000ms--> #twoTimers.asleep/);

    const all = createPathModel(twoTimers, { timers: 'all' });
    all.assertCoverage();
    const impossible = all.paths.find((path) => path.name.includes('after:60000'))!;
    await expect(all.replay(impossible)).rejects.toThrow(/fired before .*cannot happen in real time/);
  });
});

describe('path harness: a zero delay', () => {
  it('fires a timer of 0 ms without moving the clock', async () => {
    const deferring = setup({ types: { events: {} as { type: 'go' } } }).createMachine({
      id: 'deferring',
      initial: 'a',
      states: { a: { on: { go: 'b' } }, b: { after: { 0: 'c' } }, c: {} },
    });
    const nows: number[] = [];
    const model = createPathModel(deferring, { check: ({ now }) => nows.push(now) });
    model.assertCoverage();
    await model.replay(model.paths.find((path) => path.name.includes('after:0'))!);
    expect(nows).toEqual([0, 0, 0]);
  });
});

describe('path harness: coverage and replay', () => {
  const lookup = setup({
    types: {
      context: {} as { found: string | null; error: string | null },
      events: {} as { type: 'lookup.find'; q: string } | { type: 'lookup.reset' },
    },
    actors: { find: fromPromise<string, string>(async ({ input }) => input) },
    guards: {
      /** 410: what was looked for is gone for good. */
      gone: (_, params: { error: unknown }) => (params.error as { status?: unknown }).status === 410,
    },
  }).createMachine({
    id: 'lookup',
    context: { found: null, error: null },
    initial: 'ready',
    states: {
      ready: { on: { 'lookup.find': 'finding' } },
      finding: {
        invoke: {
          id: 'find',
          src: 'find',
          input: ({ event }) => (event as { q: string }).q,
          onDone: { target: 'ready', actions: assign({ found: ({ event }) => event.output, error: null }) },
          onError: [
            { guard: { type: 'gone', params: ({ event }) => ({ error: event.error }) }, target: 'gone' },
            { target: 'ready', actions: assign({ error: 'failed' }) },
          ],
        },
      },
      gone: { on: { 'lookup.reset': 'ready' } },
    },
  });
  const lookupEvents = [{ type: 'lookup.find', q: 'Ada' }, { type: 'lookup.reset' }] as const;

  it('covers a machine when every guarded branch is offered, and records what each actor was sent', async () => {
    const model = createPathModel(lookup, {
      events: [...lookupEvents],
      outputs: { find: ['Ada Obi'] },
      errors: { find: [{ status: 500 }, { status: 410 }] },
    });
    model.assertCoverage();
    const path = model.paths.find((candidate) => candidate.name.includes(': lookup.find → done:find'))!;
    const { calls } = await model.replay(path);
    expect(calls[0]).toEqual({ id: 'find', src: 'find', input: 'Ada', status: 'resolved', received: [] });
  });

  it('names the missing branch when the errors that reach it are not offered', () => {
    const partial = createPathModel(lookup, {
      events: [...lookupEvents],
      outputs: { find: ['Ada Obi'] },
      errors: { find: [{ status: 500 }] },
    });
    expect(() => partial.assertCoverage()).toThrow(/states never entered:\n {4}#lookup\.gone\n/);
    expect(() => partial.assertCoverage()).toThrow(
      /transitions never taken:\n {4}#lookup\.finding --error: find \[gone\]--> #lookup\.gone \(branch 1 of 2\)/,
    );
  });

  it('writes what is not covered as such in the coverage file, and a second model can cover it', () => {
    const partial = createPathModel(lookup, {
      events: [...lookupEvents],
      outputs: { find: ['Ada Obi'] },
      errors: { find: [{ status: 500 }] },
    });
    const coverage = coverageOf(partial);
    expect(coverage.machine).toBe('lookup');
    expect(coverage.states).toEqual({ ready: true, finding: true, gone: false });
    expect(coverage.transitions).toEqual({
      'ready --lookup.find--> finding': true,
      'finding --done: find--> ready': true,
      'finding --error: find [gone]--> gone': false,
      'finding --error: find--> ready': true,
      'gone --lookup.reset--> ready': false,
    });
    const gone = createPathModel(lookup, {
      events: [...lookupEvents],
      outputs: { find: ['Ada Obi'] },
      errors: { find: [{ status: 410 }] },
    });
    expect(Object.values(coverageOf(partial, gone).transitions).every(Boolean)).toBe(true);
  });

  it('refuses a model that could never settle an invoked actor', () => {
    expect(() => createPathModel(lookup, { errors: { find: [{ status: 500 }] } })).toThrow(/outputs\.find/);
    expect(() => createPathModel(lookup, { outputs: { find: ['Ada Obi'] } })).toThrow(/errors\.find/);
  });

  it('fails a replay whose live context differs from the model', async () => {
    // An action that reads the world outside the machine: the model and the live actor disagree.
    let outside = 0;
    const impure = setup({
      types: { context: {} as { n: number }, events: {} as { type: 'tick' } },
    }).createMachine({
      id: 'impure',
      context: { n: 0 },
      initial: 'on',
      states: {
        on: { on: { tick: { target: 'off', actions: assign({ n: () => (outside += 1) }) } } },
        off: {},
      },
    });
    const impureModel = createPathModel(impure);
    const path = impureModel.paths.find((candidate) => candidate.steps.length > 1)!;
    await expect(impureModel.replay(path)).rejects.toThrow(/context/);
  });
});

describe('path harness: emitted events', () => {
  type Notice = { type: 'notify'; tone: 'success' | 'error'; message: string } | { type: 'saved' };
  const saver = setup({
    types: {
      events: {} as { type: 'save' },
      emitted: {} as Notice,
    },
    actors: { save: fromPromise<{ message: string }, void>(async () => ({ message: 'Saved.' })) },
    actions: {
      notify: emit((_, params: { tone: 'success' | 'error'; message: string }) => ({
        type: 'notify' as const,
        ...params,
      })),
    },
  }).createMachine({
    id: 'saver',
    initial: 'editing',
    states: {
      editing: { on: { save: 'saving' } },
      saving: {
        invoke: {
          id: 'save',
          src: 'save',
          onDone: {
            target: 'editing',
            actions: [
              { type: 'notify', params: ({ event }) => ({ tone: 'success', message: event.output.message }) },
              emit({ type: 'saved' as const }),
            ],
          },
          onError: {
            target: 'editing',
            actions: { type: 'notify', params: { tone: 'error', message: 'Not saved.' } },
          },
        },
      },
    },
  });

  const perStep: Array<{ event: string; emitted: unknown[]; allEmitted: unknown[] }> = [];
  const model = createPathModel(saver, {
    outputs: { save: [{ message: 'Saved at noon.' }] },
    errors: { save: [new Error('offline')] },
    check: ({ step, emitted, allEmitted }: ReplayStep<typeof saver>) => {
      perStep.push({ event: step.event.type, emitted: [...emitted], allEmitted: [...allEmitted] });
    },
  });

  it('knows from the model what each step emits, payload resolved', () => {
    model.assertCoverage();
    const done = model.paths.flatMap((path) => path.steps).find((step) => step.event.type.includes('done'))!;
    expect(done.emitted).toEqual([
      { type: 'notify', tone: 'success', message: 'Saved at noon.' },
      { type: 'saved' },
    ]);
    const failed = model.paths
      .flatMap((path) => path.steps)
      .find((step) => step.event.type.includes('error'))!;
    expect(failed.emitted).toEqual([{ type: 'notify', tone: 'error', message: 'Not saved.' }]);
  });

  it('hands each step what the live actor emitted then, and everything so far', async () => {
    const path = model.paths.find((candidate) => candidate.name.includes('done:save'))!;
    perStep.length = 0;
    const { emitted } = await model.replay(path);
    const success = [{ type: 'notify', tone: 'success', message: 'Saved at noon.' }, { type: 'saved' }];
    expect(perStep).toEqual([
      { event: 'xstate.init', emitted: [], allEmitted: [] },
      { event: 'save', emitted: [], allEmitted: [] },
      { event: 'xstate.done.actor.save', emitted: success, allEmitted: success },
    ]);
    expect(emitted).toEqual(success);
  });

  it('fails a replay whose live actor emits something else than the model', async () => {
    let outside = 0;
    const impure = setup({
      types: { events: {} as { type: 'tick' }, emitted: {} as { type: 'ticked'; n: number } },
    }).createMachine({
      id: 'impureEmit',
      initial: 'on',
      states: {
        on: {
          on: {
            tick: { target: 'off', actions: emit(() => ({ type: 'ticked' as const, n: (outside += 1) })) },
          },
        },
        off: {},
      },
    });
    const impureModel = createPathModel(impure);
    const path = impureModel.paths.find((candidate) => candidate.steps.length > 1)!;
    await expect(impureModel.replay(path)).rejects.toThrow(/emitted events/);
  });
});

describe('path harness: actors that are not promises', () => {
  it('runs a root-invoked callback actor handed in with `actors`, for the whole replay', async () => {
    const watching: Array<{ stopped: boolean }> = [];
    const watched = setup({
      types: { events: {} as { type: 'poke' } },
      actors: { watch: fromCallback(() => () => {}) },
    }).createMachine({
      id: 'watched',
      invoke: { id: 'watcher', src: 'watch' },
      initial: 'calm',
      states: { calm: { on: { poke: 'poked' } }, poked: { on: { poke: 'calm' } } },
    });
    const model = createPathModel(watched, {
      actors: {
        watch: fromCallback(() => {
          const run = { stopped: false };
          watching.push(run);
          return () => {
            run.stopped = true;
          };
        }),
      },
      check: ({ snapshot, calls }) => {
        expect(snapshot.children.watcher, 'the watcher runs in every state').toBeDefined();
        expect(watching.filter((run) => !run.stopped)).toHaveLength(1);
        // Only promise stubs are calls; the callback replaced its stub.
        expect(calls).toEqual([]);
      },
    });
    model.assertCoverage();
    for (const path of model.paths) await model.replay(path);
    expect(watching.length).toBe(model.paths.length);
    expect(
      watching.every((run) => run.stopped),
      'stopped with the actor after each replay',
    ).toBe(true);
  });

  it('stubs an invoked callback actor: it records its input, stays alive, hears what it is sent, and is stopped', async () => {
    // An upload: the callback sends progress and a result back; the machine can tell it to pause.
    type UploadEvent =
      | { type: 'upload.start'; file: string }
      | { type: 'upload.pause' }
      | { type: 'upload.progress'; percent: number }
      | { type: 'upload.done' };
    const upload = setup({
      types: { context: {} as { percent: number }, events: {} as UploadEvent },
      actors: { send: fromCallback<UploadEvent, string>(() => () => {}) },
    }).createMachine({
      id: 'upload',
      context: { percent: 0 },
      initial: 'idle',
      states: {
        idle: { on: { 'upload.start': 'sending' } },
        sending: {
          invoke: {
            id: 'sender',
            src: 'send',
            input: ({ event }) => (event as { file: string }).file,
            // A callback that throws when it starts.
            onError: { target: 'idle' },
          },
          on: {
            'upload.progress': { actions: assign({ percent: ({ event }) => event.percent }) },
            'upload.pause': { actions: sendTo('sender', { type: 'upload.pause' }) },
            'upload.done': 'sent',
          },
        },
        sent: {},
      },
    });
    const model = createPathModel(upload, {
      events: [
        { type: 'upload.start', file: 'photo.jpg' },
        { type: 'upload.progress', percent: 50 },
        { type: 'upload.pause' },
        { type: 'upload.done' },
      ],
      errors: { sender: [new Error('FormData failed')] },
      edges: 'all',
      check: ({ snapshot, calls }) => {
        // One run while sending, alive between the events it sends back; none otherwise.
        const running = calls.filter((call) => call.status === 'pending');
        expect(running).toHaveLength(snapshot.matches('sending') ? 1 : 0);
        if (snapshot.matches('sending')) expect(snapshot.children.sender).toBeDefined();
      },
    });
    model.assertCoverage();

    const named = (trail: string) => {
      const found = model.paths.find((p) => p.name.includes(`: ${trail} ⇒`));
      expect(found, `a path ${trail} among\n${model.paths.map((p) => p.name).join('\n')}`).toBeDefined();
      return found!;
    };
    // The events it sends back are sent to the machine; it runs until the machine leaves `sending`.
    const sent = await model.replay(named('upload.start → upload.progress → upload.done'));
    expect(sent.snapshot.value).toBe('sent');
    expect(sent.snapshot.context.percent).toBe(50);
    expect(sent.calls).toEqual([
      { id: 'sender', src: 'send', input: 'photo.jpg', status: 'stopped', received: [] },
    ]);
    // What the machine sends it is recorded on its run.
    const paused = await model.replay(named('upload.start → upload.progress → upload.pause'));
    expect(paused.calls.map((call) => call.received)).toEqual([[{ type: 'upload.pause' }]]);

    const failed = model.paths.find((p) =>
      p.steps.some((step) => step.event.type === 'xstate.error.actor.sender'),
    );
    const { calls } = await model.replay(failed!);
    expect(calls[calls.length - 1]).toMatchObject({ id: 'sender', status: 'rejected' });
  });
});
