import {
  createContext,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type { Role } from '../../contract/roles';
import type { sessionMachine } from '../../machines/session.machine';
import type { AppActors } from './appActors';

/**
 * The app-wide actors (made in appActors.ts), handed to the views; views select from them and send
 * events, nothing more. On a /login rendered at build time they are not there yet: the page is
 * hydrated first and the actors (XState, the machines, the API client: their own chunk) are loaded when
 * the form is first used (`load`); every other page waits for them before it renders (src/main.tsx).
 * Only types are imported here, so /login's entry carries no XState.
 */

interface ActorsValue {
  actors: AppActors | null;
  /** Loads the actors when they are not there yet (once), and resolves with them. */
  load: () => Promise<AppActors>;
}

const ActorsContext = createContext<ActorsValue | null>(null);

export function ActorsProvider({
  actors,
  load,
  children,
}: {
  actors: AppActors | null;
  load?: () => Promise<AppActors>;
  children: ReactNode;
}) {
  const value = useMemo(
    () => ({
      actors,
      load:
        load ?? (() => (actors ? Promise.resolve(actors) : Promise.reject(new Error('no actors to load')))),
    }),
    [actors, load],
  );
  return <ActorsContext.Provider value={value}>{children}</ActorsContext.Provider>;
}

function useActorsValue(): ActorsValue {
  const value = useContext(ActorsContext);
  if (!value) throw new Error('useActors() is used outside <ActorsProvider>');
  return value;
}

export function useActors(): AppActors {
  const { actors } = useActorsValue();
  if (!actors) throw new Error('useActors() is used before the app actors are loaded');
  return actors;
}

/** For /login, which renders before the actors are there: the actors or null, and the way to load them. */
export const useLazyActors = useActorsValue;

/**
 * What `selector` reads of an actor's snapshot (`before` without an actor, during hydration), kept in
 * step with it through React's external store. As @xstate/react's useSelector (which /login's entry
 * must not carry): a view re-renders only when what it selects changes, not at every snapshot.
 */
function useSelected<A extends AnyActorRef, T>(
  actor: A | null,
  selector: (snapshot: SnapshotFrom<A>) => T,
  before: T,
): T {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!actor) return () => {};
      const subscription = actor.subscribe(onChange);
      return () => subscription.unsubscribe();
    },
    [actor],
  );
  const last = useRef<{ snapshot: unknown; selector: unknown; value: T } | null>(null);
  const read = () => {
    if (!actor) return before;
    const snapshot = actor.getSnapshot() as SnapshotFrom<A>;
    const kept = last.current;
    if (kept && kept.snapshot === snapshot && kept.selector === selector) return kept.value;
    const value = selector(snapshot);
    // The same value as before is answered as the very same one: React then leaves the view alone.
    const answer = kept && Object.is(kept.value, value) ? kept.value : value;
    last.current = { snapshot, selector, value: answer };
    return answer;
  };
  return useSyncExternalStore(subscribe, read, read);
}

type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

export function useSession<T>(selector: (snapshot: SessionSnapshot) => T): T {
  return useSelected(useActors().session, selector, undefined as T);
}

/** What a view reads of the session, or `before` while the actors are not loaded yet (/login only). */
export function useSessionOr<T>(selector: (snapshot: SessionSnapshot) => T, before: T): T {
  return useSelected(useActorsValue().actors?.session ?? null, selector, before);
}

/** The signed-in user's role, or null before sign-in: the one way a view asks for it. */
export function useRole(): Role | null {
  return useSession((s) => s.context.user?.user_role ?? null);
}

type ActorName = Exclude<keyof AppActors, 'stopAll'>;

/** What a view reads of one app-wide actor. */
export function useAppActor<K extends ActorName, T>(
  name: K,
  selector: (snapshot: SnapshotFrom<AppActors[K]>) => T,
): T {
  return useSelected(useActors()[name] as AppActors[K], selector, undefined as T);
}
