import { useSelector } from '@xstate/react';
import { useRef, type FormEvent, type ReactNode } from 'react';
import { sortDirectionLabel, type ListDefinition, type SortDirection } from '../../contract/lists';
import type { Page } from '../../contract/pagination';
import { ConfirmDialog } from './ConfirmDialog';
import { Alert, Button } from './controls';
import { Pagination } from './Pagination';
import { useScrollEdges } from './scrollEdges';
import type { ListRef } from './StatusToggle';

/**
 * A paged list over the list machine: its order and its CSV download, then loading, a failure with a
 * retry, or the page (the old one stays, marked busy, until the next one comes) with previous and
 * next; and the question a change of page, filter or order asks while a row holds unsaved work.
 */
export function ListView<Row>({
  list,
  definition,
  children,
}: {
  list: ListRef;
  definition: ListDefinition<Row>;
  children: (page: Page<Row>, busy: boolean) => ReactNode;
}) {
  const view = useSelector(list, (s) => ({
    // The page being replaced, or its rows being acted on.
    busy: s.hasTag('loading') || s.hasTag('busy'),
    exporting: s.hasTag('exporting'),
    canExport: s.matches('loaded'),
    asking: s.hasTag('confirming'),
    data: s.context.data as Page<Row> | null,
    error: s.context.error,
    sort: s.context.query.sort,
  }));
  const sorts = Object.entries(definition.sorts);
  const sort = view.sort ?? {
    by: definition.defaultSort,
    direction: definition.sorts[definition.defaultSort].direction,
  };
  const sortId = `sort-${definition.name}`;
  return (
    <>
      <div className="mb-3 flex flex-wrap items-end justify-end gap-3">
        {sorts.length > 1 && (
          <div className="w-56 max-w-full">
            <label htmlFor={sortId} className="block text-sm font-medium text-slate-700">
              Sort by
            </label>
            <select
              id={sortId}
              value={`${sort.by}:${sort.direction}`}
              onChange={(event) => {
                const [by, direction] = event.currentTarget.value.split(':') as [string, SortDirection];
                list.send({ type: 'list.sort', sort: { by, direction } });
              }}
              className="mt-1 w-full rounded-md border border-slate-300 px-2 py-2 text-sm"
            >
              {sorts.flatMap(([by, { label }]) =>
                (['asc', 'desc'] as const).map((direction) => (
                  <option key={`${by}:${direction}`} value={`${by}:${direction}`}>
                    {label}, {sortDirectionLabel(direction)}
                  </option>
                )),
              )}
            </select>
          </div>
        )}
        <Button
          variant="secondary"
          disabled={!view.canExport}
          aria-busy={view.exporting || undefined}
          onClick={() => list.send({ type: 'list.export' })}
        >
          {view.exporting ? 'Preparing the CSV…' : 'Download CSV'}
        </Button>
      </div>
      {view.error && (
        <div className="mb-3">
          <Alert tone="error">
            {view.error}{' '}
            <Button variant="link" onClick={() => list.send({ type: 'list.refresh' })}>
              Try again
            </Button>
          </Alert>
        </div>
      )}
      {view.data ? (
        <>
          {children(view.data, view.busy)}
          <Pagination
            data={view.data}
            busy={view.busy}
            onPage={(page) => list.send({ type: 'list.page', page })}
          />
        </>
      ) : (
        !view.error && <p className="text-slate-500">Loading…</p>
      )}
      <ConfirmDialog
        open={view.asking}
        title="Unsaved changes"
        confirmLabel="Leave them"
        onConfirm={() => list.send({ type: 'list.leave.confirm' })}
        onCancel={() => list.send({ type: 'list.leave.cancel' })}
      >
        <p>{UNSAVED_QUESTION}</p>
      </ConfirmDialog>
    </>
  );
}

/** What a change of page, filter or order asks while a row holds unsaved work. */
const UNSAVED_QUESTION = 'You have unsaved changes on this page. Leave them?';

/**
 * A list's table: its column heads, a line when nothing matches, then the rows. On a narrow screen a
 * wide table scrolls inside its own frame (the page never gets wider than the phone): a shadow at each
 * edge with more beyond it and a line under the table say so, and the last column (each list's row
 * action) stays in view at the right edge, so a row's action is reachable without scrolling. The frame
 * can be scrolled with the keyboard too (it takes focus when it scrolls).
 */
export function ListTable({
  head,
  busy,
  empty,
  isEmpty,
  children,
}: {
  head: ReactNode[];
  busy: boolean;
  /** What the table says when the page has no rows. */
  empty: string;
  isEmpty: boolean;
  children: ReactNode;
}) {
  const frame = useRef<HTMLDivElement>(null);
  const edges = useScrollEdges(frame);
  return (
    <div className="relative">
      <div
        ref={frame}
        aria-busy={busy || undefined}
        data-scrolls={edges.scrolls ? (edges.end ? 'end' : 'start') : undefined}
        tabIndex={edges.scrolls ? 0 : undefined}
        role={edges.scrolls ? 'region' : undefined}
        aria-label={edges.scrolls ? 'Table (scrolls sideways)' : undefined}
        // relative: the visually hidden labels in its cells (absolutely placed) scroll with it too, instead
        // of widening the page past a phone's screen.
        className="relative overflow-x-auto rounded-md bg-white ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <table
          className={`min-w-full divide-y divide-slate-200 text-sm ${
            edges.scrolls
              ? '[&_tbody_tr>td:last-child:not([colspan])]:bg-white [&_thead_tr>th:last-child]:bg-slate-50 [&_tr>*:last-child:not([colspan])]:sticky [&_tr>*:last-child:not([colspan])]:right-0 [&_tr>*:last-child:not([colspan])]:z-10'
              : ''
          } ${edges.end ? '[&_tr>*:last-child:not([colspan])]:shadow-[-10px_0_8px_-8px_rgba(15,23,42,0.3)]' : ''}`}
        >
          <thead className="bg-slate-50 text-left text-slate-600">
            <tr>
              {head.map((title, index) => (
                <th key={index} scope="col" className="px-4 py-2 font-medium">
                  {title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {isEmpty && (
              <tr>
                <td colSpan={head.length} className="px-4 py-6 text-center text-slate-500">
                  {empty}
                </td>
              </tr>
            )}
            {children}
          </tbody>
        </table>
      </div>
      {edges.start && (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-y-0 left-0 z-20 w-4 rounded-l-md bg-gradient-to-r from-slate-900/20 to-transparent"
        />
      )}
      {edges.scrolls && (
        <p className="mt-1 text-xs text-slate-500" data-testid="table-scroll-hint">
          {edges.end
            ? 'More columns to the right: scroll the table sideways.'
            : 'Scroll the table sideways for the first columns.'}
        </p>
      )}
    </div>
  );
}

/**
 * A list's search and filters: submitting asks for page 1 of the new query, with the fields that were
 * filled in, trimmed.
 */
export function SearchForm({
  onSearch,
  className,
  label,
  children,
}: {
  onSearch: (filters: Record<string, string>) => void;
  className: string;
  /** The search landmark's name, where a page has more than one form. */
  label?: string;
  children: ReactNode;
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const filters: Record<string, string> = {};
    new FormData(event.currentTarget).forEach((value, name) => {
      if (typeof value === 'string' && value.trim()) filters[name] = value.trim();
    });
    onSearch(filters);
  };
  return (
    <form role="search" aria-label={label} onSubmit={submit} className={className}>
      {children}
      <Button type="submit" variant="secondary">
        Search
      </Button>
    </form>
  );
}
