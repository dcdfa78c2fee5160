import type { InspectionEvent, StateValue } from 'xstate';

/**
 * The live state of the app's own actors (the app and its children: session, idle timer, unread count,
 * impersonation, the header's forms), fed by XState's inspection API: appActors.ts hands `inspectAppActors`
 * to `createActor` as its `inspect` option, and /statecharts reads the result. Only each machine's state
 * value and status are kept, never its context, so nothing here holds a token, a password or a person's
 * data, and what the page copies for a support request is safe to paste anywhere.
 */
export interface LiveActor {
  /** The actor's name in the app (its system id), `app` for the app itself. */
  actor: string;
  /** The machine it runs: its section on /statecharts. */
  machine: string;
  /** `signedIn.idle`, or for a parallel machine `account: admin; activity: active`. */
  state: string;
  /** Every active state's path (`signedIn`, `signedIn.idle`), to mark them on the chart. */
  paths: string[];
  status: string;
}

export interface LiveStates {
  actors: readonly LiveActor[];
  /** When the last change was seen (ms since the epoch). */
  at: number;
}

let live: LiveStates = { actors: [], at: 0 };
const listeners = new Set<() => void>();

function pathsOf(value: StateValue, prefix = ''): string[] {
  if (typeof value === 'string') return [`${prefix}${value}`];
  return Object.entries(value).flatMap(([key, child]) => [
    `${prefix}${key}`,
    ...(child === undefined ? [] : pathsOf(child, `${prefix}${key}.`)),
  ]);
}

function describe(value: StateValue): string {
  if (typeof value === 'string') return value;
  const entries = Object.entries(value).filter(
    (entry): entry is [string, StateValue] => entry[1] !== undefined,
  );
  if (entries.length === 1) return `${entries[0][0]}.${describe(entries[0][1])}`;
  return entries.map(([key, child]) => `${key}: ${describe(child)}`).join('; ');
}

/** The app actor's `inspect` option: keeps each machine actor's latest state value. */
export function inspectAppActors(event: InspectionEvent): void {
  if (event.type !== '@xstate.snapshot') return;
  const snapshot = event.snapshot as { value?: StateValue; status?: string };
  const ref = event.actorRef as { logic?: { id?: unknown; config?: unknown }; systemId?: string };
  const logic = ref.logic ?? {};
  // Machine actors only (promise and callback actors have no state value).
  if (snapshot.value === undefined || typeof logic.id !== 'string' || !logic.config) return;
  const actor = ref.systemId ?? logic.id;
  const next: LiveActor = {
    actor,
    machine: logic.id,
    state: describe(snapshot.value),
    paths: pathsOf(snapshot.value),
    status: snapshot.status ?? 'active',
  };
  const known = live.actors.find((entry) => entry.actor === actor);
  if (known && known.state === next.state && known.status === next.status) return;
  live = {
    actors: known ? live.actors.map((entry) => (entry === known ? next : entry)) : [...live.actors, next],
    at: Date.now(),
  };
  for (const listener of listeners) listener();
}

/** For `useSyncExternalStore`. */
export function subscribeLiveStates(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getLiveStates(): LiveStates {
  return live;
}
