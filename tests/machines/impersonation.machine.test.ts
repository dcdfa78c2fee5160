import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { ApiFailure } from '../../contract/envelope';
import {
  IMPERSONATION_MESSAGES,
  type ImpersonationStarted,
  type StartImpersonationPayload,
  type SwitchedBack,
} from '../../contract/impersonation';
import type { User } from '../../contract/user';
import {
  impersonationMachine,
  type ImpersonationEvent,
  type ImpersonationInput,
  type ImpersonationTarget,
} from '../../machines/impersonation.machine';
import type { NotifyEmitted } from '../../machines/notify';
import { createPathModel, matchCoverageFile, errorOf, type ReplayStep } from './paths';

const GENERIC = 'Something went wrong. Please try again.';
const SWITCH_BACK_TOKEN = 'imp_0123456789abcdef';

const schoolAdmin: ImpersonationTarget = { id: 12, name: 'Grace Eze', email: 'grace@school.example.org' };
const reason = 'Checking the fee records the school reported as missing.';

const asUser = (user: Partial<User>): User => ({
  id: 1,
  name: 'Board Admin',
  email: 'admin@board.example.org',
  phone_number: null,
  photo: null,
  gender: null,
  user_role: 'admin',
  operator_id: null,
  training_school: null,
  impersonator: null,
  ...user,
});

const started: ImpersonationStarted = {
  user: asUser({
    ...schoolAdmin,
    user_role: 'school_admin',
    training_school: { id: 3, code: 'TS003', name: 'Lagos School of Nursing', status: 'active' },
    impersonator: { id: 1, name: 'Board Admin', email: 'admin@board.example.org' },
  }),
  access_token: '2|school-admin-token',
  impersonation_token: SWITCH_BACK_TOKEN,
};
const switchedBack: SwitchedBack = { user: asUser({}), access_token: '3|admin-token' };

const failure = (status: number, message: string, fields: Record<string, string[]> = {}): ApiFailure => ({
  status,
  message,
  fields,
});

const startErrors: unknown[] = [
  failure(403, IMPERSONATION_MESSAGES.notSchoolAdmin),
  failure(422, IMPERSONATION_MESSAGES.reasonRequired, { reason: [IMPERSONATION_MESSAGES.reasonRequired] }),
  new TypeError('Failed to fetch'),
];
const switchBackErrors: unknown[] = [
  failure(403, IMPERSONATION_MESSAGES.switchBackRefused),
  failure(0, 'The network is unreachable.'),
];

/** The sentence a failure shows: its own message, else the generic one. */
const messageOf = (error: unknown) => (error instanceof Error ? GENERIC : (error as ApiFailure).message);

const inputs: ImpersonationInput[] = [
  { impersonationToken: null },
  { impersonationToken: SWITCH_BACK_TOKEN },
];

const events: ImpersonationEvent[] = [
  { type: 'impersonation.request', user: schoolAdmin },
  { type: 'impersonation.confirm', reason },
  { type: 'impersonation.cancel' },
  { type: 'impersonation.switchBack' },
];

function checkImpersonation(replayed: ReplayStep<typeof impersonationMachine>): void {
  const { step, snapshot, previous, calls, emitted, path } = replayed;
  const { context } = snapshot;
  const event = step.event;
  const at = `after ${event.type} in ${JSON.stringify(snapshot.value)}`;
  const latest = calls[calls.length - 1];
  const inFlight = calls.filter((call) => call.status === 'pending' && call.id !== 'reloadRoot');

  // Tags: busy is a request in flight (or the page going away); impersonating is "Switch To Admin is offered".
  const busy =
    snapshot.matches('starting') || snapshot.matches('switchingBack') || snapshot.matches('reloading');
  expect(snapshot.hasTag('busy'), at).toBe(busy);
  expect(snapshot.hasTag('impersonating'), at).toBe(
    snapshot.matches('impersonating') || snapshot.matches('switchingBack'),
  );
  expect(inFlight.length, `${at}: requests in flight`).toBe(
    snapshot.matches('starting') || snapshot.matches('switchingBack') ? 1 : 0,
  );

  // Invariants of the data each state shows.
  if (snapshot.hasTag('impersonating')) expect(context.token, at).not.toBeNull();
  if (snapshot.matches('notImpersonating')) expect([context.token, context.target], at).toEqual([null, null]);
  if (snapshot.matches('askingReason') || snapshot.matches('starting')) {
    expect(context.target, at).toEqual(schoolAdmin);
  }
  // No stale failure under a spinner.
  if (snapshot.matches('starting') || snapshot.matches('switchingBack')) expect(context.error, at).toBeNull();
  // Only failures are toasted; everything else is seen on the page (or the page reloads).
  if (!event.type.startsWith('xstate.error.actor.')) expect(emitted, at).toEqual([]);

  switch (event.type) {
    case 'xstate.init':
      expect(snapshot.value, at).toBe(path.input.impersonationToken ? 'impersonating' : 'notImpersonating');
      expect(context.token, at).toBe(path.input.impersonationToken);
      break;
    case 'impersonation.request':
      expect(snapshot.value, at).toBe('askingReason');
      expect(context.error, at).toBeNull();
      break;
    case 'impersonation.cancel':
      expect(snapshot.value, at).toBe('notImpersonating');
      expect(context.error, at).toBeNull();
      break;
    case 'impersonation.confirm':
      expect(latest, at).toMatchObject({ id: 'startImpersonation', status: 'pending' });
      expect(latest.input, at).toEqual({
        user_id: schoolAdmin.id,
        reason,
      } satisfies StartImpersonationPayload);
      break;
    case 'impersonation.switchBack':
      expect(latest, at).toMatchObject({ id: 'switchBack', status: 'pending' });
      expect(latest.input, at).toEqual({ token: previous?.context.token });
      break;
    case 'xstate.done.actor.startImpersonation':
    case 'xstate.done.actor.switchBack': {
      // Both ends reload the root page, so every actor starts again as the new user.
      expect(snapshot.value, at).toBe('reloading');
      expect(latest, at).toMatchObject({ id: 'reloadRoot', src: 'reloadRoot', status: 'pending' });
      const expectedToken = event.type.endsWith('startImpersonation') ? SWITCH_BACK_TOKEN : null;
      expect(context.token, at).toBe(expectedToken);
      break;
    }
    case 'xstate.error.actor.startImpersonation': {
      const error = errorOf(event);
      // The dialog stays, with the chosen user, the failure beside the reason and in a toast.
      expect(snapshot.value, at).toBe('askingReason');
      expect(context.error, at).toBe(messageOf(error));
      expect(context.token, at).toBeNull();
      expect(emitted, at).toEqual([
        { type: 'notify', tone: 'error', message: messageOf(error) },
      ] satisfies NotifyEmitted[]);
      break;
    }
    case 'xstate.error.actor.switchBack': {
      const error = errorOf(event);
      if ((error as ApiFailure).status === 403) {
        // Refused for good: the dead token is dropped, so Switch To Admin is no longer offered.
        expect(snapshot.value, at).toBe('notImpersonating');
        expect(context.token, at).toBeNull();
      } else {
        // Still signed in as the school admin, with the switch-back token kept for another try.
        expect(snapshot.value, at).toBe('impersonating');
        expect(context.token, at).toBe(previous?.context.token);
      }
      expect(context.error, at).toBe(messageOf(error));
      expect(emitted, at).toEqual([
        { type: 'notify', tone: 'error', message: messageOf(error) },
      ] satisfies NotifyEmitted[]);
      break;
    }
  }
}

const model = createPathModel(impersonationMachine, {
  inputs,
  events,
  outputs: { startImpersonation: [started], switchBack: [switchedBack] },
  errors: { startImpersonation: startErrors, switchBack: switchBackErrors },
  // Every edge, so a retry and a cancel after each failure are replayed too.
  edges: 'all',
  check: checkImpersonation,
});

describe('impersonation machine: model-based paths', () => {
  it('covers every state and every transition from both inputs', () => {
    model.assertCoverage();
    for (const [index] of inputs.entries()) {
      expect(model.paths.some((path) => path.inputIndex === index)).toBe(true);
    }
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });
});

/** The machine with actors answering from the lists given, and every emitted event heard. */
function impersonation(input: ImpersonationInput, answers: { start?: unknown; switchBack?: unknown } = {}) {
  const reloads: number[] = [];
  const answer = async <T>(value: unknown): Promise<T> => {
    if (value instanceof Error || (value as ApiFailure | undefined)?.status !== undefined) throw value;
    return value as T;
  };
  const actor = createActor(
    impersonationMachine.provide({
      actors: {
        startImpersonation: fromPromise(() => answer<ImpersonationStarted>(answers.start ?? started)),
        switchBack: fromPromise(() => answer<SwitchedBack>(answers.switchBack ?? switchedBack)),
        reloadRoot: fromPromise<void, void>(() => {
          reloads.push(1);
          return new Promise(() => {});
        }),
      },
    }),
    { input },
  );
  const heard: NotifyEmitted[] = [];
  actor.on('notify', (notice) => heard.push(notice));
  actor.start();
  return { actor, heard, reloads };
}

describe('impersonation machine: examples', () => {
  it('an admin picks a school admin, gives a reason, and the root page reloads as them', async () => {
    const { actor, heard, reloads } = impersonation({ impersonationToken: null });
    actor.send({ type: 'impersonation.request', user: schoolAdmin });
    actor.send({ type: 'impersonation.confirm', reason });
    const reloading = await waitFor(actor, (s) => s.matches('reloading'));
    expect(reloading.context.token).toBe(SWITCH_BACK_TOKEN);
    expect(reloads).toHaveLength(1);
    expect(heard).toEqual([]);
  });

  it('a refused start toasts the server’s message and keeps the dialog; the next try clears it', async () => {
    const refused = failure(403, IMPERSONATION_MESSAGES.notSchoolAdmin);
    const { actor, heard } = impersonation({ impersonationToken: null }, { start: refused });
    actor.send({ type: 'impersonation.request', user: schoolAdmin });
    actor.send({ type: 'impersonation.confirm', reason });
    const asking = await waitFor(actor, (s) => s.matches('askingReason') && s.context.error !== null);
    expect(asking.context).toMatchObject({
      target: schoolAdmin,
      error: IMPERSONATION_MESSAGES.notSchoolAdmin,
    });
    expect(heard).toEqual([
      { type: 'notify', tone: 'error', message: IMPERSONATION_MESSAGES.notSchoolAdmin },
    ]);
    actor.send({ type: 'impersonation.confirm', reason });
    expect(actor.getSnapshot().value).toBe('starting');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('switching back posts the kept token and reloads as the admin', async () => {
    const { actor, reloads } = impersonation({ impersonationToken: SWITCH_BACK_TOKEN });
    expect(actor.getSnapshot().hasTag('impersonating')).toBe(true);
    actor.send({ type: 'impersonation.switchBack' });
    const reloading = await waitFor(actor, (s) => s.matches('reloading'));
    expect(reloading.context.token).toBeNull();
    expect(reloads).toHaveLength(1);
  });

  it('a failed switch-back toasts and stays impersonating, so Switch To Admin can be tried again', async () => {
    const offline = failure(0, 'The network is unreachable.');
    const { actor, heard } = impersonation(
      { impersonationToken: SWITCH_BACK_TOKEN },
      { switchBack: offline },
    );
    actor.send({ type: 'impersonation.switchBack' });
    const back = await waitFor(actor, (s) => s.matches('impersonating') && s.context.error !== null);
    expect(back.context).toMatchObject({ token: SWITCH_BACK_TOKEN, error: offline.message });
    expect(heard).toEqual([{ type: 'notify', tone: 'error', message: offline.message }]);
  });

  it('while the page reloads nothing else happens', async () => {
    const { actor, reloads } = impersonation({ impersonationToken: SWITCH_BACK_TOKEN });
    actor.send({ type: 'impersonation.switchBack' });
    await waitFor(actor, (s) => s.matches('reloading'));
    for (const type of ['impersonation.switchBack', 'impersonation.cancel'] as const) actor.send({ type });
    actor.send({ type: 'impersonation.request', user: schoolAdmin });
    expect(actor.getSnapshot().value).toBe('reloading');
    expect(reloads).toHaveLength(1);
  });
});

describe('impersonation machine: coverage file', () => {
  it('docs/statecharts/coverage/impersonation.json is what its paths cover', () => matchCoverageFile(model));
});
