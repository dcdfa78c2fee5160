import { useActorRef, useSelector } from '@xstate/react';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { PromiseActorLogic } from 'xstate';
import type { Page } from '../../contract/pagination';
import { listMachine, type ListAction } from '../../machines/list.machine';
import { pageFetcher } from '../api/lists';
import { Alert, Button, TextField } from '../ui/controls';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { Pagination } from '../ui/Pagination';

/**
 * What the exam offenders and resit candidates pages share: a searched, paged list (the list machine)
 * whose rows can be removed one at a time (`list.act`), each after a confirmation.
 */
export function useRemovableList<Row extends { id: number }>(
  path: string,
  remove: PromiseActorLogic<{ message?: string }, ListAction>,
) {
  const list = useActorRef(listMachine.provide({ actors: { fetchPage: pageFetcher(path), act: remove } }), {
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

/** The list's search: one box, by name or index number. */
export function SearchForm({ search, onSearch }: { search: string; onSearch: (search: string) => void }) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSearch(String(new FormData(event.currentTarget).get('search') ?? '').trim());
  };
  return (
    <form role="search" onSubmit={submit} className="flex flex-wrap items-end gap-3">
      <div className="w-72 max-w-full">
        <TextField label="Name or index number" name="search" type="search" defaultValue={search} />
      </div>
      <Button type="submit" variant="secondary">
        Search
      </Button>
    </form>
  );
}

type ListRef = ReturnType<typeof useRemovableList>['list'];

/**
 * Loading, a failure with a retry, or the table with its pages; a row action's failure sits above the
 * rows that stayed. `confirm` is the row waiting for the user's yes, if any.
 */
export function RemovableList<Row extends { id: number }>({
  list,
  view,
  empty,
  table,
  confirm,
}: {
  list: ListRef;
  view: ReturnType<typeof useRemovableList<Row>>['view'];
  empty: string;
  table: (rows: Row[], askRemove: (row: Row) => void) => ReactNode;
  confirm: (row: Row) => { title: string; text: ReactNode };
}) {
  const [pending, setPending] = useState<Row | null>(null);
  if (view.error && !view.data) {
    return (
      <Alert tone="error">
        {view.error}{' '}
        <Button variant="link" onClick={() => list.send({ type: 'list.refresh' })}>
          Try again
        </Button>
      </Alert>
    );
  }
  if (!view.data) return <p className="text-slate-500">Loading…</p>;
  const asked = pending ? confirm(pending) : null;
  return (
    <div aria-busy={view.loading || view.busy || undefined}>
      {view.error && (
        <div className="mb-3">
          <Alert tone="error">{view.error}</Alert>
        </div>
      )}
      {view.data.items.length === 0 ? (
        <p className="rounded-md bg-white p-6 text-slate-600 ring-1 ring-slate-200">{empty}</p>
      ) : (
        <div className="overflow-x-auto rounded-md bg-white ring-1 ring-slate-200">
          {table(view.data.items, setPending)}
        </div>
      )}
      <Pagination
        data={view.data}
        busy={view.loading}
        onPage={(page) => list.send({ type: 'list.page', page })}
      />
      <ConfirmDialog
        open={pending !== null}
        title={asked?.title ?? ''}
        confirmLabel="Remove"
        onCancel={() => setPending(null)}
        onConfirm={() => {
          list.send({ type: 'list.act', action: 'remove', payload: { id: pending!.id } });
          setPending(null);
        }}
      >
        {asked?.text}
      </ConfirmDialog>
    </div>
  );
}

/** A table header cell and a body cell in the lists' look. */
export const Th = ({ children }: { children: ReactNode }) => (
  <th scope="col" className="px-4 py-2 text-left font-medium text-slate-600">
    {children}
  </th>
);
export const Td = ({ children }: { children: ReactNode }) => (
  <td className="px-4 py-2 align-top">{children}</td>
);
