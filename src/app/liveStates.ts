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
  value: StateValue;
  status: string;
}

export interface LiveStates {
  actors: readonly LiveActor[];
  /** When the last change was seen (ms since the epoch). */
  at: number;
}

let live: LiveStates = { actors: [], at: 0 };
const listeners = new Set<() => void>();

/** The app actor's `inspect` option: keeps each machine actor's latest state value (the page words it). */
export function inspectAppActors(event: InspectionEvent): void {
  if (event.type !== '@xstate.snapshot') return;
  const { value, status } = event.snapshot as { value?: StateValue; status: string };
  const ref = event.actorRef as { logic?: { id?: unknown; config?: unknown }; systemId?: string };
  const machine = ref.logic?.id;
  // Machine actors only (promise and callback actors have no state value).
  if (value === undefined || typeof machine !== 'string' || !ref.logic?.config) return;
  const actor = ref.systemId ?? machine;
  const known = live.actors.find((entry) => entry.actor === actor);
  if (known && known.value === value && known.status === status) return;
  const next = { actor, machine, value, status };
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
