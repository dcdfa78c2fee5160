import { useActorRef } from '@xstate/react';
import type { ActorOptions, AnyActorLogic } from 'xstate';
import { inspectAppActors } from './liveStates';

/**
 * `useActorRef` for an actor a page makes (a payment, a form, the candidate form): the same, with the
 * app's inspection, so the user's live state (liveStates.ts) lists it while the page is open and drops
 * it when the page stops it. The one place a page actor joins the live list.
 */
export function useLiveActorRef<TLogic extends AnyActorLogic>(logic: TLogic, options?: ActorOptions<TLogic>) {
  return useActorRef(logic, { ...options, inspect: inspectAppActors } as ActorOptions<TLogic>);
}
