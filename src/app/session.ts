import type { ActorRefFrom } from 'xstate';
import type { sessionMachine } from '../../machines/session.machine';
import { onUnauthenticated } from '../api/client';
import { writePendingLogin } from '../api/pendingLogin';

export type SessionActor = ActorRefFrom<typeof sessionMachine>;

/**
 * The session's two links to the browser, which no chart can hold: a sign-in waiting for its code is
 * kept in sessionStorage (it survives a reload), and the API client's 401 ends the session. Returns
 * what undoes both.
 */
export function connectSession(session: SessionActor): () => void {
  let stored = session.getSnapshot().context.challenge;
  const subscription = session.subscribe((snapshot) => {
    if (snapshot.context.challenge !== stored) {
      stored = snapshot.context.challenge;
      writePendingLogin(stored);
    }
  });
  const stopListening = onUnauthenticated(() => session.send({ type: 'session.expired' }));
  return () => {
    subscription.unsubscribe();
    stopListening();
  };
}
