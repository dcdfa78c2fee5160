import { createActor } from 'xstate';
import { sessionMachine } from '../../machines/session.machine';
import { onUnauthenticated } from '../api/client';
import { readToken } from '../api/cookies';
import { readPendingLogin, sessionActors, writePendingLogin } from '../api/session';

/**
 * The app's session actor, made outside React so that the API client's 401 and the pending-login
 * storage can reach it without effects in components.
 */
export function createSessionActor() {
  const actor = createActor(sessionMachine.provide({ actors: sessionActors }), {
    input: { hasStoredToken: readToken() !== null, pendingLogin: readPendingLogin() },
  });
  let stored = actor.getSnapshot().context.challenge;
  actor.subscribe((snapshot) => {
    if (snapshot.context.challenge !== stored) {
      stored = snapshot.context.challenge;
      writePendingLogin(stored);
    }
  });
  onUnauthenticated(() => actor.send({ type: 'session.expired' }));
  return actor.start();
}

export type SessionActor = ReturnType<typeof createSessionActor>;
