import { useSelector } from '@xstate/react';
import { createContext, useContext, type ReactNode } from 'react';
import type { SnapshotFrom } from 'xstate';
import type { Role } from '../../contract/roles';
import type { sessionMachine } from '../../machines/session.machine';
import type { AppActors } from './appActors';

/** The app-wide actors (made in appActors.ts), handed to the views; views select from them and send
 * events, nothing more. */

const ActorsContext = createContext<AppActors | null>(null);

export function ActorsProvider({ actors, children }: { actors: AppActors; children: ReactNode }) {
  return <ActorsContext.Provider value={actors}>{children}</ActorsContext.Provider>;
}

export function useActors(): AppActors {
  const actors = useContext(ActorsContext);
  if (!actors) throw new Error('useActors() is used outside <ActorsProvider>');
  return actors;
}

type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

export function useSession<T>(selector: (snapshot: SessionSnapshot) => T): T {
  return useSelector(useActors().session, selector);
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
  return useSelector(useActors()[name] as AppActors[K], selector as (snapshot: unknown) => T);
}
