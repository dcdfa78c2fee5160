import {
  assign,
  enqueueActions,
  setup,
  type AnyActorLogic,
  type AnyActorRef,
  type EventObject,
} from 'xstate';
import type { Page } from '../contract/pagination';
import { asFailure } from './failure';
import { missingCallback, missingPromise } from './missing';

/**
 * The one small machine for a paged list that is fetched and shown: the page and the query it shows,
 * the rows, a failure with a retry, and one action on the rows at a time (mark as read, remove from the
 * list) after which the page is fetched again. A list whose rows have behaviour of their own (a status
 * changed in the row) spawns one `row` actor per row shown, or one per row and per named input when a
 * row has several (a course header's two statuses), and stops them when the page is replaced. Screens
 * with more behaviour have machines of their own.
 */
export interface ListQuery {
  page: number;
  /** Search text and filters, as the list's endpoint takes them. */
  filters: Record<string, string>;
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

/** What a `row` actor starts from. */
export type RowInput = { row: { id: number | string } } & Record<string, unknown>;

export interface ListContext {
  query: ListQuery;
  data: Page<unknown> | null;
  /** The filters `data` was asked with: its cursors lead on only while the query keeps them. */
  shownFilters: Record<string, string> | null;
  error: string | null;
  /** Each row's actors' inputs, by name: `rowInput` is the one named ''. Null: rows have no actors. */
  rowInputs: Record<string, Record<string, unknown>> | null;
  /** The row actors of the page shown, by rowKey. */
  rows: Record<string, AnyActorRef>;
}

export type ListEvent =
  | { type: 'list.page'; page: number }
  | { type: 'list.filter'; filters: Record<string, string> }
  | { type: 'list.refresh' }
  | { type: 'list.act'; action: string; payload: unknown };

/** What the `act` actor is asked to do: an action the screen names, on the rows the payload names. */
export interface ListAction {
  action: string;
  payload: unknown;
}

export const listMachine = setup({
  types: {
    input: {} as ListInput | undefined,
    context: {} as ListContext,
    events: {} as ListEvent,
  },
  actors: {
    fetchPage: missingPromise<Page<unknown>, ListQuery>('list', 'fetchPage'),
    act: missingPromise<{ message?: string }, ListAction>('list', 'act'),
    // Any logic that starts from a RowInput (the status toggle machine): typed loosely, so a screen hands
    // in its machine without a cast.
    row: missingCallback<EventObject, RowInput>('list', 'row') as AnyActorLogic,
  },
  actions: {
    /** The new page replaces the old: its rows' actors stop, and each new row gets one. */
    showPage: enqueueActions(({ context, event, enqueue }) => {
      const page = (event as unknown as { output: Page<{ id: number | string }> }).output;
      Object.values(context.rows).forEach((ref) => enqueue.stopChild(ref));
      enqueue.assign({
        data: page,
        shownFilters: ({ context }) => context.query.filters,
        error: null,
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
  },
}).createMachine({
  id: 'list',
  context: ({ input }) => ({
    query: { page: input?.page ?? 1, filters: input?.filters ?? {} },
    data: null,
    shownFilters: null,
    error: null,
    rowInputs:
      input?.rowInput || input?.rowInputs
        ? { ...(input.rowInput && { '': input.rowInput }), ...input.rowInputs }
        : null,
    rows: {},
  }),
  initial: 'loading',
  // Any of these, in any state, asks again; a newer request replaces the one in flight.
  on: {
    'list.page': {
      target: '.loading',
      actions: assign({
        query: ({ context, event }) => {
          const { filters } = context.query;
          // A page shown for other filters (the new ones failed to load) gives no cursor to these.
          const cursor = context.shownFilters === filters ? cursorTo(context.data, event.page) : undefined;
          return cursor ? { page: event.page, filters, cursor } : { page: event.page, filters };
        },
      }),
    },
    'list.filter': {
      target: '.loading',
      actions: assign({ query: ({ event }) => ({ page: 1, filters: event.filters }) }),
    },
    'list.refresh': { target: '.loading' },
  },
  states: {
    loading: {
      tags: ['loading'],
      // A new request clears the last failure (the rows already shown stay until the answer comes).
      entry: assign({ error: null }),
      invoke: {
        id: 'fetchPage',
        src: 'fetchPage',
        input: ({ context }) => context.query,
        onDone: { target: 'loaded', actions: 'showPage' },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => asFailure(event.error).message }),
        },
      },
    },
    loaded: {
      on: { 'list.act': { target: 'acting', actions: assign({ error: null }) } },
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
        // The rows changed on the server: show them as they are now.
        onDone: { target: 'loading' },
        // The rows did not change; they stay, with the reason beside them.
        onError: {
          target: 'loaded',
          actions: assign({ error: ({ event }) => asFailure(event.error).message }),
        },
      },
    },
    failed: {},
  },
});
