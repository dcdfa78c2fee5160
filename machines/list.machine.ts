import {
  assign,
  enqueueActions,
  not,
  setup,
  type AnyActorLogic,
  type AnyActorRef,
  type EventObject,
} from 'xstate';
import type { SortDirection } from '../contract/lists';
import type { Page } from '../contract/pagination';
import { asFailure } from './failure';
import { missingCallback, missingPromise } from './missing';
import type { NotifyEmitted } from './notify';

/**
 * The one machine of every paged list (contract/lists.ts defines the lists, src/pages/pagedList.tsx (useList)
 * mounts them): the page, filters and order it shows, the rows, a failure with a retry, one action on
 * the rows at a time (mark as read, remove from the list) after which the page is fetched again and
 * the server's sentence is told, and the CSV export of the rows it filters. A list whose rows have
 * behaviour of their own (a status changed in the row) spawns one `row` actor per row shown, or one
 * per row and per named input when a row has several (a course header's two statuses), and stops them
 * when the page is replaced. While a row reports unsaved work (`list.row.dirty`), a change of page,
 * filter or order first asks the user whether to leave it.
 */
export interface ListQuery {
  page: number;
  /** Search text and filters, as the list's endpoint takes them. */
  filters: Record<string, string>;
  /** The order asked for; absent: the list's default. */
  sort?: { by: string; direction: SortDirection };
  /**
   * The page next to the one shown, by keyset (`?after=` or `?before=` the row at its edge), so a deep
   * page costs the server what the first does. Absent: the page by number.
   */
  cursor?: PageCursor;
}

export type PageCursor = { after: number } | { before: number };

/** The cursor to `page` from the page shown, when the list gives cursors and `page` is next to it. */
export function cursorTo(shown: Page<unknown> | null, page: number): PageCursor | undefined {
  if (!shown || page <= 1) return undefined;
  if (page === shown.page + 1 && shown.next_cursor !== null) return { after: shown.next_cursor };
  if (page === shown.page - 1 && shown.prev_cursor !== null) return { before: shown.prev_cursor };
  return undefined;
}

export interface ListInput extends Partial<ListQuery> {
  /** Given, each row shown gets a `row` actor, spawned with this and `row` (the row) as its input. */
  rowInput?: Record<string, unknown>;
  /** Given, each row shown gets one `row` actor per entry, spawned with the entry and `row`. */
  rowInputs?: Record<string, Record<string, unknown>>;
}

/**
 * Where a row's actor is in `rows`: by the row's id, or by id and the name of its `rowInputs` entry.
 * A row with one actor (`rowInput`) is found by its id alone, as before.
 */
export const rowKey = (id: number | string, name = '') => (name ? `${id}/${name}` : String(id));

/** What every list row has: its id. */
export type ListRow = { id: number | string };

/** What a `row` actor starts from. */
export type RowInput = { row: ListRow } & Record<string, unknown>;

export interface ListContext<Row extends ListRow = ListRow> {
  query: ListQuery;
  data: Page<Row> | null;
  /** The query `data` was asked with: its cursors lead on only while the query keeps its filters and order. */
  shownQuery: ListQuery | null;
  error: string | null;
  /** Each row's actors' inputs, by name: `rowInput` is the one named ''. Null: rows have no actors. */
  rowInputs: Record<string, Record<string, unknown>> | null;
  /** The row actors of the page shown, by rowKey. */
  rows: Record<string, AnyActorRef>;
  /** The ids (as text) of the rows shown that hold work not yet saved. */
  unsaved: string[];
  /** The change of page, filter or order waiting for the user's answer (`askingToLeave`). */
  held: ListChange | null;
}

/** What replaces the rows shown: another page, other filters, another order, or the same again. */
export type ListChange =
  | { type: 'list.page'; page: number }
  | { type: 'list.filter'; filters: Record<string, string> }
  | { type: 'list.sort'; sort: { by: string; direction: SortDirection } }
  | { type: 'list.refresh' };

export type ListEvent =
  | ListChange
  | { type: 'list.act'; action: string; payload: unknown }
  | { type: 'list.export' }
  | { type: 'list.row.dirty'; id: number | string }
  | { type: 'list.row.saved'; id: number | string }
  | { type: 'list.leave.confirm' }
  | { type: 'list.leave.cancel' };

/** What the `act` actor is asked to do: an action the screen names, on the rows the payload names. */
export interface ListAction {
  action: string;
  payload: unknown;
}

/** The query a change asks for, from the one shown. */
function queryAfter<Row extends ListRow>(context: ListContext<Row>, change: ListChange): ListQuery {
  const { filters, sort } = context.query;
  const ordered = <Q extends ListQuery>(query: Q): Q => (sort ? { ...query, sort } : query);
  switch (change.type) {
    case 'list.page': {
      // A page shown for other filters or another order (the new ones failed to load) gives no cursor.
      const shown = context.shownQuery;
      const same = shown?.filters === filters && shown?.sort === sort;
      const cursor = same ? cursorTo(context.data, change.page) : undefined;
      return ordered(cursor ? { page: change.page, filters, cursor } : { page: change.page, filters });
    }
    case 'list.filter':
      return ordered({ page: 1, filters: change.filters });
    case 'list.sort':
      return { page: 1, filters, sort: change.sort };
    case 'list.refresh':
      return context.query;
  }
}

/** The list machine of rows of type `Row` (one definition; the type only tells views what rows hold). */
export function createListMachine<Row extends ListRow = ListRow>() {
  return setup({
    types: {
      input: {} as ListInput | undefined,
      context: {} as ListContext<Row>,
      events: {} as ListEvent,
      emitted: {} as NotifyEmitted,
    },
    actors: {
      fetchPage: missingPromise<Page<Row>, ListQuery>('list', 'fetchPage'),
      act: missingPromise<{ message?: string }, ListAction>('list', 'act'),
      exportRows: missingPromise<void, ListQuery>('list', 'exportRows'),
      // Any logic that starts from a RowInput (the status toggle machine): typed loosely, so a screen
      // hands in its machine without a cast.
      row: missingCallback<EventObject, RowInput>('list', 'row') as AnyActorLogic,
    },
    guards: {
      /** A row shown holds work not yet saved: leaving the page would lose it. */
      hasUnsaved: ({ context }) => context.unsaved.length > 0,
      /** The rows shown are the answer to the query (nothing was asked since). */
      showsQuery: ({ context }) => context.data !== null && context.shownQuery === context.query,
    },
    actions: {
      /** Tells the address bar (or whoever shows it) the query asked; the view hands it in. */
      showQuery: (_, _params: { query: ListQuery }) => {},
      change: assign({ query: ({ context, event }) => queryAfter(context, event as ListChange) }),
      hold: assign({ held: ({ event }) => event as ListChange }),
      /** The user chose to leave the unsaved work: the change they asked for is made. */
      leave: assign(({ context }) => ({
        query: queryAfter(context, context.held!),
        held: null,
        unsaved: [],
      })),
      /** The new page replaces the old: its rows' actors stop, and each new row gets one. */
      showPage: enqueueActions(({ context, event, enqueue }) => {
        const page = (event as unknown as { output: Page<Row> }).output;
        Object.values(context.rows).forEach((ref) => enqueue.stopChild(ref));
        enqueue.assign({
          data: page,
          shownQuery: ({ context }) => context.query,
          error: null,
          unsaved: [],
          rows: ({ context, spawn }) =>
            Object.fromEntries(
              page.items.flatMap((row) =>
                Object.entries(context.rowInputs ?? {}).map(([name, rowInput]) => [
                  rowKey(row.id, name),
                  spawn('row', { input: { ...rowInput, row } as RowInput }),
                ]),
              ),
            ),
        });
      }),
      failed: assign({ error: ({ event }) => asFailure((event as { error?: unknown }).error).message }),
    },
  }).createMachine({
    id: 'list',
    context: ({ input }) => ({
      query: {
        page: input?.page ?? 1,
        filters: input?.filters ?? {},
        ...(input?.sort && { sort: input.sort }),
      },
      data: null,
      shownQuery: null,
      error: null,
      rowInputs:
        input?.rowInput || input?.rowInputs
          ? { ...(input.rowInput && { '': input.rowInput }), ...input.rowInputs }
          : null,
      rows: {},
      unsaved: [],
      held: null,
    }),
    initial: 'loading',
    // Any change, in any state, asks again (a newer request replaces the one in flight), unless a row
    // holds unsaved work: then the user is asked first.
    on: {
      'list.page': [
        { guard: 'hasUnsaved', target: '.askingToLeave', actions: 'hold' },
        { target: '.loading', actions: 'change' },
      ],
      'list.filter': [
        { guard: 'hasUnsaved', target: '.askingToLeave', actions: 'hold' },
        { target: '.loading', actions: 'change' },
      ],
      'list.sort': [
        { guard: 'hasUnsaved', target: '.askingToLeave', actions: 'hold' },
        { target: '.loading', actions: 'change' },
      ],
      'list.refresh': [
        { guard: 'hasUnsaved', target: '.askingToLeave', actions: 'hold' },
        { target: '.loading' },
      ],
      'list.row.dirty': {
        actions: assign({
          unsaved: ({ context, event }) =>
            context.unsaved.includes(String(event.id))
              ? context.unsaved
              : [...context.unsaved, String(event.id)],
        }),
      },
      'list.row.saved': {
        actions: assign({
          unsaved: ({ context, event }) => context.unsaved.filter((id) => id !== String(event.id)),
        }),
      },
    },
    states: {
      loading: {
        tags: ['loading'],
        // A new request clears the last failure (the rows already shown stay until the answer comes).
        entry: [
          assign({ error: null }),
          { type: 'showQuery', params: ({ context }) => ({ query: context.query }) },
        ],
        invoke: {
          id: 'fetchPage',
          src: 'fetchPage',
          input: ({ context }) => context.query,
          onDone: { target: 'loaded', actions: 'showPage' },
          onError: { target: 'failed', actions: 'failed' },
        },
      },
      loaded: {
        on: {
          'list.act': { target: 'acting', actions: assign({ error: null }) },
          'list.export': { target: 'exporting', actions: assign({ error: null }) },
        },
      },
      acting: {
        tags: ['busy'],
        invoke: {
          id: 'act',
          src: 'act',
          input: ({ event }) => {
            const { action, payload } = event as Extract<ListEvent, { type: 'list.act' }>;
            return { action, payload };
          },
          // The rows changed on the server: show them as they are now, and say what was done (a row
          // that simply vanishes says nothing to someone who cannot see it go).
          onDone: {
            target: 'loading',
            actions: enqueueActions(({ event, enqueue }) => {
              const message = event.output?.message;
              if (message) enqueue.emit({ type: 'notify', tone: 'success', message });
            }),
          },
          // The rows did not change; they stay, with the reason beside them.
          onError: { target: 'loaded', actions: 'failed' },
        },
      },
      exporting: {
        tags: ['exporting'],
        invoke: {
          id: 'exportRows',
          src: 'exportRows',
          // Every row of the filters and order shown, not only the page.
          input: ({ context }) => ({
            page: 1,
            filters: context.query.filters,
            ...(context.query.sort && { sort: context.query.sort }),
          }),
          onDone: { target: 'loaded' },
          onError: { target: 'loaded', actions: 'failed' },
        },
      },
      failed: {},
      askingToLeave: {
        tags: ['confirming'],
        // The row saved its work meanwhile: nothing is left to lose, so the change asked for is made.
        always: { guard: not('hasUnsaved'), target: 'loading', actions: 'leave' },
        on: {
          'list.leave.confirm': { target: 'loading', actions: 'leave' },
          // Staying: the rows shown stay (with the failure beside them, if there was one), or the query
          // they answer is asked again if it was replaced.
          'list.leave.cancel': [
            { guard: 'showsQuery', target: 'loaded', actions: assign({ held: null }) },
            { target: 'loading', actions: assign({ held: null }) },
          ],
        },
      },
    },
  });
}

export const listMachine = createListMachine();
