import {
  __unsafe_getAllOwnEventDescriptors as ownEventDescriptors,
  createActor,
  fromTransition,
  SimulatedClock,
  type ActorLogic,
  type AnyActorLogic,
  type AnyActorRef,
  type AnyActorScope,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyTransitionDefinition,
  type ContextFrom,
  type EmittedFrom,
  type EventFromLogic,
  type InputFrom,
  type InspectionEvent,
  type Snapshot as ActorSnapshot,
  type SnapshotFrom,
  type StateValue,
} from 'xstate';
import { getAdjacencyMap, getShortestPaths, getSimplePaths, type TraversalOptions } from 'xstate/graph';
import { expect } from 'vitest';
import { join } from 'node:path';
import type { ChartCoverage } from '../../contract/statecharts';
import {
  descendantsOf,
  describeTransition,
  ownTransitionsOf,
  statePathOf,
  transitionName,
} from '../../scripts/statecharts';

/**
 * Pattern A of the architecture brief (section 6): model-based paths for machines whose I/O is invoked
 * actors and delays, which `createTestModel` refuses.
 *
 * 1. Paths come from `getShortestPaths` / `getSimplePaths` (xstate/graph) run on the real machine. In each
 *    state the traversal is offered the user events listed, `xstate.done.actor.<id>` with each output
 *    given for that invoke id, `xstate.error.actor.<id>` with each error given, and `xstate.after.*`.
 *    Shortest paths reach every state value + context, but not every edge, so any edge that takes a
 *    transition no path has taken yet (or, with `edges: 'all'`, every edge) is added as "shortest path
 *    to its source + that edge".
 * 2. Each path is replayed on `createActor(machine.provide({ actors }))` whose named actors are stubs that
 *    record their input and stay alive until the path settles them: a done step resolves the latest running
 *    stub of that invoke id (as a promise would), an error step rejects it, and a stub the path never settles
 *    runs until its state is left, as a callback actor does (the events it would send back, such as a
 *    callback's progress and result events, are ordinary events the path sends to the machine with
 *    `actor.send`; list them in `events`). Events the machine sends to a stub are recorded on its call.
 *    An after step advances a SimulatedClock to one millisecond before the timer's due time (it must not
 *    have fired), then to the due time. After every step the live value (and context) must equal the
 *    model's, the live actor must have taken the same transitions as the model, and it must have emitted
 *    (`emit(...)`, what `actor.on(type, ...)` listeners get) exactly the events the model's actions emit,
 *    in order.
 * 3. Coverage: every state node and every transition of the definition (each guarded branch on its own)
 *    must be taken by some path, else `assertCoverage` fails with the list of what is missing.
 *
 * Usage (one vitest test per path, plus the coverage check):
 *
 *   const model = createPathModel(paymentMachine, {
 *     inputs: [{ invoiceId: 1 }],
 *     events: [{ type: 'payment.start' }, { type: 'payment.cancel' }],
 *     outputs: { verify: [{ status: 'success' }, { status: 'failed' }] },
 *     errors: { verify: [{ status: 0, message: 'offline', fields: {} }] },
 *     check: ({ step, snapshot }) => { ...expectations the model cannot know... },
 *   });
 *   it('covers every state and transition', () => model.assertCoverage());
 *   it.each(model.paths.map((p) => [p.name, p] as const))('%s', (_name, path) => model.replay(path));
 *
 * Limits: invoked actors are stubbed by their `src` name (inline actor logic cannot be replaced); errors
 * and outputs should be plain data; with a lossy `serializeState`, compare only the kept part of the
 * context (`compareContext`), since a path's snapshots are then representatives of their vertex.
 */

/** Several values per key: each becomes its own event, so guarded branches on output or error are reached. */
type Variants = Readonly<Record<string, readonly unknown[]>>;

export interface PathModelOptions<TMachine extends AnyStateMachine> {
  /** One traversal per input; coverage is measured on the union. Default: a single `undefined` input. */
  inputs?: ReadonlyArray<InputFrom<TMachine>>;
  /**
   * The events offered in every state that handles their type (several per type when payload matters): the
   * user's, and those an invoked callback actor sends back while it runs (its progress, its result).
   */
  events?: ReadonlyArray<EventFromLogic<TMachine>>;
  /**
   * Event types never offered, though the machine handles them: for a machine walked by two models,
   * each offering part of its events, so neither grows past what a test run can walk (their coverage
   * is then asserted together, from `coverage()`).
   */
  withoutEvents?: readonly string[];
  /** Invoke id -> outputs it may resolve with. Every invoke with an onDone needs at least one. */
  outputs?: Variants;
  /** Invoke id -> errors it may reject with (plain objects, so each variant serialises apart). */
  errors?: Variants;
  /** 'shortest' (default): the fewest steps per state; 'simple': every cycle-free path (can be many). */
  strategy?: 'shortest' | 'simple';
  /**
   * Which edges are replayed beyond the generated paths. 'new' (default): an edge that takes a transition
   * no path has taken yet. 'all': every edge (the shortest path to its source, then it), so each output and
   * error variant is replayed from each state it can happen in, even where it ends where another variant
   * ended (a success toast with the server's message and one with the fallback, say).
   */
  edges?: 'new' | 'all';
  /** What makes two snapshots the same vertex. Default: value and context. */
  serializeState?: (snapshot: SnapshotFrom<TMachine>) => string;
  /**
   * Which `after` events a state is offered. 'soonest' (default): only the shortest delay among the state's
   * timers, because in real time a longer one never fires first. 'all': every timer, for machines whose
   * timers start at different moments (a parent's long timeout over a child's short poll), where the
   * shortest-delay rule would hide a reachable transition; a path that cannot happen in real time then
   * fails its replay with a message saying which timer fired first.
   */
  timers?: 'soonest' | 'all';
  /**
   * Real implementations (a callback that must really call `sendBack`, a child machine); they replace the
   * stubs, and their runs are not recorded in `calls`.
   */
  actors?: Readonly<Record<string, AnyActorLogic>>;
  /** Compare the live context with the model's after each step: all of it (default), a part, or not at all. */
  compareContext?: boolean | ((context: ContextFrom<TMachine>) => unknown);
  /** Runs after each replayed step, for what the model cannot know (inputs sent to actors, messages). */
  check?: (step: ReplayStep<TMachine>) => void;
  /** How an event is named in path names. */
  describeEvent?: (event: AnyEventObject) => string;
  /** Upper bound on traversal iterations, so a runaway context cannot hang the suite. Default 10,000. */
  limit?: number;
}

/** A transition of the definition, named as the chart names it. */
interface TransitionInfo {
  /** Stable identity: source id, event descriptor and branch index. */
  key: string;
  source: string;
  /** The event descriptor; '' for eventless (always) transitions. */
  event: string;
  targets: string[];
  /** 1-based position among the transitions of `source` for `event` (the guarded branches). */
  branch: number;
  branches: number;
  /** `#session.confirming --error: confirmCode [signInGone]--> #session.signedOut`. */
  label: string;
  /** As the charts and /statecharts name it: `confirming --error: confirmCode [signInGone]--> signedOut`. */
  name: string;
}

interface ModelStep<TMachine extends AnyStateMachine> {
  /** `xstate.init` for the first step. */
  event: AnyEventObject;
  /** The snapshot after `event`. */
  state: SnapshotFrom<TMachine>;
  /** Transitions the model took for `event`, eventless ones included. */
  transitions: TransitionInfo[];
  /** The events the model's `emit` actions emitted for `event`, in order (the live actor must agree). */
  emitted: AnyEventObject[];
}

interface ModelPath<TMachine extends AnyStateMachine> {
  /** Unique, readable: input number, events, final state. */
  name: string;
  input: InputFrom<TMachine>;
  inputIndex: number;
  steps: Array<ModelStep<TMachine>>;
}

/**
 * One run of an invoked (or spawned) stub during a replay: a promise actor's request, or a callback actor's
 * run. 'pending' while it runs; 'resolved' / 'rejected' when a done / error step settled it; 'stopped' when
 * the machine stopped it first (its state was left).
 */
export interface ActorCall {
  id: string;
  src: string;
  input: unknown;
  status: 'pending' | 'resolved' | 'rejected' | 'stopped';
  /** Events the machine sent to this run (`sendTo`), in order. */
  received: AnyEventObject[];
}

/** A delayed event the live machine has scheduled and not yet received. */
export interface PendingTimer {
  /** `xstate.after.<delay>.<state id>`. */
  event: string;
  /** When it fires, in simulated milliseconds since the replay started (compare with `now`). */
  due: number;
}

export interface ReplayStep<TMachine extends AnyStateMachine> {
  path: ModelPath<TMachine>;
  index: number;
  step: ModelStep<TMachine>;
  snapshot: SnapshotFrom<TMachine>;
  previous: SnapshotFrom<TMachine> | undefined;
  /** Every actor run so far, in start order. */
  calls: readonly ActorCall[];
  /** What the live actor emitted during this step (already checked against `step.emitted`). */
  emitted: ReadonlyArray<EmittedFrom<TMachine>>;
  /** Everything it has emitted since it started, this step's included. */
  allEmitted: ReadonlyArray<EmittedFrom<TMachine>>;
  /** The SimulatedClock's time: 0 at the start; only `after` steps move it. */
  now: number;
  /** The machine's own timers still pending after this step. */
  timers: readonly PendingTimer[];
}

interface Coverage {
  states: { all: string[]; missing: string[] };
  transitions: { all: TransitionInfo[]; missing: TransitionInfo[] };
}

export interface PathModel<TMachine extends AnyStateMachine> {
  machine: TMachine;
  paths: Array<ModelPath<TMachine>>;
  /** Replays one path on a live actor, asserting after every step; resolves with what the actors saw. */
  replay: (path: ModelPath<TMachine>) => Promise<{
    snapshot: SnapshotFrom<TMachine>;
    calls: ActorCall[];
    emitted: Array<EmittedFrom<TMachine>>;
  }>;
  coverage: () => Coverage;
  /** Throws, listing every state and transition that no path reaches. */
  assertCoverage: () => void;
}

const AFTER = 'xstate.after.';
const DONE_ACTOR = 'xstate.done.actor.';
const ERROR_ACTOR = 'xstate.error.actor.';

/** The output of a `xstate.done.actor.*` step's event (undefined for any other event). */
export function outputOf(event: AnyEventObject): unknown {
  return (event as { output?: unknown }).output;
}

/** The error of a `xstate.error.actor.*` step's event (undefined for any other event). */
export function errorOf(event: AnyEventObject): unknown {
  return (event as { error?: unknown }).error;
}

/** Errors serialise to `{}`: keep their name and message so two error variants stay two edges. */
function stringify(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v instanceof Error ? { name: v.name, message: v.message } : v,
  );
}

/** How events are named in path names by default; a `describeEvent` option can fall back on it. */
export function defaultDescribeEvent(event: AnyEventObject): string {
  const type = event.type;
  if (type.startsWith(DONE_ACTOR)) {
    // A number or a short word as output is the part that tells two done events apart; objects are not shown.
    const { output } = event as { output?: unknown };
    const shown =
      typeof output === 'number' ||
      typeof output === 'boolean' ||
      (typeof output === 'string' && output.length <= 24);
    return `done:${type.slice(DONE_ACTOR.length)}${shown ? `(${JSON.stringify(output)})` : ''}`;
  }
  if (type.startsWith(ERROR_ACTOR)) {
    const { error } = event as { error?: unknown };
    // API failures carry a status, the part that picks the branch.
    const status = (error as { status?: unknown } | null)?.status;
    return `error:${type.slice(ERROR_ACTOR.length)}${typeof status === 'number' ? `(${status})` : ''}`;
  }
  if (type.startsWith(AFTER)) return `after:${type.slice(AFTER.length).split('.')[0]}`;
  return type;
}

function transitionList(transition: AnyTransitionDefinition): readonly AnyTransitionDefinition[] {
  const { source } = transition;
  if (source.always?.includes(transition)) return source.always;
  return source.transitions.get(transition.eventType) ?? [transition];
}

/** Identity by position, not by object: `machine.provide()` rebuilds every transition object. */
function transitionInfo(transition: AnyTransitionDefinition): TransitionInfo {
  const list = transitionList(transition);
  const branch = list.indexOf(transition) + 1;
  const event = list === transition.source.always ? '' : String(transition.eventType);
  const targets = (transition.target ?? []).map((node) => `#${node.id}`);
  const source = `#${transition.source.id}`;
  const branchNote = list.length > 1 ? ` (branch ${branch} of ${list.length})` : '';
  return {
    key: `${source}|${event}|${branch}`,
    source,
    event,
    targets,
    branch,
    branches: list.length,
    label: `${source} --${describeTransition(transition)}--> ${targets.join(', ') || '(stays)'}${branchNote}`,
    name: transitionName(transition),
  };
}

/** Every state node id below the root, in document order. */
function stateIdsOf(machine: AnyStateMachine): string[] {
  return descendantsOf(machine.root).map((node) => `#${node.id}`);
}

/** Every transition of the definition, the root's included, in document order. */
function transitionsOf(machine: AnyStateMachine): TransitionInfo[] {
  return [machine.root, ...descendantsOf(machine.root)].flatMap((node) =>
    ownTransitionsOf(node).map(transitionInfo),
  );
}

/** What the model did for one event: the transitions it took and the events its actions emitted. */
interface Probed {
  transitions: TransitionInfo[];
  emitted: AnyEventObject[];
}

/**
 * Computes which transitions a step takes by running `machine.transition` with an actor scope whose
 * system records the '@xstate.microstep' inspection events (the same ones a live actor emits), and whose
 * action executor records the events of `emit` actions (resolved, so their payload is known) without
 * running any action.
 */
function createProbe(machine: AnyStateMachine) {
  const taken: AnyTransitionDefinition[] = [];
  const emitted: AnyEventObject[] = [];
  const host = createActor(
    fromTransition((state: null) => state, null),
    {
      inspect: (event: InspectionEvent) => {
        // Only the machine under test: the children it spawns or invokes take their own transitions.
        if (event.type === '@xstate.microstep' && event.actorRef === host) taken.push(...event._transitions);
      },
    },
  );
  const scope: AnyActorScope = {
    self: host,
    id: 'probe',
    sessionId: host.sessionId,
    logger: () => {},
    defer: () => {},
    emit: () => {},
    system: host.system,
    stopChild: () => {},
    actionExecutor: (action) => {
      const params = action.params as { event?: AnyEventObject } | undefined;
      if (action.type === 'xstate.emit' && params?.event) emitted.push(params.event);
    },
  };
  const drain = (): Probed => ({
    transitions: taken.splice(0).map(transitionInfo),
    emitted: emitted.splice(0),
  });
  return {
    initial(input: unknown): Probed {
      drain();
      machine.getInitialSnapshot(scope, input);
      return drain();
    },
    step(snapshot: AnyMachineSnapshot, event: AnyEventObject): Probed {
      drain();
      machine.transition(snapshot, event, scope);
      return drain();
    },
  };
}

/** The event the replay sends a running stub to settle it: it then ends as a promise actor would. */
const SETTLE = 'paths.settle';
interface SettleEvent {
  type: typeof SETTLE;
  outcome: 'resolved' | 'rejected';
  value: unknown;
}

type StubSnapshot = ActorSnapshot<unknown> & { input: unknown };

/**
 * The stand-in for every named actor, whatever its kind: it records each run (input, events received) and
 * stays alive, like a callback actor or a promise that has not answered, until the replay settles it
 * (`done`, with the output, or `error`, like a resolved or rejected promise) or the machine stops it.
 */
function stubLogic(
  src: string,
  started: (call: ActorCall, self: AnyActorRef) => void,
): ActorLogic<StubSnapshot, AnyEventObject, unknown> {
  const runs = new WeakMap<AnyActorRef, ActorCall>();
  return {
    config: src,
    getInitialSnapshot: (_scope, input) => ({ status: 'active', output: undefined, error: undefined, input }),
    start: (snapshot, { self }) => {
      const call: ActorCall = { id: self.id, src, input: snapshot.input, status: 'pending', received: [] };
      runs.set(self, call);
      started(call, self);
    },
    transition: (snapshot, event, { self }) => {
      const call = runs.get(self);
      if (snapshot.status !== 'active' || !call) return snapshot;
      if (event.type === SETTLE) {
        const { outcome, value } = event as SettleEvent;
        call.status = outcome;
        return outcome === 'resolved'
          ? { ...snapshot, status: 'done', output: value }
          : { ...snapshot, status: 'error', error: value };
      }
      if (event.type === 'xstate.stop') {
        call.status = 'stopped';
        return { ...snapshot, status: 'stopped' };
      }
      call.received.push(event);
      return snapshot;
    },
    getPersistedSnapshot: (snapshot) => snapshot,
  };
}

/** Lets actors and the events they send run (a macrotask drains every pending microtask). */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The delay of an `after` event in milliseconds, as the machine resolves it: a number, or a named delay
 * from `delays` (a function delay gets the snapshot's context and a stand-in event). Undefined when it
 * cannot be known without running the machine.
 */
function afterDelay(
  machine: AnyStateMachine,
  snapshot: AnyMachineSnapshot,
  type: string,
): number | undefined {
  const transition = snapshot._nodes.flatMap((node) => node.after).find((t) => t.eventType === type);
  const delay = (transition as { delay?: unknown } | undefined)?.delay;
  if (typeof delay === 'number') return delay;
  if (typeof delay !== 'string') return undefined;
  const named: unknown = machine.implementations.delays[delay];
  if (typeof named === 'number') return named;
  if (typeof named !== 'function') return undefined;
  try {
    const ms: unknown = named({ context: snapshot.context, event: { type: 'xstate.init' } }, undefined);
    return typeof ms === 'number' ? ms : undefined;
  } catch {
    return undefined;
  }
}

/** The names every invoke refers to, so each can be stubbed. */
function actorSources(machine: AnyStateMachine): string[] {
  const named = Object.keys(machine.implementations.actors ?? {});
  const invoked = descendantsOf(machine.root)
    .concat(machine.root)
    .flatMap((node) => node.invoke.map((invoke) => invoke.src))
    .filter((src): src is string => typeof src === 'string');
  return [...new Set([...named, ...invoked])].sort();
}

export function createPathModel<TMachine extends AnyStateMachine>(
  machine: TMachine,
  options: PathModelOptions<TMachine> = {},
): PathModel<TMachine> {
  type Snapshot = SnapshotFrom<TMachine>;
  const inputs = options.inputs ?? [undefined as InputFrom<TMachine>];
  const userEvents = (options.events ?? []) as readonly AnyEventObject[];
  const outputs = options.outputs ?? {};
  const errors = options.errors ?? {};
  const describeEvent = options.describeEvent ?? defaultDescribeEvent;
  const serializeState =
    options.serializeState ??
    ((snapshot: Snapshot) => {
      const { value, context } = snapshot as AnyMachineSnapshot;
      return stringify({ value, context });
    });
  const probe = createProbe(machine);

  // Invoke ids that the model could never resolve are a mistake in the test, not a gap to report later.
  const needOutputs = new Set<string>();
  const needErrors = new Set<string>();
  for (const info of transitionsOf(machine)) {
    if (info.event.startsWith(DONE_ACTOR)) needOutputs.add(info.event.slice(DONE_ACTOR.length));
    if (info.event.startsWith(ERROR_ACTOR)) needErrors.add(info.event.slice(ERROR_ACTOR.length));
  }
  const lacking = [
    ...[...needOutputs].filter((id) => !outputs[id]?.length).map((id) => `outputs.${id}`),
    ...[...needErrors].filter((id) => !errors[id]?.length).map((id) => `errors.${id}`),
  ];
  if (lacking.length) {
    throw new Error(`createPathModel(${machine.id}): give at least one value for ${lacking.join(', ')}.`);
  }

  /** Of several timers, only the soonest can fire first (see `timers`). */
  const soonestTimers = (snapshot: AnyMachineSnapshot, offered: AnyEventObject[]): AnyEventObject[] => {
    const timers = offered.filter((event) => event.type.startsWith(AFTER));
    if (options.timers === 'all' || timers.length < 2) return offered;
    const delays = timers.map((event) => afterDelay(machine, snapshot, event.type));
    if (delays.some((ms) => ms === undefined)) return offered;
    const soonest = Math.min(...(delays as number[]));
    return offered.filter(
      (event) => !event.type.startsWith(AFTER) || afterDelay(machine, snapshot, event.type) === soonest,
    );
  };

  /** The events a state handles (its active nodes' own descriptors, as `createTestModel` uses). */
  const offeredEvents = (snapshot: Snapshot): AnyEventObject[] =>
    (ownEventDescriptors(snapshot as AnyMachineSnapshot) as string[]).flatMap((type): AnyEventObject[] => {
      if (type.startsWith(DONE_ACTOR)) {
        return (outputs[type.slice(DONE_ACTOR.length)] ?? []).map((output) => ({ type, output }));
      }
      if (type.startsWith(ERROR_ACTOR)) {
        return (errors[type.slice(ERROR_ACTOR.length)] ?? []).map((error) => ({ type, error }));
      }
      if (type.startsWith(AFTER)) return [{ type }];
      // Other xstate.* events (done.state, snapshot) are raised by the machine itself, and wildcards
      // would match everything: neither is something a test sends.
      if (type.startsWith('xstate.') || type.includes('*')) return [];
      if (options.withoutEvents?.includes(type)) return [];
      const listed = userEvents.filter((event) => event.type === type);
      return listed.length ? [...listed] : [{ type }];
    });
  const eventsFor = (snapshot: Snapshot): AnyEventObject[] =>
    soonestTimers(snapshot as AnyMachineSnapshot, offeredEvents(snapshot));

  // The traversal works on the machine as any machine: done/error/after events are not in its event type.
  const graphMachine: AnyStateMachine = machine;
  const traversal = (input: unknown): TraversalOptions<AnyMachineSnapshot, AnyEventObject, unknown> => ({
    input,
    events: (snapshot) => eventsFor(snapshot as Snapshot),
    serializeState: (snapshot) => serializeState(snapshot as Snapshot),
    serializeEvent: (event) => stringify(event),
    limit: options.limit ?? 10_000,
  });

  const paths: Array<ModelPath<TMachine>> = [];
  const covered = new Set<string>();
  const visited = new Set<string>();

  const record = (steps: Array<ModelStep<TMachine>>) => {
    for (const step of steps) {
      for (const node of (step.state as AnyMachineSnapshot)._nodes) visited.add(`#${node.id}`);
      for (const info of step.transitions) {
        covered.add(info.key);
        // A transient state (left at once by `always`) never shows in a snapshot; leaving it visits it.
        visited.add(info.source);
      }
    }
  };

  inputs.forEach((input, inputIndex) => {
    const generate = options.strategy === 'simple' ? getSimplePaths : getShortestPaths;
    let generated: ReturnType<typeof generate>;
    try {
      generated = generate(graphMachine, traversal(input));
    } catch (error) {
      // A machine that throws on some reachable event (a `!` on a null, say) is itself the finding.
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        `createPathModel(${machine.id}): the machine threw while paths were generated from input ` +
          `${inputIndex + 1} (${stringify(input)}): ${reason}`,
        { cause: error },
      );
    }
    const initial = probe.initial(input);

    const toSteps = (raw: ReadonlyArray<{ event: AnyEventObject; state: Snapshot }>) =>
      raw.map((step, index): ModelStep<TMachine> => ({
        event: step.event,
        state: step.state,
        ...(index === 0 ? initial : probe.step(raw[index - 1].state as AnyMachineSnapshot, step.event)),
      }));

    const forInput: Array<Array<ModelStep<TMachine>>> = generated.map((path) =>
      toSteps(path.steps as unknown as ReadonlyArray<{ event: AnyEventObject; state: Snapshot }>),
    );
    forInput.forEach(record);

    // Edges that take a transition no path has taken (or all of them): extend the shortest path to their
    // source by them.
    const adjacency = getAdjacencyMap(graphMachine, traversal(input));
    const shortestTo = new Map<string, Array<ModelStep<TMachine>>>();
    for (const steps of forInput) {
      const key = serializeState(steps[steps.length - 1].state);
      const known = shortestTo.get(key);
      if (!known || known.length > steps.length) shortestTo.set(key, steps);
    }
    for (const [vertex, { transitions }] of Object.entries(adjacency)) {
      const prefix = shortestTo.get(vertex);
      if (!prefix) continue;
      const from = prefix[prefix.length - 1].state as AnyMachineSnapshot;
      const edges = Object.values(transitions) as Array<{ event: AnyEventObject; state: AnyMachineSnapshot }>;
      for (const edge of edges) {
        const probed = probe.step(from, edge.event);
        if (options.edges !== 'all' && probed.transitions.every((info) => covered.has(info.key))) continue;
        const steps = [...prefix, { event: edge.event, state: edge.state as Snapshot, ...probed }];
        record([steps[steps.length - 1]]);
        forInput.push(steps);
      }
    }

    // A path whose events are a prefix of another path's adds nothing the longer one does not replay.
    const signature = (steps: Array<ModelStep<TMachine>>) => steps.map((step) => stringify(step.event));
    const sorted = [...forInput].sort((a, b) => b.length - a.length);
    const kept: Array<Array<ModelStep<TMachine>>> = [];
    for (const steps of sorted) {
      const events = signature(steps);
      const subsumed = kept.some((other) => {
        const otherEvents = signature(other);
        return events.every((event, index) => otherEvents[index] === event);
      });
      if (!subsumed) kept.push(steps);
    }
    // Shortest first reads better in a test report; ties keep generation order (sort is stable).
    kept.sort((a, b) => a.length - b.length);
    for (const steps of kept) {
      const trail = steps.slice(1).map((step) => describeEvent(step.event));
      const end = stringify((steps[steps.length - 1].state as AnyMachineSnapshot).value);
      paths.push({
        name: `#${paths.length + 1} input ${inputIndex + 1}: ${trail.join(' → ') || '(start)'} ⇒ ${end}`,
        input,
        inputIndex,
        steps,
      });
    }
  });

  const coverage = (): Coverage => {
    const states = stateIdsOf(machine);
    const transitions = transitionsOf(machine);
    return {
      states: { all: states, missing: states.filter((id) => !visited.has(id)) },
      transitions: { all: transitions, missing: transitions.filter((info) => !covered.has(info.key)) },
    };
  };

  const assertCoverage = () => {
    const { states, transitions } = coverage();
    if (!states.missing.length && !transitions.missing.length) return;
    const lines = [
      `The paths of the "${machine.id}" machine leave parts of it untested`,
      `(offer the events, outputs, errors or inputs that reach them):`,
    ];
    if (states.missing.length)
      lines.push('  states never entered:', ...states.missing.map((id) => `    ${id}`));
    if (transitions.missing.length) {
      lines.push('  transitions never taken:', ...transitions.missing.map((info) => `    ${info.label}`));
    }
    throw new Error(lines.join('\n'));
  };

  const sources = actorSources(machine);

  const replay = async (path: ModelPath<TMachine>) => {
    const clock = new SimulatedClock();
    const calls: ActorCall[] = [];
    const refs = new Map<ActorCall, AnyActorRef>();
    const received: string[] = [];
    const liveTransitions: AnyTransitionDefinition[] = [];
    const timers = new Map<string, number>();
    const emitted: Array<EmittedFrom<TMachine>> = [];
    let emittedBefore = 0;

    // Every named actor becomes a stub that runs until the path settles it or the machine stops it.
    const stubs = Object.fromEntries(
      sources.map((src) => [
        src,
        stubLogic(src, (call, self) => {
          calls.push(call);
          refs.set(call, self);
        }),
      ]),
    );
    const provided = machine.provide({
      actors: { ...stubs, ...options.actors },
    } as Parameters<TMachine['provide']>[0]) as TMachine;

    const actor = createActor(provided, {
      input: path.input,
      clock,
      inspect: (event: InspectionEvent) => {
        // Only the machine under test: its children's events are theirs.
        if (event.actorRef.sessionId !== event.rootId) return;
        if (event.type === '@xstate.microstep') liveTransitions.push(...event._transitions);
        if (event.type === '@xstate.event') received.push(event.event.type);
        if (event.type === '@xstate.action' && event.action.type === 'xstate.raise') {
          const params = event.action.params as { event?: AnyEventObject; delay?: unknown };
          if (params.event?.type.startsWith(AFTER) && typeof params.delay === 'number') {
            timers.set(params.event.type, clock.now() + params.delay);
          }
        }
      },
    });

    // Every emitted event, whatever its type (the model says which to expect).
    actor.on('*', (event) => {
      emitted.push(event as EmittedFrom<TMachine>);
    });

    /** The machine's own timers that are still scheduled (a child's are the child's business). */
    const pendingTimers = (): PendingTimer[] => {
      const scheduled = new Set(
        Object.values(actor.system.getSnapshot()._scheduledEvents)
          .filter((scheduledEvent) => scheduledEvent.source === actor)
          .map((scheduledEvent) => scheduledEvent.event.type),
      );
      return [...timers]
        .filter(([type]) => scheduled.has(type))
        .map(([event, due]) => ({ event, due }))
        .sort((a, b) => a.due - b.due);
    };

    /** Settles the latest running stub of an invoke id, as its promise would resolve or reject. */
    const settle = (
      id: string,
      outcome: SettleEvent['outcome'],
      value: unknown,
      type: string,
      index: number,
    ) => {
      const running = calls.filter((call) => call.status === 'pending');
      const call = [...running].reverse().find((candidate) => candidate.id === id);
      const ref = call && refs.get(call);
      if (!call || !ref) {
        throw new Error(
          `${path.name}\nstep ${index}: the path sends ${type}, but no actor with that id is running ` +
            `(running: ${running.map((c) => c.id).join(', ') || 'none'}).`,
        );
      }
      ref.send({ type: SETTLE, outcome, value } satisfies SettleEvent);
    };

    const waitFor = async (type: string, index: number) => {
      for (let turn = 0; turn < 20; turn++) {
        if (received.includes(type)) return;
        await nextTurn();
      }
      throw new Error(`${path.name}\nstep ${index}: the live actor never received ${type}.`);
    };

    let previous: Snapshot | undefined;
    try {
      for (const [index, step] of path.steps.entries()) {
        const { event } = step;
        if (index === 0) {
          actor.start();
        } else if (event.type.startsWith(DONE_ACTOR)) {
          settle(event.type.slice(DONE_ACTOR.length), 'resolved', outputOf(event), event.type, index);
          await waitFor(event.type, index);
        } else if (event.type.startsWith(ERROR_ACTOR)) {
          settle(event.type.slice(ERROR_ACTOR.length), 'rejected', errorOf(event), event.type, index);
          await waitFor(event.type, index);
        } else if (event.type.startsWith(AFTER)) {
          const due = pendingTimers().find((timer) => timer.event === event.type)?.due;
          if (due === undefined) {
            throw new Error(`${path.name}\nstep ${index}: no timer for ${event.type} is pending.`);
          }
          // Any timer due earlier fires first, as it would in real time; this one must wait its full delay.
          const firedSoFar = () => received.filter((type) => type.startsWith(AFTER));
          if (due > clock.now()) {
            clock.increment(due - clock.now() - 1);
            if (firedSoFar().includes(event.type)) {
              throw new Error(`${path.name}\nstep ${index}: ${event.type} fired before its due time ${due}.`);
            }
            clock.increment(1);
          } else {
            // A zero delay: due now, fired when the clock is next looked at.
            clock.increment(0);
          }
          const fired = firedSoFar();
          if (!fired.includes(event.type) && fired.length) {
            throw new Error(
              `${path.name}\nstep ${index}: ${fired[0]} fired before ${event.type}, so this path cannot ` +
                `happen in real time (see the 'timers' option).`,
            );
          }
          await waitFor(event.type, index);
        } else {
          actor.send(event as EventFromLogic<TMachine>);
        }

        const snapshot = actor.getSnapshot() as Snapshot;
        const live = snapshot as AnyMachineSnapshot;
        const model = step.state as AnyMachineSnapshot;
        const where = `${path.name}\nafter step ${index} (${describeEvent(event)})`;
        expect(live.status, `${where}: status`).toBe(model.status);
        expect(live.value as StateValue, `${where}: state value`).toEqual(model.value);
        if (options.compareContext !== false) {
          const part =
            typeof options.compareContext === 'function'
              ? options.compareContext
              : (context: ContextFrom<TMachine>) => context;
          expect(part(live.context), `${where}: context`).toEqual(part(model.context));
        }
        // Coverage is measured on the model; this proves the live actor took the same transitions.
        expect(
          liveTransitions.map((t) => transitionInfo(t).label),
          `${where}: transitions`,
        ).toEqual(step.transitions.map((info) => info.label));
        const emittedNow = emitted.slice(emittedBefore);
        expect(emittedNow, `${where}: emitted events`).toEqual(step.emitted);
        options.check?.({
          path,
          index,
          step,
          snapshot,
          previous,
          calls,
          emitted: emittedNow,
          allEmitted: [...emitted],
          now: clock.now(),
          timers: pendingTimers(),
        });
        previous = snapshot;
        // Cleared after the checks, not before: the initial microsteps happen in createActor, before start.
        received.length = 0;
        liveTransitions.length = 0;
        emittedBefore = emitted.length;
      }
      return { snapshot: actor.getSnapshot() as Snapshot, calls, emitted: [...emitted] };
    } finally {
      actor.stop();
    }
  };

  return { machine, paths, replay, coverage, assertCoverage };
}

const COVERAGE_DIR = join(import.meta.dirname, '..', '..', 'docs', 'statecharts', 'coverage');

/**
 * What the path tests cover of one machine, as /statecharts shows it: each state (by path) and each
 * transition (by name) covered or not, by any of the machine's models (a machine walked by two models
 * is covered by their union).
 */
export function coverageOf(...models: Array<PathModel<AnyStateMachine>>): ChartCoverage {
  const { machine } = models[0];
  const reports = models.map((model) => model.coverage());
  const nodes = descendantsOf(machine.root);
  const all = reports[0].transitions.all;
  return {
    machine: machine.id,
    states: Object.fromEntries(
      nodes.map((node) => [
        statePathOf(node),
        reports.some((report) => !report.states.missing.includes(`#${node.id}`)),
      ]),
    ),
    transitions: Object.fromEntries(
      all.map((info) => [
        info.name,
        reports.some((report) => !report.transitions.missing.some((missing) => missing.key === info.key)),
      ]),
    ),
  };
}

/**
 * The committed coverage file, docs/statecharts/coverage/<machine>.json, must be what the path tests
 * cover now: a vitest file snapshot, so `npx vitest run tests/machines -u` writes it again (and CI, where
 * a missing snapshot fails, never writes it).
 */
export async function matchCoverageFile(...models: Array<PathModel<AnyStateMachine>>): Promise<void> {
  const coverage = coverageOf(...models);
  await expect(`${JSON.stringify(coverage, null, 2)}\n`).toMatchFileSnapshot(
    join(COVERAGE_DIR, `${coverage.machine}.json`),
  );
}
