import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  AUTH_MESSAGES,
  type ConfirmCodePayload,
  type LoginChallenge,
  type SignedIn,
} from '../../contract/auth';
import { UNAUTHENTICATED_MESSAGE, type ApiFailure } from '../../contract/envelope';
import type { User } from '../../contract/user';
import { sessionMachine, type SessionEvent, type SessionInput } from '../../machines/session.machine';
import { createPathModel, matchCoverageFile, type ReplayStep } from './paths';

const challenge: LoginChallenge = { login_id: 'login-0123456789abcdef', email: 'ada@example.org' };
const pendingLogin: LoginChallenge = { login_id: 'login-pending-fedcba9876', email: 'grace@example.org' };

const user: User = {
  id: 7,
  name: 'Ada Obi',
  email: 'ada@example.org',
  phone_number: null,
  photo: null,
  gender: 'female',
  user_role: 'school_admin',
  operator_id: null,
  training_school: { id: 3, code: 'TS003', name: 'Lagos School of Nursing', status: 'active' },
  impersonator: null,
};
const reloadedUser: User = { ...user, name: 'Ada Obi-Eze' };
const signedIn: SignedIn = { user, access_token: '1|secret' };
const codeResent = { message: 'A new code has been sent to your email address.' };

const apiFailure = (status: number, message: string, fields: Record<string, string[]> = {}): ApiFailure => ({
  status,
  message,
  fields,
});
const GENERIC = 'Something went wrong. Please try again.';

const errors = {
  signIn: [
    apiFailure(422, AUTH_MESSAGES.credentialsRejected, { email: [AUTH_MESSAGES.credentialsRejected] }),
    // Not an ApiFailure (a bug or a thrown TypeError): the machine must still show a sentence.
    new Error('Failed to fetch'),
  ],
  resendCode: [apiFailure(429, AUTH_MESSAGES.resendTooSoon), apiFailure(410, AUTH_MESSAGES.loginExpired)],
  confirmCode: [
    apiFailure(422, AUTH_MESSAGES.codeRejected, { code: [AUTH_MESSAGES.codeRejected] }),
    apiFailure(410, AUTH_MESSAGES.codeVoided),
  ],
  loadProfile: [apiFailure(401, UNAUTHENTICATED_MESSAGE), apiFailure(0, 'The network is unreachable.')],
  reloadProfile: [apiFailure(401, UNAUTHENTICATED_MESSAGE), apiFailure(500, 'Server error.')],
  signOut: [apiFailure(0, 'The network is unreachable.')],
};

const events: SessionEvent[] = [
  { type: 'session.signIn', email: 'ada@example.org', password: 'correct horse' },
  { type: 'session.confirm', code: '123456' },
  { type: 'session.resend' },
  { type: 'session.cancel' },
  { type: 'session.retry' },
  { type: 'session.signOut' },
  { type: 'session.signOut.confirm' },
  { type: 'session.signOut.cancel' },
  { type: 'session.reloadProfile' },
  { type: 'session.expired' },
];

const inputs: SessionInput[] = [
  { hasStoredToken: false, pendingLogin: null },
  { hasStoredToken: false, pendingLogin },
  { hasStoredToken: true, pendingLogin: null },
  // A stored token wins over a pending sign-in: the profile decides.
  { hasStoredToken: true, pendingLogin },
];

/** What the view would show for a failure: the ApiFailure's own message, else the generic sentence. */
function shownMessage(error: unknown): { error: string; fieldErrors: Record<string, string[]> } {
  if (error instanceof Error) return { error: GENERIC, fieldErrors: {} };
  const { message, fields } = error as ApiFailure;
  return { error: message, fieldErrors: fields };
}

const statusOf = (error: unknown) => (error as Partial<ApiFailure>).status;

/**
 * The context rules the model cannot know by itself (it only proves the live actor agrees with the
 * machine): what each step must have stored, and invariants that hold in every state.
 */
function checkSession({ step, snapshot, previous, calls }: ReplayStep<typeof sessionMachine>): void {
  const { context } = snapshot;
  const event = step.event;
  const at = `after ${event.type} in ${JSON.stringify(snapshot.value)}`;

  // Invariants.
  if (snapshot.hasTag('awaitingCode')) expect(context.challenge, at).not.toBeNull();
  if (snapshot.hasTag('signedIn')) expect(context.user, at).not.toBeNull();
  expect(snapshot.hasTag('signedIn') && snapshot.hasTag('signedOut'), at).toBe(false);
  if (snapshot.matches('signedOut')) expect(context.user, at).toBeNull();
  // 'busy' is exactly "a foreground request is in flight" (a background reload is not shown as busy).
  const inFlight = calls.filter((call) => call.status === 'pending' && call.id !== 'reloadProfile');
  expect(inFlight.length, `${at}: requests in flight`).toBe(snapshot.hasTag('busy') ? 1 : 0);

  // What each request was sent.
  const started = calls[calls.length - 1];
  if (started?.status === 'pending' && previous && !previous.children[started.id]) {
    if (started.id === 'signIn')
      expect(started.input).toEqual({ email: 'ada@example.org', password: 'correct horse' });
    if (started.id === 'confirmCode') {
      expect(started.input).toEqual({
        login_id: previous.context.challenge!.login_id,
        code: '123456',
      } satisfies ConfirmCodePayload);
    }
    if (started.id === 'resendCode') expect(started.input).toEqual(previous.context.challenge);
  }

  // What each outcome stored.
  switch (event.type) {
    case 'xstate.done.actor.signIn':
      expect(context.challenge, at).toEqual(challenge);
      expect(context.error, at).toBeNull();
      break;
    case 'xstate.done.actor.resendCode':
      expect(context.notice, at).toBe(codeResent.message);
      expect(context.challenge, at).toEqual(previous?.context.challenge);
      break;
    case 'xstate.done.actor.confirmCode':
      expect(context.user, at).toEqual(user);
      expect(context.challenge, at).toBeNull();
      expect(context.endedBecause, at).toBeNull();
      break;
    case 'xstate.done.actor.loadProfile':
      expect(context.user, at).toEqual(user);
      expect(context.error, at).toBeNull();
      break;
    case 'xstate.done.actor.reloadProfile':
      expect(context.user, at).toEqual(reloadedUser);
      break;
    case 'xstate.error.actor.signIn':
    case 'xstate.error.actor.resendCode':
    case 'xstate.error.actor.confirmCode': {
      const error: unknown = event.error;
      expect({ error: context.error, fieldErrors: context.fieldErrors }, at).toEqual(shownMessage(error));
      if (statusOf(error) === 410) {
        // The pending sign-in is void: back to the form, with nothing left to confirm.
        expect(snapshot.value, at).toBe('signedOut');
        expect(context.challenge, at).toBeNull();
      } else if (event.type !== 'xstate.error.actor.signIn') {
        expect(snapshot.value, at).toBe('awaitingCode');
        expect(context.challenge, at).toEqual(previous?.context.challenge);
      }
      break;
    }
    case 'xstate.error.actor.loadProfile':
    case 'xstate.error.actor.reloadProfile': {
      const error: unknown = event.error;
      if (statusOf(error) === 401) {
        expect(snapshot.value, at).toBe('signedOut');
        expect(context.endedBecause, at).toBe('expired');
        expect(context.tokenStored, at).toBe(false);
      } else if (event.type === 'xstate.error.actor.loadProfile') {
        expect(snapshot.value, at).toBe('profileUnavailable');
        expect(context.error, at).toBe((error as ApiFailure).message);
      } else {
        // A failed background reload only logs: the profile already shown stays.
        expect(snapshot.value, at).toEqual({ signedIn: 'idle' });
        expect(context.user, at).toEqual(previous?.context.user);
        expect(context.error, at).toBeNull();
      }
      break;
    }
    case 'xstate.done.actor.signOut':
    case 'xstate.error.actor.signOut':
      expect(snapshot.value, at).toBe('signedOut');
      expect(context.endedBecause, at).toBe('loggedOut');
      expect(context.challenge, at).toBeNull();
      break;
    case 'session.expired':
      expect(snapshot.value, at).toBe('signedOut');
      expect(context.endedBecause, at).toBe('expired');
      expect(context.challenge, at).toBeNull();
      expect(context.tokenStored, at).toBe(false);
      break;
    case 'session.cancel':
      expect(context.challenge, at).toBeNull();
      break;
    case 'session.signIn':
    case 'session.confirm':
    case 'session.resend':
    case 'session.retry':
      // A new attempt clears the last failure so the view does not show a stale message.
      expect([context.error, context.fieldErrors, context.notice], at).toEqual([null, {}, null]);
      break;
  }
}

const model = createPathModel(sessionMachine, {
  inputs,
  events,
  outputs: {
    signIn: [challenge],
    resendCode: [codeResent],
    confirmCode: [signedIn],
    loadProfile: [user],
    reloadProfile: [reloadedUser],
    signOut: [undefined],
  },
  errors,
  check: checkSession,
});

describe('session machine: model-based paths', () => {
  it('generates paths from every input', () => {
    for (const [index] of inputs.entries()) {
      expect(model.paths.some((path) => path.inputIndex === index)).toBe(true);
    }
  });

  it('covers every state and every transition, each guarded branch on its own', () => {
    model.assertCoverage();
    const { states, transitions } = model.coverage();
    expect(states.all).toContain('#session.starting');
    expect(transitions.all.map((t) => t.label)).toContain(
      '#session.confirming --error: confirmCode [signInGone]--> #session.signedOut (branch 1 of 2)',
    );
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });
});

/** A machine whose actors answer at once, for the example tests below. */
function quickSession(overrides: Parameters<typeof sessionMachine.provide>[0]['actors'] = {}) {
  return sessionMachine.provide({
    actors: {
      signIn: fromPromise(async () => challenge),
      confirmCode: fromPromise(async () => signedIn),
      resendCode: fromPromise(async () => codeResent),
      loadProfile: fromPromise(async () => user),
      signOut: fromPromise<void, void>(async () => {}),
      ...overrides,
    },
  });
}

describe('session machine: examples', () => {
  it('signs in with a password and a mailed code, the answer giving the user (no second read)', async () => {
    const actor = createActor(quickSession(), {
      input: { hasStoredToken: false, pendingLogin: null },
    }).start();
    actor.send({ type: 'session.signIn', email: 'ada@example.org', password: 'correct horse' });
    await waitFor(actor, (s) => s.matches('awaitingCode'));
    expect(actor.getSnapshot().context.challenge).toEqual(challenge);
    actor.send({ type: 'session.confirm', code: '123456' });
    const done = await waitFor(actor, (s) => s.hasTag('signedIn'));
    expect(done.context).toMatchObject({ user, challenge: null, error: null, endedBecause: null });
  });

  it('shows field messages on a 422 and clears them on the next attempt', async () => {
    const rejected = apiFailure(422, AUTH_MESSAGES.codeRejected, { code: [AUTH_MESSAGES.codeRejected] });
    let tries = 0;
    const actor = createActor(
      quickSession({
        confirmCode: fromPromise(async () => {
          tries += 1;
          if (tries === 1) throw rejected;
          return signedIn;
        }),
      }),
      { input: { hasStoredToken: false, pendingLogin } },
    ).start();
    expect(actor.getSnapshot().value).toBe('awaitingCode');
    actor.send({ type: 'session.confirm', code: '000000' });
    const failed = await waitFor(actor, (s) => s.matches('awaitingCode') && s.context.error !== null);
    expect(failed.context.fieldErrors).toEqual({ code: [AUTH_MESSAGES.codeRejected] });
    expect(failed.context.challenge).toEqual(pendingLogin);
    actor.send({ type: 'session.confirm', code: '123456' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({});
    await waitFor(actor, (s) => s.hasTag('signedIn'));
  });

  it('a reply that arrives after session.expired changes nothing', async () => {
    let answer!: (value: LoginChallenge) => void;
    const actor = createActor(
      quickSession({
        signIn: fromPromise(() => new Promise<LoginChallenge>((resolve) => (answer = resolve))),
      }),
      { input: { hasStoredToken: false, pendingLogin: null } },
    ).start();
    actor.send({ type: 'session.signIn', email: 'ada@example.org', password: 'x' });
    actor.send({ type: 'session.expired' });
    answer(challenge);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context.challenge).toBeNull();
  });

  it('without its actors the machine fails with a sentence, not a crash', async () => {
    const actor = createActor(sessionMachine, {
      input: { hasStoredToken: false, pendingLogin: null },
    }).start();
    actor.send({ type: 'session.signIn', email: 'ada@example.org', password: 'x' });
    const failed = await waitFor(actor, (s) => s.matches('signedOut') && s.context.error !== null);
    expect(failed.context.error).toBe(GENERIC);
  });
});

describe('session machine: coverage file', () => {
  it('docs/statecharts/coverage/session.json is what its paths cover', () => matchCoverageFile(model));
});
