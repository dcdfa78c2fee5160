import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { appMachine } from '../machines/app.machine';
import { candidateFormMachine } from '../machines/candidateForm.machine';
import { bulkRegistrationMachine } from '../machines/bulkRegistration.machine';
import { bulkImportMachine } from '../machines/bulkImport.machine';
import { marksImportMachine } from '../machines/marksImport.machine';
import { documentJobMachine } from '../machines/documentJob.machine';
import { confirmDialogMachine } from '../machines/confirmDialog.machine';
import { formDialogMachine } from '../machines/formDialog.machine';
import { idleMachine } from '../machines/idle.machine';
import { impersonationMachine } from '../machines/impersonation.machine';
import { listMachine } from '../machines/list.machine';
import { registrationWindowMachine } from '../machines/registrationWindow.machine';
import { markRowMachine } from '../machines/markRow.machine';
import { paymentMachine } from '../machines/payment.machine';
import { scoreSheetMachine } from '../machines/scoreSheet.machine';
import { sessionMachine } from '../machines/session.machine';
import { statusToggleMachine } from '../machines/statusToggle.machine';
import { unreadCountMachine } from '../machines/unreadCount.machine';

/**
 * The statecharts as Mermaid (stateDiagram-v2), for auditors: docs/statecharts/<name>.mmd is written by
 * `npm run charts` and tests/statecharts.test.ts fails when a committed chart no longer matches its machine.
 * The labels here are also the vocabulary of the model-based test harness (tests/machines/paths.ts), so a
 * coverage failure names a transition exactly as the chart shows it.
 */

export interface ChartedMachine {
  name: string;
  machine: AnyStateMachine;
}

/** Every machine that gets a chart. A new machine goes here and `npm run charts` draws it. */
export const MACHINES: readonly ChartedMachine[] = [
  { name: 'app', machine: appMachine },
  { name: 'session', machine: sessionMachine },
  { name: 'idle', machine: idleMachine },
  { name: 'unreadCount', machine: unreadCountMachine },
  { name: 'registrationWindow', machine: registrationWindowMachine },
  { name: 'payment', machine: paymentMachine },
  { name: 'scoreSheet', machine: scoreSheetMachine },
  { name: 'markRow', machine: markRowMachine },
  { name: 'bulkImport', machine: bulkImportMachine },
  { name: 'marksImport', machine: marksImportMachine },
  { name: 'documentJob', machine: documentJobMachine },
  { name: 'formDialog', machine: formDialogMachine },
  { name: 'confirmDialog', machine: confirmDialogMachine },
  { name: 'impersonation', machine: impersonationMachine },
  { name: 'list', machine: listMachine },
  { name: 'candidateForm', machine: candidateFormMachine },
  { name: 'statusToggle', machine: statusToggleMachine },
  { name: 'bulkRegistration', machine: bulkRegistrationMachine },
];

const AFTER = 'xstate.after.';
const DONE_ACTOR = 'xstate.done.actor.';
const ERROR_ACTOR = 'xstate.error.actor.';
const DONE_STATE = 'xstate.done.state.';
const SNAPSHOT = 'xstate.snapshot.';

/** A delayed transition keeps its delay as written: a name from `delays` or milliseconds. */
function delayOf(transition: AnyTransitionDefinition): string | number | undefined {
  const { delay } = transition as { delay?: unknown };
  return typeof delay === 'string' || typeof delay === 'number' ? delay : undefined;
}

/**
 * A guard as an auditor reads it: its name, `{ type }` of a parameterised guard, `and(a, b)` / `or(..)` /
 * `not(..)` for combinators, `in(state)` for stateIn, and `inline guard` for an anonymous function
 * (which is why machines should name their guards).
 */
export function describeGuard(guard: unknown): string | undefined {
  if (guard === undefined || guard === null) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    // XState's combinators are functions carrying `check` plus their operands.
    const combinator = guard as { name: string; check?: unknown; guards?: unknown; stateValue?: unknown };
    if (combinator.check && Array.isArray(combinator.guards)) {
      return `${combinator.name}(${combinator.guards.map((g) => describeGuard(g) ?? '?').join(', ')})`;
    }
    if (combinator.check && combinator.stateValue !== undefined) {
      return `in(${JSON.stringify(combinator.stateValue)})`;
    }
    return 'inline guard';
  }
  if (typeof guard === 'object' && 'type' in guard) return String((guard as { type: unknown }).type);
  return 'guard';
}

/**
 * The trigger of a transition in words: the event type, `always`, `after idleTimeout` (or `after 500ms`),
 * `done: <invoke id>`, `error: <invoke id>`, `done` for a compound state's onDone.
 */
export function describeTrigger(transition: AnyTransitionDefinition): string {
  const type = transition.eventType as string;
  if (type === '') return 'always';
  if (type.startsWith(AFTER)) {
    const delay = delayOf(transition) ?? type.slice(AFTER.length).split('.')[0];
    return typeof delay === 'number' ? `after ${delay}ms` : `after ${delay}`;
  }
  if (type.startsWith(DONE_ACTOR)) return `done: ${type.slice(DONE_ACTOR.length)}`;
  if (type.startsWith(ERROR_ACTOR)) return `error: ${type.slice(ERROR_ACTOR.length)}`;
  if (type.startsWith(DONE_STATE)) return 'done';
  if (type.startsWith(SNAPSHOT)) return `snapshot: ${type.slice(SNAPSHOT.length)}`;
  return type;
}

/** `trigger [guard]`, the label of an arrow. */
export function describeTransition(transition: AnyTransitionDefinition): string {
  const guard = describeGuard(transition.guard);
  return guard ? `${describeTrigger(transition)} [${guard}]` : describeTrigger(transition);
}

/**
 * Stands in for every argument of an emit expression, so the type of the event it builds can be read
 * without running the machine: any property of it, and any call of it, is itself again.
 */
const anything: unknown = new Proxy(function anything() {}, {
  get: (_target, key) => {
    if (key === Symbol.toPrimitive) return () => '';
    // Not a thenable, or `await` and promise helpers would call it.
    if (key === 'then') return undefined;
    return anything;
  },
  apply: () => anything,
});

/**
 * The type of the event an action emits, when it is an `emit(...)`, inline or named in the machine's
 * `actions`; `undefined` for any other action. An emit built by a function is called with stand-in
 * arguments (emit expressions are pure, XState calls them while it resolves a transition); when that
 * does not yield a type, the event is shown as `event`.
 */
export function emittedTypeOf(action: unknown, machine: AnyStateMachine): string | undefined {
  const named = typeof action === 'string' ? action : (action as { type?: unknown } | null)?.type;
  const implementations = machine.implementations.actions as Record<string, unknown>;
  const resolved =
    typeof action === 'function' ? action : typeof named === 'string' ? implementations[named] : undefined;
  const builtin = resolved as { type?: unknown; event?: unknown } | undefined;
  if (typeof resolved !== 'function' || builtin?.type !== 'xstate.emit') return undefined;
  let event = builtin.event;
  if (typeof event === 'function') {
    try {
      event = (event as (args: unknown, params: unknown) => unknown)(anything, anything);
    } catch {
      event = undefined;
    }
  }
  const type = (event as { type?: unknown } | null | undefined)?.type;
  return typeof type === 'string' ? type : 'event';
}

/** The types of the events a list of actions emits, in order, each once. */
function emittedTypesOf(actions: readonly unknown[], machine: AnyStateMachine): string[] {
  const types = actions.map((action) => emittedTypeOf(action, machine));
  return [...new Set(types.filter((type): type is string => type !== undefined))];
}

/**
 * `send <event> to <child>` for a `sendTo` action with a fixed event and target, inline or named in the
 * machine's `actions` (how a parent machine coordinates its children); `undefined` for any other action.
 */
function sentEventOf(action: unknown, machine: AnyStateMachine): string | undefined {
  const named = typeof action === 'string' ? action : (action as { type?: unknown } | null)?.type;
  const implementations = machine.implementations.actions as Record<string, unknown>;
  const resolved =
    typeof action === 'function' ? action : typeof named === 'string' ? implementations[named] : undefined;
  const builtin = resolved as { type?: unknown; to?: unknown; event?: unknown } | undefined;
  if (typeof resolved !== 'function' || builtin?.type !== 'xstate.sendTo') return undefined;
  const type = (builtin.event as { type?: unknown } | null | undefined)?.type;
  if (typeof builtin.to !== 'string' || typeof type !== 'string') return undefined;
  return `send ${type} to ${builtin.to}`;
}

/** What taking a transition tells others: `emit a, b` (its emitted events) and `send e to child`. */
export function effectsOf(transition: AnyTransitionDefinition): string[] {
  const { machine } = transition.source;
  const emits = emittedTypesOf(transition.actions, machine);
  const sends = transition.actions
    .map((action) => sentEventOf(action, machine))
    .filter((sent): sent is string => sent !== undefined);
  return [...(emits.length ? [`emit ${emits.join(', ')}`] : []), ...sends];
}

/** A state's path in its machine (`ready.saved`); the machine itself is named by its id. */
export function statePathOf(node: AnyStateNode): string {
  return node.path.length ? node.path.join('.') : node.machine.id;
}

/**
 * A transition's name, relative to its machine: `updating --done: updateStatus--> ready.saved`. The page
 * anchors it (contract/statecharts.ts), the coverage files and the audit catalogue name it so.
 */
export function transitionName(transition: AnyTransitionDefinition): string {
  const targets = (transition.target ?? []).map(statePathOf);
  return `${statePathOf(transition.source)} --${describeTransition(transition)}--> ${targets.join(', ') || '(stays)'}`;
}

/**
 * `trigger [guard] / emit a, b · send e to child`: an arrow's label in a chart (the harness names
 * transitions without their actions).
 */
function describeArrow(transition: AnyTransitionDefinition): string {
  const effects = effectsOf(transition);
  const label = describeTransition(transition);
  return effects.length ? `${label} / ${effects.join(' · ')}` : label;
}

/** The state nodes below `node` in document order (the root itself excluded). */
export function descendantsOf(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states).flatMap((child) => [child, ...descendantsOf(child)]);
}

/**
 * The transitions a state node owns, in a fixed order: eventless first (they are tried first), then
 * `on`, compound onDone, invoke onDone/onError/onSnapshot and `after`, as XState lists them.
 */
export function ownTransitionsOf(node: AnyStateNode): AnyTransitionDefinition[] {
  return [...(node.always ?? []), ...[...node.transitions.values()].flat()];
}

interface MermaidIds {
  /** Each state's id. */
  states: Map<AnyStateNode, string>;
  /** The "any state" node drawn inside each compound state (below the root), for its own transitions. */
  anyState: Map<AnyStateNode, string>;
}

const mermaidIds = new WeakMap<AnyStateMachine, MermaidIds>();

/** Mermaid ids allow letters, digits and underscores only; a clash would merge two states, so refuse it. */
function idsFor(machine: AnyStateMachine): MermaidIds {
  const known = mermaidIds.get(machine);
  if (known) return known;
  const ids: MermaidIds = { states: new Map(), anyState: new Map() };
  const taken = new Map<string, string>();
  const reserve = (id: string, name: string) => {
    const clash = taken.get(id);
    if (clash) throw new Error(`States "${clash}" and "${name}" would share the Mermaid id "${id}".`);
    taken.set(id, name);
  };
  for (const node of [machine.root, ...descendantsOf(machine.root)]) {
    const id = node.id.replace(/[^A-Za-z0-9_]/g, '_');
    reserve(id, node.id);
    ids.states.set(node, id);
    if (node !== machine.root && node.type === 'compound') {
      reserve(`${id}__any`, `any state of ${node.id}`);
      ids.anyState.set(node, `${id}__any`);
    }
  }
  mermaidIds.set(machine, ids);
  return ids;
}

/** Mermaid ends a statement at a newline or ';', and reads '#' as an entity: keep labels on one line. */
function clean(text: string): string {
  return text.replace(/[\r\n;]+/g, ' ').replace(/#/g, '');
}

function isAncestor(ancestor: AnyStateNode, node: AnyStateNode): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (current === ancestor) return true;
  }
  return false;
}

/**
 * The block an arrow is written in: the deepest state that strictly contains both ends. Mermaid cannot
 * draw an arrow written inside a composite state to a state outside it, so each arrow goes in the
 * smallest scope that holds both ends; `undefined` is the top level (outside the machine's own box).
 */
function scopeOf(source: AnyStateNode, target: AnyStateNode): AnyStateNode | undefined {
  for (let scope = source.parent; scope; scope = scope.parent) {
    if (isAncestor(scope, target)) return scope;
  }
  return undefined;
}

function invokesOf(node: AnyStateNode): string[] {
  return node.invoke.map((invoke) => {
    const src = typeof invoke.src === 'string' ? invoke.src : 'inline actor';
    return invoke.id === src ? `invoke ${src}` : `invoke ${invoke.id} (${src})`;
  });
}

export function notesOf(node: AnyStateNode): string[] {
  const tags = [...node.tags].sort();
  const notes = tags.length ? [`tags ${tags.join(', ')}`] : [];
  notes.push(...invokesOf(node));
  const onEntry = emittedTypesOf(node.entry, node.machine);
  if (onEntry.length) notes.push(`entry / emit ${onEntry.join(', ')}`);
  const onExit = emittedTypesOf(node.exit, node.machine);
  if (onExit.length) notes.push(`exit / emit ${onExit.join(', ')}`);
  if (node.type === 'history') notes.push(`history (${node.history || 'shallow'})`);
  return notes;
}

/**
 * The machine as a Mermaid stateDiagram-v2, identical for an unchanged machine.
 *
 * The root is not drawn as a box: Mermaid's layout pulls nested states out of a box that arrows cross, so
 * a box around everything scrambles the chart. Transitions, tags and actors of the root (what holds in
 * every state) hang on an "any state" node instead. A parallel root keeps its box, since its regions need one.
 * Likewise a compound state's transitions to its own children (or back to itself) start from an
 * "any state" node inside its box: Mermaid cannot draw an arrow from a box to something in it.
 * An arrow's label ends with `/ emit a, b` when its actions emit events (`emit(...)`, for `actor.on`).
 */
export function toMermaid(machine: AnyStateMachine): string {
  const ids = idsFor(machine);
  const idOf = (node: AnyStateNode): string => ids.states.get(node)!;
  const { root } = machine;
  const boxedRoot = root.type === 'parallel';

  // Arrows grouped by the block they are written in (see scopeOf); Map keeps document order.
  const arrows = new Map<AnyStateNode | undefined, string[]>();
  for (const source of [root, ...descendantsOf(root)]) {
    for (const transition of ownTransitionsOf(source)) {
      // A transition without a target runs its actions and stays: drawn as a loop on its source.
      const targets: readonly AnyStateNode[] = transition.target?.length ? transition.target : [source];
      for (const target of targets) {
        const label = clean(describeArrow(transition));
        const anyState = ids.anyState.get(source);
        if (anyState && (target === source || isAncestor(source, target))) {
          const to = target === source ? anyState : idOf(target);
          arrows.set(source, [...(arrows.get(source) ?? []), `${anyState} --> ${to} : ${label}`]);
          continue;
        }
        const found = scopeOf(source, target);
        const scope = !boxedRoot && found === root ? undefined : found;
        const line = `${idOf(source)} --> ${idOf(target)} : ${label}`;
        arrows.set(scope, [...(arrows.get(scope) ?? []), line]);
      }
    }
  }

  const lines: string[] = [
    'stateDiagram-v2',
    `  %% The "${machine.id}" machine. Generated by \`npm run charts\`; do not edit by hand.`,
  ];

  /** Children, initial and final arrows, and the arrows scoped to `node`, at `depth`. */
  const writeBody = (node: AnyStateNode, depth: number): void => {
    const pad = '  '.repeat(depth);
    const children = Object.values(node.states);
    const anyState = ids.anyState.get(node);
    if (anyState && arrows.get(node)?.some((line) => line.startsWith(`${anyState} `))) {
      lines.push(`${pad}state "any state" as ${anyState}`);
    }
    children.forEach((child, index) => {
      // Regions of a parallel state are separated by '--' in Mermaid.
      if (node.type === 'parallel' && index > 0) lines.push(`${pad}--`);
      writeState(child, depth);
    });
    if (node.type !== 'parallel' && node.initial?.target.length) {
      for (const initial of node.initial.target) lines.push(`${pad}[*] --> ${idOf(initial)}`);
    }
    for (const child of children) {
      if (child.type === 'final') lines.push(`${pad}${idOf(child)} --> [*]`);
    }
    for (const line of arrows.get(node) ?? []) lines.push(`${pad}${line}`);
  };

  const writeState = (node: AnyStateNode, depth: number): void => {
    const pad = '  '.repeat(depth);
    const id = idOf(node);
    lines.push(`${pad}state "${clean(node === root ? machine.id : node.key)}" as ${id}`);
    const notes = notesOf(node);
    // Mermaid prints a simple state's description under its name, but a composite state takes a name only,
    // so its tags and actors go in a note beside it.
    if (Object.keys(node.states).length === 0) {
      for (const note of notes) lines.push(`${pad}${id} : ${clean(note)}`);
      return;
    }
    if (notes.length) lines.push(`${pad}note right of ${id} : ${clean(notes.join(' · '))}`);
    lines.push(`${pad}state ${id} {`);
    writeBody(node, depth + 1);
    lines.push(`${pad}}`);
  };

  if (boxedRoot) {
    lines.push(`  [*] --> ${idOf(root)}`);
    writeState(root, 1);
  } else {
    const rootNotes = notesOf(root);
    if (rootNotes.length || arrows.get(undefined)?.some((line) => line.startsWith(`${idOf(root)} `))) {
      lines.push(`  state "any state" as ${idOf(root)}`);
      for (const note of rootNotes) lines.push(`  ${idOf(root)} : ${clean(note)}`);
    }
    writeBody(root, 1);
  }
  for (const line of arrows.get(undefined) ?? []) lines.push(`  ${line}`);
  return `${lines.join('\n')}\n`;
}
