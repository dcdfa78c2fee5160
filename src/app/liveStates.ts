import type { InspectionEvent, StateValue } from 'xstate';

/**
 * The live state of the user's own actors, fed by XState's inspection API: the app and its children
 * (session, idle timer, unread count, impersonation, the header's forms; appActors.ts hands
 * `inspectAppActors` to `createActor` as its `inspect` option), and the actors a page makes for as long
 * as the page is open (a payment, a form, a score sheet: made with useLiveActorRef.ts, which hands over the
 * same option). Listed: each system's root and every actor with a system id, so a page's many row actors
 * do not flood the list; an actor that stops, finishes or fails leaves it, so the list is what runs now.
 * /statecharts and the shell's "Live state" dialog read it (src/statecharts/LiveStateList.tsx). Only
 * each machine's state value and status are kept, never its context, so nothing here holds a token, a
 * password or a person's data, and what is copied for a support request is safe to paste anywhere.
 */
export interface LiveActor {
  /** The actor's session id: two actors of one name (two open forms) are two entries. */
  id: string;
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

function changed(actors: readonly LiveActor[]) {
  live = { actors, at: Date.now() };
  for (const listener of listeners) listener();
}

/**
 * The `inspect` option of the app actor and of the pages' own actors: keeps each listed machine actor's
 * latest state value (the views word it), and drops it once it has stopped.
 */
export function inspectAppActors(event: InspectionEvent): void {
  if (event.type !== '@xstate.snapshot') return;
  const { value, status } = event.snapshot as { value?: StateValue; status: string };
  const ref = event.actorRef as {
    logic?: { id?: unknown; config?: unknown };
    systemId?: string;
    sessionId: string;
  };
  const machine = ref.logic?.id;
  // Machine actors only (promise and callback actors have no state value).
  if (value === undefined || typeof machine !== 'string' || !ref.logic?.config) return;
  if (ref.sessionId !== event.rootId && ref.systemId === undefined) return;
  const id = ref.sessionId;
  const known = live.actors.find((entry) => entry.id === id);
  if (status !== 'active') {
    if (known) changed(live.actors.filter((entry) => entry !== known));
    return;
  }
  if (known && known.value === value) return;
  const next = { id, actor: ref.systemId ?? machine, machine, value, status };
  changed(known ? live.actors.map((entry) => (entry === known ? next : entry)) : [...live.actors, next]);
}

/** For `useSyncExternalStore`. */
export function subscribeLiveStates(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getLiveStates(): LiveStates {
  return live;
}
