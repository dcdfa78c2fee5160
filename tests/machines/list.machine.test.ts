import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor, type AnyActorRef } from 'xstate';
import type { ApiFailure } from '../../contract/envelope';
import type { Page } from '../../contract/pagination';
import {
  cursorTo,
  listMachine,
  type ListChange,
  type ListContext,
  type ListEvent,
  type ListAction,
  type ListInput,
  type ListQuery,
  type ListRow,
  type RowInput,
  rowKey,
} from '../../machines/list.machine';
import { createPathModel, matchCoverageFile, errorOf, type ReplayStep } from './paths';

const GENERIC = 'Something went wrong. Please try again.';

interface School {
  id: number;
  name: string;
}
const schools: Page<School> = {
  items: [
    { id: 1, name: 'Lagos School of Nursing' },
    { id: 2, name: 'Kano School of Midwifery' },
  ],
  page: 1,
  per_page: 20,
  total: 2,
  total_exact: true,
  has_more: false,
  next_cursor: null,
  prev_cursor: null,
};

const failures: unknown[] = [
  { status: 500, message: 'The portal answered 500. Please try again.', fields: {} } satisfies ApiFailure,
  new TypeError('Failed to fetch'),
];
const messageOf = (error: unknown) => (error instanceof Error ? GENERIC : (error as ApiFailure).message);

// Nothing given (page 1, no filters), a full query, rows with an actor of their own, and rows with one
// actor per status (a course header's two); no input at all and a partial one are in the examples.
const ROW_INPUT = { field: 'status' };
const ROW_INPUTS = {
  indexing: { field: 'indexing_status', confirmValues: ['closed'] },
  registration: { field: 'registration_status' },
};
const inputs: ListInput[] = [
  {},
  { page: 3, filters: { status: 'active' } },
  { rowInput: ROW_INPUT },
  { rowInputs: ROW_INPUTS },
];

/** The row inputs a list was given, by name, as the checks expect them ('' for `rowInput`). */
const expectedRowInputs = (input: ListInput | undefined): Record<string, Record<string, unknown>> => ({
  ...(input?.rowInput && { '': input.rowInput }),
  ...input?.rowInputs,
});

/** A row actor that only remembers what it was started with, so the checks can read it back. */
const rowStarts = new WeakMap<AnyActorRef, RowInput>();
const recordingRow = fromCallback<{ type: string }, RowInput>(({ self, input }) => {
  rowStarts.set(self, input);
});
/**
 * What makes two snapshots one vertex of the first model: the state, the query asked, and what the
 * transitions and checks read of the rest (the rows shown and whether they answer it, the failure).
 */
const vertexOf = (snapshot: { value: unknown; context: ListContext }) => {
  const { context } = snapshot;
  const shown = context.shownQuery;
  return JSON.stringify([
    snapshot.value,
    context.query,
    context.data !== null,
    shown === context.query,
    shown?.filters === context.query.filters && shown?.sort === context.query.sort,
    context.error,
    context.rowInputs,
    Object.keys(context.rows),
  ]);
};

/**
 * What makes two snapshots one vertex of the unsaved-work model: the state, and what its guards read
 * (rows shown, whether they answer the query, unsaved work, a change held). The query's exact values are
 * checked at every step all the same (checkList).
 */
const unsavedVertexOf = (snapshot: { value: unknown; context: ListContext }) => {
  const { context } = snapshot;
  return JSON.stringify([
    snapshot.value,
    context.data !== null,
    context.shownQuery === context.query,
    context.error !== null,
    context.unsaved,
    context.held !== null,
    Object.keys(context.rows).length > 0,
  ]);
};

const SORT = { by: 'name', direction: 'desc' } as const;
const events: ListEvent[] = [
  { type: 'list.page', page: 2 },
  { type: 'list.filter', filters: { search: 'Lagos' } },
  { type: 'list.sort', sort: SORT },
  { type: 'list.refresh' },
  { type: 'list.act', action: 'markRead', payload: { id: 1 } },
  { type: 'list.export' },
  // A row of the page reports unsaved work, then that it is saved.
  { type: 'list.row.dirty', id: 1 },
  { type: 'list.row.saved', id: 1 },
  { type: 'list.leave.confirm' },
  { type: 'list.leave.cancel' },
];

/** The query a change asks for after `context` (what the machine must do, said again plainly). */
function expectedQuery(context: ListContext, change: ListChange): ListQuery {
  const { filters, sort } = context.query;
  const withSort = sort ? { sort } : {};
  switch (change.type) {
    case 'list.page': {
      // The next page by keyset when the page shown gives a cursor, else by number; only a page shown
      // for the same filters and order leads on by its cursors.
      const same = context.shownQuery?.filters === filters && context.shownQuery?.sort === sort;
      const cursor = same ? cursorTo(context.data, change.page) : undefined;
      return { page: change.page, filters, ...withSort, ...(cursor && { cursor }) };
    }
    case 'list.filter':
      // New filters start again from the first page, in the same order.
      return { page: 1, filters: change.filters, ...withSort };
    case 'list.sort':
      return { page: 1, filters, sort: change.sort };
    case 'list.refresh':
      return context.query;
  }
}

const CHANGES = ['list.page', 'list.filter', 'list.sort', 'list.refresh'];

function checkList(replayed: ReplayStep<typeof listMachine>): void {
  const { step, snapshot, previous, calls, emitted, path } = replayed;
  const { context } = snapshot;
  const event = step.event;
  const at = `after ${event.type} in ${JSON.stringify(snapshot.value)}`;
  const pending = calls.filter((call) => call.status === 'pending');

  expect(snapshot.hasTag('loading'), at).toBe(snapshot.matches('loading'));
  expect(snapshot.hasTag('busy'), at).toBe(snapshot.matches('acting'));
  expect(snapshot.hasTag('exporting'), at).toBe(snapshot.matches('exporting'));
  expect(snapshot.hasTag('confirming'), at).toBe(snapshot.matches('askingToLeave'));
  // A row action's success says the server's sentence; nothing else is told.
  const told = (event as { output?: { message?: string } }).output?.message;
  expect(emitted, at).toEqual(
    event.type === 'xstate.done.actor.act' && told
      ? [{ type: 'notify', tone: 'success', message: told }]
      : [],
  );

  if (snapshot.matches('loading')) {
    // One request, for exactly the query the list shows; no failure left over while it runs.
    expect(pending, `${at}: requests in flight`).toHaveLength(1);
    expect(pending[0]).toMatchObject({ id: 'fetchPage', src: 'fetchPage' });
    expect(pending[0].input, at).toEqual(context.query);
    expect(context.error, at).toBeNull();
    // The rows already shown stay while the next page loads.
    if (previous) expect(context.data, at).toBe(previous.context.data);
  } else if (!snapshot.matches('acting') && !snapshot.matches('exporting')) {
    expect(pending, at).toEqual([]);
  }
  if (snapshot.matches('exporting')) {
    // Every row of the filters and order shown: the query from its first page, without a cursor.
    expect(pending, `${at}: requests in flight`).toHaveLength(1);
    expect(pending[0]).toMatchObject({ id: 'exportRows', src: 'exportRows' });
    const { filters, sort } = context.query;
    expect(pending[0].input, at).toEqual({ page: 1, filters, ...(sort && { sort }) });
    expect(context.data, at).toEqual(schools);
  }
  // Unsaved work: asked about before any change replaces the rows; forgotten with the rows.
  if (snapshot.matches('askingToLeave')) {
    expect(context.unsaved, at).not.toEqual([]);
    expect(context.held, at).not.toBeNull();
    expect(CHANGES).toContain(context.held!.type);
  } else {
    expect(context.held, at).toBeNull();
  }
  if (CHANGES.includes(event.type) && previous?.context.unsaved.length) {
    expect(snapshot.matches('askingToLeave'), `${at}: asks first`).toBe(true);
    expect(context.held, at).toEqual(event);
    expect(context.query, `${at}: nothing changes yet`).toBe(previous.context.query);
  }
  if (snapshot.matches('acting')) {
    // One action in flight, exactly as asked; the rows stay shown meanwhile.
    expect(pending, `${at}: requests in flight`).toHaveLength(1);
    expect(pending[0]).toMatchObject({ id: 'act', src: 'act' });
    expect(pending[0].input, at).toEqual({ action: 'markRead', payload: { id: 1 } });
    expect(context.data, at).toEqual(schools);
    expect(context.error, at).toBeNull();
  }
  if (snapshot.matches('loaded')) {
    expect(context.data, at).toEqual(schools);
    // Only a failed action or export leaves a message beside the rows.
    // (Staying on a page after a question keeps whatever it said.)
    const failedHere = ['xstate.error.actor.act', 'xstate.error.actor.exportRows', 'list.leave.cancel'];
    // A row's report of its work changes nothing else.
    const quiet = ['list.row.dirty', 'list.row.saved'].includes(event.type);
    if (quiet) expect(context.error, at).toBe(previous?.context.error);
    else if (!failedHere.includes(event.type)) expect(context.error, at).toBeNull();
  }
  if (snapshot.matches('failed')) expect(context.error, at).not.toBeNull();

  // Row actors: one per row shown and per row input, started with that input and its row, only when
  // asked for; a new page stops the old page's actors before it spawns its own.
  const rowRefs = Object.values(context.rows);
  const given = expectedRowInputs(path.input as ListInput | undefined);
  if (!Object.keys(given).length || !context.data) expect(rowRefs, at).toEqual([]);
  else {
    const expectedRows = context.data.items.flatMap((row) =>
      Object.entries(given).map(([name, rowInput]) => ({
        key: rowKey((row as School).id, name),
        input: { ...rowInput, row },
      })),
    );
    expect(Object.keys(context.rows), at).toEqual(expectedRows.map((row) => row.key));
    expectedRows.forEach(({ key, input }) => {
      expect(rowStarts.get(context.rows[key]), `${at}: ${key}`).toEqual(input);
      expect(context.rows[key].getSnapshot().status, at).toBe('active');
    });
    // Each actor is its own, even for two statuses of one row.
    expect(new Set(rowRefs).size, at).toBe(rowRefs.length);
  }
  if (event.type === 'xstate.done.actor.fetchPage') {
    Object.values(previous?.context.rows ?? {}).forEach((ref) => {
      expect(ref.getSnapshot().status, `${at}: the old page's rows`).toBe('stopped');
    });
  } else if (previous) {
    expect(context.rows, `${at}: rows only change with a page`).toBe(previous.context.rows);
  }

  if (CHANGES.includes(event.type) && previous && !previous.context.unsaved.length) {
    expect(context.query, at).toEqual(expectedQuery(previous.context, event as ListChange));
  }
  switch (event.type) {
    case 'xstate.init': {
      const input = path.input as ListInput | undefined;
      expect(context.query, at).toEqual({
        page: input?.page ?? 1,
        filters: input?.filters ?? {},
        ...(input?.sort && { sort: input.sort }),
      });
      expect([context.unsaved, context.held], at).toEqual([[], null]);
      expect(context.rowInputs, at).toEqual(
        input?.rowInput || input?.rowInputs ? expectedRowInputs(input) : null,
      );
      expect([context.data, context.error], at).toEqual([null, null]);
      break;
    }
    case 'list.row.dirty':
      expect(context.unsaved, at).toEqual(['1']);
      break;
    case 'list.row.saved':
      expect(context.unsaved, at).toEqual([]);
      if (previous?.matches('askingToLeave')) {
        // Nothing is left to lose: the change asked for is made without asking further.
        expect(snapshot.matches('loading'), at).toBe(true);
        expect(context.query, at).toEqual(expectedQuery(previous.context, previous.context.held!));
      }
      break;
    case 'list.leave.confirm':
      // The change asked for is made, and the unsaved work is let go.
      expect(context.query, at).toEqual(expectedQuery(previous!.context, previous!.context.held!));
      expect(context.unsaved, at).toEqual([]);
      break;
    case 'list.leave.cancel':
      // Nothing changes; the rows shown stay if they answer the query, else it is asked again.
      expect(context.query, at).toBe(previous?.context.query);
      expect(context.unsaved, at).toEqual(previous?.context.unsaved);
      expect(context.error, at).toBe(previous?.context.error);
      expect(snapshot.matches('loaded'), at).toBe(
        previous?.context.data !== null && previous?.context.shownQuery === previous?.context.query,
      );
      break;
    case 'xstate.error.actor.exportRows':
      expect(context.error, at).toBe(messageOf(errorOf(event)));
      break;
    case 'xstate.error.actor.act':
      expect(context.error, at).toBe(messageOf(errorOf(event)));
      expect(context.data, `${at}: rows kept`).toBe(previous?.context.data);
      break;
    case 'xstate.done.actor.act':
      // The rows changed on the server: the same page is asked for again.
      expect(context.query, at).toEqual(previous?.context.query);
      break;
    case 'xstate.error.actor.fetchPage':
      expect(context.error, at).toBe(messageOf(errorOf(event)));
      expect(context.data, `${at}: rows kept`).toBe(previous?.context.data);
      break;
    case 'xstate.done.actor.fetchPage':
      // The rows of a new page are new: no unsaved work of the old ones is theirs.
      expect(context.unsaved, at).toEqual([]);
      expect(context.shownQuery, at).toBe(context.query);
      break;
  }
  if (CHANGES.includes(event.type) && !previous?.context.unsaved.length && previous?.matches('loading')) {
    // A newer request replaces the one in flight: its answer can no longer land.
    expect(calls[calls.length - 2]?.status, `${at}: the replaced request`).toBe('stopped');
  }
  if (
    (CHANGES.includes(event.type) || event.type === 'list.act') &&
    snapshot.hasTag('loading') !== snapshot.hasTag('busy')
  ) {
    expect(calls[calls.length - 1].status, `${at}: a new request`).toBe('pending');
  }
}

// Two models of the one machine, so that neither grows past what a test run can walk: the first
// offers everything but unsaved work, with every edge, so each request is also replaced while in flight
// and retried after each failure; the second offers the changes and a row's unsaved work, so every way
// of asking, staying and leaving is walked. Together they take every state and transition.
const UNSAVED_EVENTS = ['list.row.dirty', 'list.row.saved', 'list.leave.confirm', 'list.leave.cancel'];

const model = createPathModel(listMachine, {
  inputs,
  events,
  withoutEvents: UNSAVED_EVENTS,
  outputs: { fetchPage: [schools], act: [{ message: 'Marked as read.' }, {}], exportRows: [undefined] },
  errors: { fetchPage: failures, act: failures, exportRows: failures },
  edges: 'all',
  actors: { row: recordingRow },
  serializeState: vertexOf,
  compareContext: (context) => JSON.parse(vertexOf({ value: null, context })),
  check: checkList,
});

const unsavedModel = createPathModel(listMachine, {
  inputs: [{}, { rowInput: ROW_INPUT }],
  events,
  withoutEvents: ['list.act', 'list.export'],
  // Rows are not acted on or exported here (the first model does that); the machine still names them.
  outputs: { fetchPage: [schools], act: [{}], exportRows: [undefined] },
  errors: { fetchPage: failures.slice(0, 1), act: failures.slice(0, 1), exportRows: failures.slice(0, 1) },
  actors: { row: recordingRow },
  serializeState: unsavedVertexOf,
  compareContext: (context) => JSON.parse(unsavedVertexOf({ value: null, context })),
  check: checkList,
});

describe('list machine: model-based paths', () => {
  it('covers every state and every transition, between its two models', () => {
    const both = [model.coverage(), unsavedModel.coverage()];
    const missing = {
      states: both[0].states.missing.filter((id) => both[1].states.missing.includes(id)),
      transitions: both[0].transitions.missing
        .filter((info) => both[1].transitions.missing.some((other) => other.key === info.key))
        .map((info) => info.label),
    };
    expect(missing).toEqual({ states: [], transitions: [] });
    expect(model.coverage().transitions.all.map((t) => t.label)).toContain(
      '#list --list.refresh--> #list.loading (branch 2 of 2)',
    );
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });

  it.each(unsavedModel.paths.map((path) => [path.name, path] as const))(
    'unsaved work: %s',
    async (_name, path) => {
      await unsavedModel.replay(path);
    },
  );
});

/** A list whose fetchPage answers each request by hand, in any order. */
function manualList(input?: Partial<ListQuery>) {
  const requests: Array<{
    query: ListQuery;
    resolve: (page: Page<School>) => void;
    reject: (e: unknown) => void;
  }> = [];
  const actor = createActor(
    listMachine.provide({
      actors: {
        fetchPage: fromPromise<Page<ListRow>, ListQuery>(
          ({ input: query }) => new Promise((resolve, reject) => requests.push({ query, resolve, reject })),
        ),
      },
    }),
    { input },
  ).start();
  return { actor, requests };
}

/** A page of a list paged by number (schools by name). */
const pageOf = (page: number, names: string[]): Page<School> => ({
  items: names.map((name, index) => ({ id: page * 100 + index, name })),
  page,
  per_page: 20,
  total: 40,
  total_exact: true,
  has_more: page < 2,
  next_cursor: null,
  prev_cursor: null,
});

/** A page of an id-ordered list, newest first, with its keyset cursors (the rows at its edges). */
const keyedPageOf = (page: number, names: string[]): Page<School> => {
  const items = names.map((name, index) => ({ id: 1000 - page * 100 - index, name }));
  return {
    ...pageOf(page, names),
    items,
    next_cursor: page < 2 ? items[items.length - 1].id : null,
    prev_cursor: page > 1 ? items[0].id : null,
  };
};

describe('list machine: examples', () => {
  it('shows page 1 unfiltered by default, then the page the user picks', async () => {
    const { actor, requests } = manualList();
    expect(requests[0].query).toEqual({ page: 1, filters: {} });
    requests[0].resolve(pageOf(1, ['Lagos']));
    await waitFor(actor, (s) => s.matches('loaded'));
    actor.send({ type: 'list.page', page: 2 });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    expect(requests[1].query).toEqual({ page: 2, filters: {} });
  });

  it('asks for the next and the previous page by keyset, and any other page by number', async () => {
    const { actor, requests } = manualList();
    requests[0].resolve(keyedPageOf(1, ['Lagos', 'Kano']));
    await waitFor(actor, (s) => s.matches('loaded'));
    actor.send({ type: 'list.page', page: 2 });
    expect(requests[1].query).toEqual({ page: 2, filters: {}, cursor: { after: 899 } });
    requests[1].resolve(keyedPageOf(2, ['Abuja', 'Enugu']));
    await waitFor(actor, (s) => s.matches('loaded'));
    // A refresh asks for the same rows again, by the same cursor.
    actor.send({ type: 'list.refresh' });
    expect(requests[2].query).toEqual(requests[1].query);
    requests[2].resolve(keyedPageOf(2, ['Abuja', 'Enugu']));
    await waitFor(actor, (s) => s.matches('loaded'));
    actor.send({ type: 'list.page', page: 3 });
    // Page 2 has no next cursor: page 3 by number.
    expect(requests[3].query).toEqual({ page: 3, filters: {} });
    expect('cursor' in requests[3].query).toBe(false);
    actor.send({ type: 'list.page', page: 1 });
    // The first page is always the newest rows, by number.
    expect('cursor' in requests[4].query).toBe(false);
  });

  it('gives no cursor of a page shown for other filters, when the new filters failed to load', async () => {
    const { actor, requests } = manualList();
    requests[0].resolve(keyedPageOf(1, ['Lagos', 'Kano']));
    await waitFor(actor, (s) => s.matches('loaded'));
    actor.send({ type: 'list.filter', filters: { search: 'Ab' } });
    requests[1].reject(new TypeError('Failed to fetch'));
    await waitFor(actor, (s) => s.matches('failed'));
    // The old page is still shown; its next cursor belongs to the unfiltered list.
    actor.send({ type: 'list.page', page: 2 });
    expect(requests[2].query).toEqual({ page: 2, filters: { search: 'Ab' } });
    expect('cursor' in requests[2].query).toBe(false);
  });

  it('steps back by keyset from a page that has a previous cursor', async () => {
    const { actor, requests } = manualList({ page: 3 });
    requests[0].resolve({ ...keyedPageOf(2, ['Abuja']), page: 3 });
    await waitFor(actor, (s) => s.matches('loaded'));
    actor.send({ type: 'list.page', page: 2 });
    expect(requests[1].query).toEqual({ page: 2, filters: {}, cursor: { before: 800 } });
  });

  it('takes what the route gives and fills in the rest; filtering starts again from page 1', () => {
    const { actor, requests } = manualList({ page: 4 });
    actor.send({ type: 'list.filter', filters: { search: 'Kano' } });
    expect(requests.map((request) => request.query)).toEqual([
      { page: 4, filters: {} },
      { page: 1, filters: { search: 'Kano' } },
    ]);
  });

  it('the answer to a replaced request is ignored, even when it arrives last', async () => {
    const { actor, requests } = manualList();
    actor.send({ type: 'list.page', page: 2 });
    actor.send({ type: 'list.page', page: 3 });
    requests[2].resolve(pageOf(3, ['Third']));
    await waitFor(actor, (s) => s.matches('loaded'));
    requests[1].resolve(pageOf(2, ['Second']));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().context.data).toEqual(pageOf(3, ['Third']));
    expect(actor.getSnapshot().context.query.page).toBe(3);
  });

  it('a failed page keeps the rows already shown; retrying clears the failure until it answers', async () => {
    const { actor, requests } = manualList();
    requests[0].resolve(pageOf(1, ['Lagos']));
    await waitFor(actor, (s) => s.matches('loaded'));
    actor.send({ type: 'list.page', page: 2 });
    requests[1].reject({
      status: 0,
      message: 'The network is unreachable.',
      fields: {},
    } satisfies ApiFailure);
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context).toMatchObject({
      error: 'The network is unreachable.',
      data: pageOf(1, ['Lagos']),
    });
    actor.send({ type: 'list.refresh' });
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(requests[2].query).toEqual({ page: 2, filters: {} });
    requests[2].resolve(pageOf(2, ['Kano']));
    const loaded = await waitFor(actor, (s) => s.matches('loaded'));
    expect(loaded.context).toMatchObject({ error: null, data: pageOf(2, ['Kano']) });
  });
});

describe('list machine: the address bar, unsaved work and what it tells', () => {
  it('shows each query it asks for (the view writes it into the address bar)', async () => {
    const shown: ListQuery[] = [];
    const requests: Array<(page: Page<ListRow>) => void> = [];
    const actor = createActor(
      listMachine.provide({
        actors: {
          fetchPage: fromPromise<Page<ListRow>, ListQuery>(
            () => new Promise((resolve) => requests.push(resolve)),
          ),
        },
        actions: { showQuery: (_, { query }) => shown.push(query) },
      }),
      { input: { page: 2, filters: { search: 'Ab' } } },
    ).start();
    requests[0](pageOf(2, ['Abuja']));
    await waitFor(actor, (s) => s.matches('loaded'));
    actor.send({ type: 'list.sort', sort: SORT });
    actor.send({ type: 'list.filter', filters: { search: 'Ka' } });
    expect(shown).toEqual([
      { page: 2, filters: { search: 'Ab' } },
      { page: 1, filters: { search: 'Ab' }, sort: SORT },
      { page: 1, filters: { search: 'Ka' }, sort: SORT },
    ]);
  });

  it('asks before a change replaces a row with unsaved work; staying keeps the rows, leaving makes it', async () => {
    const { actor, requests } = manualList();
    requests[0].resolve(pageOf(1, ['Lagos', 'Kano']));
    await waitFor(actor, (s) => s.matches('loaded'));
    actor.send({ type: 'list.row.dirty', id: 100 });
    actor.send({ type: 'list.page', page: 2 });
    expect(actor.getSnapshot().hasTag('confirming')).toBe(true);
    expect(requests).toHaveLength(1);
    actor.send({ type: 'list.leave.cancel' });
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
    expect(actor.getSnapshot().context.query.page).toBe(1);
    actor.send({ type: 'list.filter', filters: { search: 'Ab' } });
    actor.send({ type: 'list.leave.confirm' });
    expect(requests.map((request) => request.query)).toEqual([
      { page: 1, filters: {} },
      { page: 1, filters: { search: 'Ab' } },
    ]);
    expect(actor.getSnapshot().context.unsaved).toEqual([]);
  });

  it('says the server sentence of a row action that succeeded', async () => {
    const told: unknown[] = [];
    const pages: Array<(page: Page<ListRow>) => void> = [];
    const actor = createActor(
      listMachine.provide({
        actors: {
          fetchPage: fromPromise<Page<ListRow>, ListQuery>(
            () => new Promise((resolve) => pages.push(resolve)),
          ),
          act: fromPromise<{ message?: string }, ListAction>(async () => ({
            message: 'The offence is removed from the list.',
          })),
        },
      }),
      { input: {} },
    ).start();
    actor.on('notify', (event) => told.push(event));
    pages[0](pageOf(1, ['Lagos']));
    await waitFor(actor, (s) => s.matches('loaded'));
    actor.send({ type: 'list.act', action: 'remove', payload: { id: 100 } });
    await waitFor(actor, (s) => s.matches('loading'));
    expect(told).toEqual([
      { type: 'notify', tone: 'success', message: 'The offence is removed from the list.' },
    ]);
  });
});

describe('list machine: coverage file', () => {
  it('docs/statecharts/coverage/list.json is what its paths cover', () =>
    matchCoverageFile(model, unsavedModel));
});
