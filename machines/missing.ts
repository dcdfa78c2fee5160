import { fromCallback, fromPromise } from 'xstate';

/**
 * The default of an actor a machine declares but the app must hand in (`machine.provide`): it fails
 * loudly, naming the machine and the actor, instead of doing nothing.
 */
export function missingPromise<TOutput, TInput>(machine: string, actor: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(`The ${machine} machine needs its ${actor} actor: hand it in with machine.provide().`);
  });
}

export function missingCallback<TEvent extends { type: string }, TInput = unknown>(
  machine: string,
  actor: string,
) {
  return fromCallback<TEvent, TInput>(() => {
    throw new Error(`The ${machine} machine needs its ${actor} actor: hand it in with machine.provide().`);
  });
}
