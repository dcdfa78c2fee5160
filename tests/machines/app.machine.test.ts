import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, SimulatedClock, waitFor, type AnyActorRef } from 'xstate';
import type { ConfirmCodePayload, LoginChallenge, LoginPayload, SignedIn } from '../../contract/auth';
import type { SwitchedBack } from '../../contract/impersonation';
import { IDLE_TIMEOUT_MS } from '../../contract/constants';
import { PROFILE_MESSAGES } from '../../contract/profile';
import type { User } from '../../contract/user';
import { appMachine, type AppEvent, type AppInput } from '../../machines/app.machine';
import { formDialogMachine, type FormValues } from '../../machines/formDialog.machine';
import { idleMachine, type IdleEvent } from '../../machines/idle.machine';
import { impersonationMachine } from '../../machines/impersonation.machine';
import type { NotifyEmitted } from '../../machines/notify';
import { sessionMachine } from '../../machines/session.machine';
import { unreadCountMachine } from '../../machines/unreadCount.machine';
import { createPathModel, matchCoverageFile, type ActorCall, type ReplayStep } from './paths';

const input: AppInput = {
  session: { hasStoredToken: true, pendingLogin: null },
  impersonation: { impersonationToken: null },
};

const saved: NotifyEmitted = { type: 'notify', tone: 'success', message: PROFILE_MESSAGES.updated };
const refused: NotifyEmitted = { type: 'notify', tone: 'error', message: 'The network is unreachable.' };

const events: AppEvent[] = [
  { type: 'app.signedIn', role: 'admin' },
  { type: 'app.signedIn', role: 'school_admin' },
  { type: 'app.signedOut' },
  { type: 'app.idle' },
  { type: 'app.active' },
  { type: 'app.notify', notice: saved },
  { type: 'app.notify', notice: refused },
  { type: 'app.profileSaved' },
  { type: 'app.profileCard.open' },
  { type: 'app.profileCard.close' },
  { type: 'app.profileCard.edit' },
];

/** The children, and what each starts from. */
const CHILDREN: Record<string, unknown> = {
  session: input.session,
  idle: undefined,
  unreadCount: undefined,
  impersonation: input.impersonation,
  profileForm: { successMessage: PROFILE_MESSAGES.updated },
  passwordForm: { successMessage: 'Password changed successfully' },
  messageForm: { successMessage: 'Your message has been sent to the board.' },
  watchChildren: undefined,
};

/** How many events each child had been sent before the step being checked, per replay. */
let sentBefore = new Map<string, number>();

/** What the app sent each child during one step. */
function sentThisStep(calls: readonly ActorCall[]): Record<string, string[]> {
  const sent: Record<string, string[]> = {};
  for (const call of calls) {
    const before = sentBefore.get(call.id) ?? 0;
    const now = call.received.slice(before).map((event) => event.type);
    if (now.length) sent[call.id] = now;
    sentBefore.set(call.id, call.received.length);
  }
  return sent;
}

function checkApp(replayed: ReplayStep<typeof appMachine>): void {
  const { step, index, snapshot, previous, calls, emitted } = replayed;
  const event = step.event as AppEvent | { type: 'xstate.init' };
  const at = `after ${event.type}${'role' in event ? ` (${event.role})` : ''} in ${JSON.stringify(snapshot.value)}`;
  if (index === 0) sentBefore = new Map();
  const sent = sentThisStep(calls);

  // Every child runs for as long as the app does, started once, from its own input.
  expect(
    calls.map((call) => [call.id, call.status]),
    at,
  ).toEqual(Object.keys(CHILDREN).map((id) => [id, 'pending']));
  for (const call of calls) expect(call.input, `${at}: ${call.id}'s input`).toEqual(CHILDREN[call.id]);
  // Tags are exactly what the views read them for.
  expect(snapshot.hasTag('idle'), at).toBe(snapshot.matches({ activity: 'idle' }));
  expect(snapshot.hasTag('profileCard'), at).toBe(snapshot.matches({ profileCard: 'open' }));
  expect(snapshot.context.input, at).toEqual(input);

  const wasIdle = previous?.matches({ activity: 'idle' }) ?? false;
  const wasAdmin = previous?.matches({ account: 'admin' }) ?? false;
  switch (event.type) {
    case 'xstate.init':
      expect(snapshot.value, at).toEqual({ account: 'signedOut', activity: 'active', profileCard: 'closed' });
      expect(sent, at).toEqual({});
      break;
    case 'app.signedIn':
      if (previous?.matches({ account: 'signedOut' }) && event.role === 'admin') {
        // An admin's sign-in starts the count; a user already idle has it wait until they are back.
        expect(snapshot.matches({ account: 'admin' }), at).toBe(true);
        expect(sent, at).toEqual({
          unreadCount: [wasIdle ? 'unread.startPaused' : 'unread.start'],
        });
      } else if (previous?.matches({ account: 'signedOut' })) {
        // A school admin has no unread count.
        expect(snapshot.matches({ account: 'schoolAdmin' }), at).toBe(true);
        expect(sent, at).toEqual({});
      } else {
        expect(sent, at).toEqual({});
      }
      break;
    case 'app.signedOut':
      expect(snapshot.matches({ account: 'signedOut' }), at).toBe(true);
      // Signing out stops the count (and forgets it); nothing else is told.
      expect(sent, at).toEqual(wasAdmin ? { unreadCount: ['unread.stop'] } : {});
      break;
    case 'app.idle':
      expect(snapshot.matches({ activity: 'idle' }), at).toBe(true);
      // Idle pauses the count (a stopped count ignores it).
      expect(sent, at).toEqual(wasIdle ? {} : { unreadCount: ['unread.pause'] });
      break;
    case 'app.active':
      expect(snapshot.matches({ activity: 'active' }), at).toBe(true);
      // Activity resumes it, counting at once.
      expect(sent, at).toEqual(wasIdle ? { unreadCount: ['unread.resume'] } : {});
      break;
    case 'app.notify':
      // Every child's notice is emitted again by the app, for its one toast subscriber.
      expect(emitted, at).toEqual([event.notice]);
      expect(sent, at).toEqual({});
      break;
    case 'app.profileSaved':
      // A saved profile: the session loads it again, so the header shows the new name and photo.
      expect(sent, at).toEqual({ session: ['session.reloadProfile'] });
      break;
    case 'app.profileCard.open':
      expect(snapshot.hasTag('profileCard'), at).toBe(true);
      expect(sent, at).toEqual({});
      break;
    case 'app.profileCard.close':
      expect(snapshot.hasTag('profileCard'), at).toBe(false);
      expect(sent, at).toEqual({});
      break;
    case 'app.profileCard.edit':
      // Edit profile: the card closes and the profile form opens in its place.
      expect(snapshot.hasTag('profileCard'), at).toBe(false);
      expect(sent, at).toEqual({ profileForm: ['form.open'] });
      break;
  }
  if (event.type !== 'app.notify') expect(emitted, at).toEqual([]);
}

const model = createPathModel(appMachine, {
  inputs: [input],
  events,
  // Every edge from every state: each notice, each role, from idle and from active.
  edges: 'all',
  check: checkApp,
  describeEvent: (event) =>
    event.type === 'app.signedIn'
      ? `app.signedIn(${(event as Extract<AppEvent, { type: 'app.signedIn' }>).role})`
      : event.type === 'app.notify'
        ? `app.notify(${(event as Extract<AppEvent, { type: 'app.notify' }>).notice.tone})`
        : event.type,
});

describe('app machine: model-based paths', () => {
  it('covers every state and every transition', () => {
    model.assertCoverage();
  });

  const named = (event: { type: string; role?: string }) =>
    event.type === 'app.signedIn' ? `app.signedIn(${event.role})` : event.type;

  it.each([
    ['an admin signing in starts the count', ['app.signedIn(admin)']],
    ['idle pauses it', ['app.signedIn(admin)', 'app.idle']],
    ['activity resumes it', ['app.signedIn(admin)', 'app.idle', 'app.active']],
    ['sign-out stops it', ['app.signedIn(admin)', 'app.signedOut']],
    ["a school admin's sign-in does not count", ['app.signedIn(school_admin)']],
    ['started while idle, it waits', ['app.idle', 'app.signedIn(admin)']],
  ])('has a path where %s', (_name, trail) => {
    const replayed = model.paths.some((path) => {
      const trailOfPath = path.steps.slice(1).map((step) => named(step.event));
      return trail.every((event, i) => trailOfPath[i] === event);
    });
    expect(replayed, trail.join(' → ')).toBe(true);
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });
});

/** A promise the test settles. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

const admin: User = {
  id: 1,
  name: 'Board Admin',
  email: 'admin@example.org',
  phone_number: null,
  photo: null,
  gender: null,
  user_role: 'admin',
  operator_id: null,
  training_school: null,
  impersonator: null,
};
const schoolAdmin: User = {
  ...admin,
  id: 2,
  user_role: 'school_admin',
  training_school: { id: 1, code: 'SHT-IB', name: 'School', status: 'active' },
};

/**
 * The app with its real children, each with stand-in I/O: the profile loads come in the order the test
 * settles them, counts are counted, activity is sent by the test, and the profile form's submit answers.
 */
function startApp(options: { hasStoredToken?: boolean } = {}) {
  const clock = new SimulatedClock();
  const profiles: Array<ReturnType<typeof deferred<User>>> = [];
  let counted = 0;
  let activity: (() => void) | null = null;
  const submitted: FormValues[] = [];
  const logic = appMachine.provide({
    actors: {
      session: sessionMachine.provide({
        actors: {
          loadProfile: fromPromise<User, void>(() => {
            const next = deferred<User>();
            profiles.push(next);
            return next.promise;
          }),
          signIn: fromPromise<LoginChallenge, LoginPayload>(async () => {
            throw new Error('not used');
          }),
          confirmCode: fromPromise<SignedIn, ConfirmCodePayload>(async () => {
            throw new Error('not used');
          }),
          resendCode: fromPromise<{ message: string }, LoginChallenge>(async () => ({ message: '' })),
          signOut: fromPromise<void, void>(async () => {}),
        },
      }),
      idle: idleMachine.provide({
        actors: {
          watchActivity: fromCallback<IdleEvent>(({ sendBack }) => {
            activity = () => sendBack({ type: 'idle.activity' });
          }),
        },
      }),
      unreadCount: unreadCountMachine.provide({
        actors: {
          countUnread: fromPromise<number, void>(async () => {
            counted += 1;
            return 4;
          }),
        },
      }),
      impersonation: impersonationMachine.provide({
        actors: {
          switchBack: fromPromise<SwitchedBack, { token: string }>(async () => {
            throw { status: 0, message: 'The network is unreachable.', fields: {} };
          }),
        },
      }),
      profileForm: formDialogMachine.provide({
        actors: {
          submit: fromPromise<{ message?: string }, FormValues>(async ({ input: values }) => {
            submitted.push(values);
            return { message: 'Your profile has been updated.' };
          }),
        },
      }),
    },
  });
  const app = createActor(logic, {
    clock,
    input: {
      session: { hasStoredToken: options.hasStoredToken ?? true, pendingLogin: null },
      impersonation: { impersonationToken: 'switch-back-token' },
    },
  });
  const toasts: NotifyEmitted[] = [];
  app.on('notify', (notice) => toasts.push(notice));
  app.start();
  const child = (name: string) => app.system.get(name) as AnyActorRef;
  const count = () => child('unreadCount').getSnapshot() as ReturnType<typeof unreadCountMachine.transition>;
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    app,
    clock,
    child,
    count,
    settle,
    toasts,
    submitted,
    profiles,
    counted: () => counted,
    activity: () => activity!(),
  };
}

describe('app machine: its real children, coordinated', () => {
  it("an admin's sign-in starts the count; idle pauses it, activity resumes it, sign-out stops it", async () => {
    const run = startApp();
    expect(run.count().value).toBe('stopped');
    run.profiles[0].resolve(admin);
    await run.settle();
    expect(run.app.getSnapshot().matches({ account: 'admin' })).toBe(true);
    expect(run.counted()).toBe(1);
    expect(run.count().context.unread).toBe(4);

    run.clock.increment(IDLE_TIMEOUT_MS);
    expect(run.app.getSnapshot().hasTag('idle')).toBe(true);
    expect(run.count().hasTag('paused')).toBe(true);
    run.clock.increment(10 * 30_000);
    expect(run.counted(), 'nothing is asked while idle').toBe(1);

    run.activity();
    expect(run.app.getSnapshot().hasTag('idle')).toBe(false);
    expect(run.count().hasTag('paused')).toBe(false);
    expect(run.counted(), 'back: counted at once').toBe(2);

    run.child('session').send({ type: 'session.signOut' });
    run.child('session').send({ type: 'session.signOut.confirm' });
    await run.settle();
    expect(run.app.getSnapshot().matches({ account: 'signedOut' })).toBe(true);
    expect(run.count().value).toBe('stopped');
    expect(run.count().context.unread).toBe(0);
    run.app.stop();
  });

  it("a school admin's sign-in does not count", async () => {
    const run = startApp();
    run.profiles[0].resolve(schoolAdmin);
    await run.settle();
    expect(run.app.getSnapshot().matches({ account: 'schoolAdmin' })).toBe(true);
    run.clock.increment(IDLE_TIMEOUT_MS);
    run.activity();
    expect(run.count().value).toBe('stopped');
    expect(run.counted()).toBe(0);
    run.app.stop();
  });

  it('an admin signed in while already idle is not counted until they come back', async () => {
    const run = startApp();
    run.clock.increment(IDLE_TIMEOUT_MS);
    expect(run.app.getSnapshot().hasTag('idle')).toBe(true);
    run.profiles[0].resolve(admin);
    await run.settle();
    expect(run.count().hasTag('paused')).toBe(true);
    expect(run.counted()).toBe(0);
    run.activity();
    expect(run.counted()).toBe(1);
    run.app.stop();
  });

  it('a saved profile reloads the session, and its toast comes from the app', async () => {
    const run = startApp();
    run.profiles[0].resolve(admin);
    await run.settle();
    run.app.send({ type: 'app.profileCard.open' });
    run.app.send({ type: 'app.profileCard.edit' });
    const form = run.child('profileForm');
    expect(form.getSnapshot().hasTag('open')).toBe(true);
    form.send({ type: 'form.submit', values: { name: 'Ada Obi' } });
    await waitFor(form, (s: { matches(v: string): boolean }) => s.matches('closed'));
    await run.settle();
    expect(run.submitted).toEqual([{ name: 'Ada Obi' }]);
    expect(run.profiles).toHaveLength(2);
    expect(run.child('session').getSnapshot().matches({ signedIn: 'reloadingProfile' })).toBe(true);
    run.profiles[1].resolve({ ...admin, name: 'Ada Obi' });
    await run.settle();
    expect(run.child('session').getSnapshot().context.user.name).toBe('Ada Obi');
    expect(run.toasts).toEqual([
      { type: 'notify', tone: 'success', message: 'Your profile has been updated.' },
    ]);
    run.app.stop();
  });

  it("every child's notice reaches the one toast subscriber", async () => {
    const run = startApp();
    run.profiles[0].resolve(admin);
    await run.settle();
    run.child('impersonation').send({ type: 'impersonation.switchBack' });
    await run.settle();
    expect(run.toasts).toEqual([{ type: 'notify', tone: 'error', message: 'The network is unreachable.' }]);
    run.app.stop();
  });

  it('stops every child with it', async () => {
    const run = startApp({ hasStoredToken: false });
    const children = ['session', 'idle', 'unreadCount', 'impersonation', 'profileForm'].map(run.child);
    run.app.stop();
    await run.settle();
    expect(children.map((actor) => actor.getSnapshot().status)).toEqual(children.map(() => 'stopped'));
  });
});

describe('app machine: coverage file', () => {
  it('docs/statecharts/coverage/app.json is what its paths cover', () => matchCoverageFile(model));
});
