import { useActorRef, useSelector } from '@xstate/react';
import type { PromiseActorLogic } from 'xstate';
import { listMachine, type ListAction } from '../../machines/list.machine';
import { pageFetcher } from '../api/lists';

/**
 * A paged list of `path` (the list machine) whose rows `act` acts on. `canAct` is false while a page
 * loads or an action runs: the machine takes a row action only once its page is shown, so a button left
 * enabled then would lose the click.
 */
export function usePagedList(path: string, act: PromiseActorLogic<{ message?: string }, ListAction>) {
  const list = useActorRef(listMachine.provide({ actors: { fetchPage: pageFetcher(path), act } }), {
    input: {},
  });
  const view = useSelector(list, (s) => ({
    canAct: s.matches('loaded'),
    search: s.context.query.filters.search ?? '',
  }));
  return { list, view };
}
