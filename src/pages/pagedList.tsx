import { useActorRef, useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { PromiseActorLogic } from 'xstate';
import type { Page } from '../../contract/pagination';
import { listMachine, type ListAction } from '../../machines/list.machine';
import { pageFetcher } from '../api/lists';
import { ListView } from '../ui/ListView';

/** A paged list of `path` (the list machine) whose rows `act` acts on, and what of it the page shows. */
export function usePagedList<Row>(path: string, act: PromiseActorLogic<{ message?: string }, ListAction>) {
  const list = useActorRef(listMachine.provide({ actors: { fetchPage: pageFetcher(path), act } }), {
    input: {},
  });
  const view = useSelector(list, (s) => ({
    loading: s.hasTag('loading'),
    busy: s.hasTag('busy'),
    data: s.context.data as Page<Row> | null,
    error: s.context.error,
    search: s.context.query.filters.search ?? '',
  }));
  return { list, view };
}

export type PagedListActor = ReturnType<typeof usePagedList>['list'];
export type PagedListView<Row> = ReturnType<typeof usePagedList<Row>>['view'];

/** The list's frame (ui/ListView); a row action in flight marks the rows busy as well. */
export function PagedList<Row>({
  list,
  view,
  children,
}: {
  list: PagedListActor;
  view: PagedListView<Row>;
  children: (page: Page<Row>) => ReactNode;
}) {
  return (
    <div aria-busy={view.busy || undefined}>
      <ListView<Row> list={list}>{(page) => children(page)}</ListView>
    </div>
  );
}
