import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyEventObject } from 'xstate';
import { CANDIDATE_RULE_MESSAGES, type RegStatus } from '../../contract/candidates';
import type { ApiFailure, FieldMessages } from '../../contract/envelope';
import type { NotifyEmitted } from '../../machines/notify';
import {
  statusToggleMachine,
  type StatusToggleEvent,
  type StatusToggleInput,
} from '../../machines/statusToggle.machine';
import {
  createPathModel,
  matchCoverageFile,
  defaultDescribeEvent,
  errorOf,
  outputOf,
  type ReplayStep,
} from './paths';

const GENERIC = 'Something went wrong. Please try again.';

const failure = (status: number, message: string, fields: FieldMessages = {}): ApiFailure => ({
  status,
  message,
  fields,
});

/** A candidate's reg_status in the registered-candidates list. */
const candidateRow = (regStatus: RegStatus) => ({ id: 7, first_name: 'Ada', reg_status: regStatus });

const inputs: StatusToggleInput[] = [
  // Taking a candidate off the exam is confirmed first; putting them on is not.
  { row: candidateRow('registered'), field: 'reg_status', confirmValues: ['unregistered'] },
  // No value needs confirming (no confirmValues at all).
  { row: candidateRow('unregistered'), field: 'reg_status' },
];

const events: StatusToggleEvent[] = [
  { type: 'toggle.change', value: 'registered' },
  { type: 'toggle.change', value: 'unregistered' },
  { type: 'toggle.confirm' },
  { type: 'toggle.cancel' },
];

/** What the server answers: the value it now holds (with or without a sentence of its own). */
const answers = [{ value: 'registered' }, { value: 'unregistered', message: 'Registration status updated.' }];

const errors: unknown[] = [
  failure(0, 'The portal could not be reached. Check your connection and try again.'),
  failure(500, 'The portal answered 500. Please try again.'),
  failure(422, CANDIDATE_RULE_MESSAGES.choose, { reg_status: [CANDIDATE_RULE_MESSAGES.choose] }),
  failure(403, 'This action is unauthorized.'),
  // Not an ApiFailure: still a sentence.
  new TypeError('Failed to fetch'),
];

/** The sentence a failure shows: its own message, else the generic one. */
const messageOf = (error: unknown) => (error instanceof Error ? GENERIC : (error as ApiFailure).message);

/** Path names say which value was chosen and which the server answered. */
function describeEvent(event: AnyEventObject): string {
  if (event.type === 'toggle.change') return `toggle.change(${String(event.value)})`;
  if (event.type === 'xstate.done.actor.updateStatus') {
    return `done:updateStatus(${(outputOf(event) as { value: string }).value})`;
  }
  return defaultDescribeEvent(event);
}

/**
 * What the row must show after a step, from the path's own events: the value the server last confirmed
 * (the input's, until an update succeeds), and the value chosen and not yet confirmed or saved.
 */
function expected({ path, index }: ReplayStep<typeof statusToggleMachine>) {
  const { row, field, confirmValues = [] } = path.input;
  let saved = String(row[field]);
  let shown = saved;
  let waiting: string | null = null;
  let error: string | null = null;
  let requests = 0;
  for (const step of path.steps.slice(1, index + 1)) {
    const event = step.event;
    if (event.type === 'toggle.change') {
      const { value } = event as Extract<StatusToggleEvent, { type: 'toggle.change' }>;
      if (value === shown) continue;
      error = null;
      if (confirmValues.includes(value)) {
        waiting = value;
      } else {
        shown = value;
        requests += 1;
      }
    }
    if (event.type === 'toggle.confirm') {
      shown = waiting!;
      waiting = null;
      requests += 1;
    }
    if (event.type === 'toggle.cancel') waiting = null;
    if (event.type === 'xstate.done.actor.updateStatus') {
      saved = (outputOf(event) as { value: string }).value;
      shown = saved;
    }
    if (event.type === 'xstate.error.actor.updateStatus') {
      shown = saved;
      error = messageOf(errorOf(event));
    }
  }
  return { saved, shown, waiting, error, requests };
}

function checkStatusToggle(replayed: ReplayStep<typeof statusToggleMachine>): void {
  const { step, snapshot, previous, calls, emitted, path } = replayed;
  const { context } = snapshot;
  const event = step.event;
  const at = `after ${event.type} in ${JSON.stringify(snapshot.value)}`;
  const want = expected(replayed);
  const updating = snapshot.matches('updating');

  // Tags are exactly the states the row reads them for.
  expect(snapshot.hasTag('busy'), at).toBe(updating);
  expect(snapshot.hasTag('confirming'), at).toBe(snapshot.matches('confirming'));
  expect(snapshot.hasTag('failed'), at).toBe(snapshot.matches({ ready: 'failed' }));

  // The row it belongs to never changes.
  expect(context.id, at).toBe(path.input.row.id);
  expect(context.field, at).toBe(path.input.field);
  expect(context.confirmValues, at).toEqual(path.input.confirmValues ?? []);

  // The value shown is the chosen one while it is saved, the server's once saved, the old one after a
  // failure; the value to put back is always the server's last.
  expect(context.value, `${at}: value shown`).toBe(want.shown);
  expect(context.saved, `${at}: saved value`).toBe(want.saved);
  expect(context.pending, `${at}: waiting for confirmation`).toBe(want.waiting);
  expect(context.error, `${at}: error`).toBe(want.error);
  if (snapshot.matches('ready')) expect(context.value, at).toBe(context.saved);
  if (snapshot.matches('confirming')) {
    expect(context.pending, at).not.toBeNull();
    expect(context.pending, at).not.toBe(context.value);
    expect(context.confirmValues, at).toContain(context.pending);
  }
  // A failure's sentence shows only until the next choice.
  if (!snapshot.matches({ ready: 'failed' })) expect(context.error, at).toBeNull();

  // One request while updating, for the value shown; none otherwise.
  const running = calls.filter((call) => call.status === 'pending');
  expect(running.length, `${at}: requests in flight`).toBe(updating ? 1 : 0);
  if (updating) {
    expect(running[0]).toMatchObject({ id: 'updateStatus', src: 'updateStatus' });
    expect(running[0].input, at).toEqual({ id: context.id, field: context.field, value: context.value });
  }
  // A request is made by a change that needs no confirmation and by a confirmation, and by nothing else.
  expect(calls.length, `${at}: requests made`).toBe(want.requests);

  // A failure is toasted with its reason, a success with the server's sentence when it says one.
  if (!event.type.startsWith('xstate.') || !event.type.endsWith('.updateStatus'))
    expect(emitted, at).toEqual([]);

  switch (event.type) {
    case 'xstate.init':
      expect(snapshot.value, at).toEqual({ ready: 'saved' });
      expect(context.value, at).toBe(String(path.input.row[path.input.field]));
      break;
    case 'toggle.change': {
      const { value } = event as Extract<StatusToggleEvent, { type: 'toggle.change' }>;
      if (value === previous?.context.value) {
        // Choosing the value already shown does nothing at all.
        expect(snapshot.value, at).toEqual(previous.value);
        expect(context, at).toEqual(previous.context);
        expect(
          step.transitions.map((t) => t.targets),
          at,
        ).toEqual([[]]);
      } else if ((path.input.confirmValues ?? []).includes(value)) {
        // Asked first: nothing changes in the row, nothing is sent.
        expect(snapshot.value, at).toBe('confirming');
        expect(context.value, at).toBe(previous?.context.value);
        expect(context.pending, at).toBe(value);
      } else {
        // Sent at once (a change after a failure is the retry), and shown at once.
        expect(snapshot.value, at).toBe('updating');
        expect(context.value, at).toBe(value);
        expect(context.saved, at).toBe(previous?.context.saved);
      }
      break;
    }
    case 'toggle.confirm':
      expect(snapshot.value, at).toBe('updating');
      expect(context.value, at).toBe(previous?.context.pending);
      expect(context.saved, at).toBe(previous?.context.saved);
      break;
    case 'toggle.cancel':
      // Nothing changed: the row shows what it showed, no sentence, nothing sent.
      expect(snapshot.value, at).toEqual({ ready: 'saved' });
      expect(context.value, at).toBe(previous?.context.value);
      expect(context.saved, at).toBe(previous?.context.saved);
      break;
    case 'xstate.done.actor.updateStatus': {
      const { value, message } = outputOf(event) as { value: string; message?: string };
      expect(snapshot.value, at).toEqual({ ready: 'saved' });
      expect([context.value, context.saved], at).toEqual([value, value]);
      expect(emitted, at).toEqual(
        message ? ([{ type: 'notify', tone: 'success', message }] satisfies NotifyEmitted[]) : [],
      );
      break;
    }
    case 'xstate.error.actor.updateStatus': {
      const error = errorOf(event);
      // The old value is back, with the reason, in the row and in a toast.
      expect(snapshot.value, at).toEqual({ ready: 'failed' });
      expect(context.value, at).toBe(previous?.context.saved);
      expect(context.value, at).not.toBe(previous?.context.value);
      expect(context.error, at).toBe(messageOf(error));
      expect(emitted, at).toEqual([
        { type: 'notify', tone: 'error', message: messageOf(error) },
      ] satisfies NotifyEmitted[]);
      break;
    }
    default:
      throw new Error(`${at}: an event the test does not know`);
  }
}

const model = createPathModel(statusToggleMachine, {
  inputs,
  events,
  outputs: { updateStatus: answers },
  errors: { updateStatus: errors },
  // Each answer and each failure from every state they can happen in, and every choice after each.
  edges: 'all',
  check: checkStatusToggle,
  describeEvent,
});

describe('status toggle machine: model-based paths', () => {
  it('covers every state and every transition from both inputs', () => {
    model.assertCoverage();
    for (const [index] of inputs.entries()) {
      expect(model.paths.some((path) => path.inputIndex === index)).toBe(true);
    }
  });

  it('replays a change after each failure, and a cancel and a confirm of each confirmed value', () => {
    const trails = model.paths.map((path) => path.steps.map((step) => step.event));
    for (const error of errors) {
      expect(
        model.paths.some(({ steps }) =>
          steps.some(
            (step, n) =>
              step.event.type === 'xstate.error.actor.updateStatus' &&
              errorOf(step.event) === error &&
              steps[n + 1]?.event.type === 'toggle.change' &&
              steps[n + 1].state.matches('updating'),
          ),
        ),
        `a retry after ${messageOf(error)}`,
      ).toBe(true);
    }
    for (const type of ['toggle.confirm', 'toggle.cancel']) {
      expect(trails.some((trail) => trail.some((e) => e.type === type))).toBe(true);
    }
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });
});

/** A toggle whose update answers from the list given, in turn (an Error or ApiFailure is thrown). */
function toggle(input: StatusToggleInput, results: unknown[]) {
  const sent: Array<{ id: number | string; field: string; value: string }> = [];
  const actor = createActor(
    statusToggleMachine.provide({
      actors: {
        updateStatus: fromPromise<
          { value: string; message?: string },
          { id: number | string; field: string; value: string }
        >(async ({ input: request }) => {
          sent.push(request);
          const result = results[sent.length - 1];
          if (result instanceof Error || (result as ApiFailure).status !== undefined) throw result;
          return result as { value: string };
        }),
      },
    }),
    { input },
  );
  const heard: NotifyEmitted[] = [];
  actor.on('notify', (notice) => heard.push(notice));
  actor.start();
  return { actor, sent, heard };
}

describe('status toggle machine: examples', () => {
  it('shows the new value at once while it is saved, and keeps the server’s', async () => {
    const { actor, sent, heard } = toggle(inputs[1], [{ value: 'registered' }]);
    actor.send({ type: 'toggle.change', value: 'registered' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context.value).toBe('registered');
    const saved = await waitFor(actor, (s) => s.matches({ ready: 'saved' }));
    expect(saved.context).toMatchObject({ value: 'registered', saved: 'registered', error: null });
    expect(sent).toEqual([{ id: 7, field: 'reg_status', value: 'registered' }]);
    expect(heard).toEqual([]);
  });

  it('a failure puts the old value back, says why, and the next change tries again', async () => {
    const offline = failure(0, 'The portal could not be reached. Check your connection and try again.');
    const { actor, sent, heard } = toggle(inputs[1], [offline, { value: 'registered' }]);
    actor.send({ type: 'toggle.change', value: 'registered' });
    const failed = await waitFor(actor, (s) => s.matches({ ready: 'failed' }));
    expect(failed.context).toMatchObject({
      value: 'unregistered',
      saved: 'unregistered',
      error: offline.message,
    });
    expect(failed.hasTag('failed')).toBe(true);
    expect(heard).toEqual([{ type: 'notify', tone: 'error', message: offline.message }]);

    actor.send({ type: 'toggle.change', value: 'registered' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await waitFor(actor, (s) => s.matches({ ready: 'saved' }));
    expect(sent.map((request) => request.value)).toEqual(['registered', 'registered']);
  });

  it('asks before a value that needs it; cancelling changes nothing and sends nothing', async () => {
    const { actor, sent } = toggle(inputs[0], [{ value: 'unregistered' }]);
    actor.send({ type: 'toggle.change', value: 'unregistered' });
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(actor.getSnapshot().context).toMatchObject({ value: 'registered', pending: 'unregistered' });
    actor.send({ type: 'toggle.cancel' });
    expect(actor.getSnapshot().value).toEqual({ ready: 'saved' });
    expect(actor.getSnapshot().context).toMatchObject({ value: 'registered', pending: null });
    expect(sent).toEqual([]);

    actor.send({ type: 'toggle.change', value: 'unregistered' });
    actor.send({ type: 'toggle.confirm' });
    expect(actor.getSnapshot().context.value).toBe('unregistered');
    await waitFor(actor, (s) => s.matches({ ready: 'saved' }));
    expect(sent).toEqual([{ id: 7, field: 'reg_status', value: 'unregistered' }]);
  });

  it('choosing the value already shown does nothing', () => {
    const { actor, sent } = toggle(inputs[0], []);
    const before = actor.getSnapshot();
    actor.send({ type: 'toggle.change', value: 'registered' });
    expect(actor.getSnapshot()).toBe(before);
    expect(sent).toEqual([]);
  });

  it('ignores choices while a value is being saved', () => {
    const { actor, sent } = toggle(inputs[1], [new Promise(() => {})]);
    actor.send({ type: 'toggle.change', value: 'registered' });
    actor.send({ type: 'toggle.change', value: 'unregistered' });
    expect(actor.getSnapshot().value).toBe('updating');
    expect(actor.getSnapshot().context.value).toBe('registered');
    expect(sent).toHaveLength(1);
  });

  it('works on a boolean column, as text (the board’s document check)', async () => {
    const { actor, sent } = toggle({ row: { id: 9, verified: false }, field: 'verified' }, [
      { value: 'true' },
    ]);
    expect(actor.getSnapshot().context.value).toBe('false');
    actor.send({ type: 'toggle.change', value: 'true' });
    await waitFor(actor, (s) => s.matches({ ready: 'saved' }));
    expect(sent).toEqual([{ id: 9, field: 'verified', value: 'true' }]);
  });
});

describe('statusToggle machine: coverage file', () => {
  it('docs/statecharts/coverage/statusToggle.json is what its paths cover', () => matchCoverageFile(model));
});
