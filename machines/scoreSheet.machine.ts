import { assign, emit, enqueueActions, setup, type AnyActorRef } from 'xstate';
import type { ApiFailure } from '../contract/envelope';
import {
  QUESTIONS,
  SCORE_MESSAGES,
  SEMESTERS,
  type Grid,
  type GridPage,
  type InCourseRow,
  type MarkRow,
  type SheetRow,
  type SheetState,
} from '../contract/scores';
import { asFailure } from './failure';
import { markRowMachine, type RowValues } from './markRow.machine';
import { missingPromise } from './missing';
import type { NotifyEmitted } from './notify';

/**
 * One open score sheet, as one marker's grid shows it (one actor per sheet and grid, kept outside the
 * page so a marker who goes elsewhere and comes back finds it as they left it, its saves finished). Its
 * states are the sheet's life (contract SHEET_STATES): open; marker one submitted; marker two
 * submitted; reconciling (both submitted: flagged scripts go to the third marker); locked; published.
 * A marker submits their grid (only once every row is saved), the board locks a reconciled sheet or
 * unlocks a locked one with a reason; submitting and locking each ask first (confirmingSubmit,
 * confirmingLock) and go ahead only on the user's yes. Each row of the page is its own actor (machines/markRow.machine.ts)
 * when the grid can be changed; a row holding unsaved marks makes a change of page ask first. A reason
 * given for changes after submission goes to every row.
 */

export interface ScoreSheetInput {
  sheetId: number;
  grid: Grid;
  page?: number;
}

export interface ScoreSheetContext {
  sheetId: number;
  grid: Grid;
  page: number;
  data: GridPage<MarkRow | InCourseRow> | null;
  /** The row actors of the page shown, by candidate id. */
  rows: Record<string, AnyActorRef>;
  /** Candidates whose rows hold marks not saved yet. */
  unsaved: number[];
  /**
   * Rows saved since the sheet was opened: a view of the sheet read from the server (the third marker's
   * table of flagged scripts and their final marks) reads again when it moves, without a reload.
   */
  saves: number;
  /** The page asked for while rows were unsaved, waiting for the marker's answer. */
  heldPage: number | null;
  reason: string | null;
  error: ApiFailure | null;
}

export type ScoreSheetEvent =
  | { type: 'sheet.page'; page: number }
  | { type: 'sheet.reload' }
  | { type: 'sheet.retry' }
  | { type: 'sheet.leave.confirm' }
  | { type: 'sheet.leave.cancel' }
  | { type: 'sheet.submit' }
  | { type: 'sheet.submit.confirm' }
  | { type: 'sheet.submit.cancel' }
  | { type: 'sheet.lock' }
  | { type: 'sheet.lock.confirm' }
  | { type: 'sheet.lock.cancel' }
  | { type: 'sheet.unlock'; reason: string }
  | { type: 'sheet.reason'; reason: string }
  | { type: 'sheet.row.dirty'; id: number }
  | { type: 'sheet.row.saved'; id: number };

/** A grid's editable fields and their maxima (tenths): q1 to q5 and absent, or the three semesters. */
export function fieldsOf(page: GridPage<MarkRow | InCourseRow>): {
  fields: string[];
  limits: Record<string, number>;
} {
  if (page.grid === 'in-course') {
    return { fields: [...SEMESTERS], limits: Object.fromEntries(SEMESTERS.map((s) => [s, 1000])) };
  }
  const max = page.rules?.q_max ?? [];
  return {
    fields: [...QUESTIONS, 'absent'],
    limits: Object.fromEntries(QUESTIONS.map((q, i) => [q, max[i] ?? 0])),
  };
}

/** A row's values by field, as the row actor keeps them. */
export function valuesOf(row: MarkRow | InCourseRow, fields: string[]): RowValues {
  const record = row as unknown as Record<string, string | boolean>;
  return Object.fromEntries(fields.map((field) => [field, record[field] ?? '']));
}

const STATE_OF: Record<SheetState, string> = {
  open: 'open',
  marker_one_submitted: 'markerOneSubmitted',
  marker_two_submitted: 'markerTwoSubmitted',
  reconciling: 'reconciling',
  locked: 'locked',
  published: 'published',
};

export const scoreSheetMachine = setup({
  types: {
    input: {} as ScoreSheetInput,
    context: {} as ScoreSheetContext,
    events: {} as ScoreSheetEvent,
    emitted: {} as NotifyEmitted,
  },
  actors: {
    loadGrid: missingPromise<GridPage<MarkRow | InCourseRow>, { sheetId: number; grid: Grid; page: number }>(
      'scoreSheet',
      'loadGrid',
    ),
    submitGrid: missingPromise<{ sheet: SheetRow; message?: string }, { sheetId: number; grid: Grid }>(
      'scoreSheet',
      'submitGrid',
    ),
    lockSheet: missingPromise<{ sheet: SheetRow; message?: string }, { sheetId: number }>(
      'scoreSheet',
      'lockSheet',
    ),
    unlockSheet: missingPromise<{ sheet: SheetRow; message?: string }, { sheetId: number; reason: string }>(
      'scoreSheet',
      'unlockSheet',
    ),
    markRow: markRowMachine,
  },
  guards: {
    inState: ({ context }, params: { state: SheetState }) => context.data?.sheet.state === params.state,
    hasUnsaved: ({ context }) => context.unsaved.length > 0,
    inCourse: ({ context }) => context.grid === 'in-course',
    lastUnsaved: ({ context, event }) =>
      context.unsaved.every(
        (id) => id === (event as Extract<ScoreSheetEvent, { type: 'sheet.row.saved' }>).id,
      ),
    // A marker submits their own grid, once; and the marks on it are all saved.
    maySubmit: ({ context }) => {
      const state = context.data?.sheet.state;
      const own = context.data?.editable === true;
      if (context.grid === 'one') return own && (state === 'open' || state === 'marker_two_submitted');
      if (context.grid === 'two') return own && (state === 'open' || state === 'marker_one_submitted');
      return false;
    },
  },
  actions: {
    showPage: enqueueActions(({ context, event, enqueue }) => {
      const page = (event as unknown as { output: GridPage<MarkRow | InCourseRow> }).output;
      Object.values(context.rows).forEach((ref) => enqueue.stopChild(ref));
      const { fields, limits } = fieldsOf(page);
      enqueue.assign({
        data: page,
        page: page.page,
        error: null,
        unsaved: [],
        heldPage: null,
        // Rows have actors only where the marker may change them.
        rows: ({ spawn, self }) =>
          page.editable
            ? Object.fromEntries(
                page.rows.map((row) => [
                  String(row.candidate_id),
                  spawn('markRow', {
                    id: `row-${row.candidate_id}`,
                    input: {
                      sheetId: page.sheet.id,
                      grid: page.grid,
                      candidateId: row.candidate_id,
                      values: valuesOf(row, fields),
                      version: row.version,
                      limits,
                      sheet: self,
                      reason: context.reason,
                    },
                  }),
                ]),
              )
            : {},
      });
    }),
    forgetSaved: assign({
      unsaved: ({ context, event }) =>
        context.unsaved.filter(
          (id) => id !== (event as Extract<ScoreSheetEvent, { type: 'sheet.row.saved' }>).id,
        ),
      saves: ({ context }) => context.saves + 1,
    }),
    tellDone: emit(({ event }) => ({
      type: 'notify' as const,
      tone: 'success' as const,
      message: (event as unknown as { output: { message?: string } }).output.message ?? 'Saved',
    })),
    failed: assign({ error: ({ event }) => asFailure((event as { error?: unknown }).error) }),
    tellFailure: emit(({ event }) => ({
      type: 'notify' as const,
      tone: 'error' as const,
      message: asFailure((event as { error?: unknown }).error).message,
    })),
    tellUnsaved: emit({ type: 'notify', tone: 'error', message: SCORE_MESSAGES.unsavedFirst }),
  },
}).createMachine({
  id: 'scoreSheet',
  context: ({ input }) => ({
    sheetId: input.sheetId,
    grid: input.grid,
    page: input.page ?? 1,
    data: null,
    rows: {},
    unsaved: [],
    saves: 0,
    heldPage: null,
    reason: null,
    error: null,
  }),
  initial: 'loading',
  on: {
    'sheet.row.dirty': {
      actions: assign({
        unsaved: ({ context, event }) =>
          context.unsaved.includes(event.id) ? context.unsaved : [...context.unsaved, event.id],
      }),
    },
    'sheet.row.saved': { actions: 'forgetSaved' },
    // The reason for changes after submission: kept, and given to every row for its next save.
    'sheet.reason': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        enqueue.assign({ reason: event.reason });
        Object.values(context.rows).forEach((ref) =>
          enqueue.sendTo(ref, { type: 'row.reason', reason: event.reason }),
        );
      }),
    },
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadGrid',
        src: 'loadGrid',
        input: ({ context }) => ({ sheetId: context.sheetId, grid: context.grid, page: context.page }),
        onDone: { target: 'shown', actions: 'showPage' },
        onError: { target: 'loadFailed', actions: 'failed' },
      },
    },
    loadFailed: {
      on: { 'sheet.retry': 'loading' },
    },
    shown: {
      initial: 'routing',
      on: {
        'sheet.page': [
          {
            guard: 'hasUnsaved',
            target: '.askingToLeave',
            actions: assign({ heldPage: ({ event }) => event.page }),
          },
          { target: 'loading', actions: assign({ page: ({ event }) => event.page }) },
        ],
        'sheet.reload': [
          {
            guard: 'hasUnsaved',
            target: '.askingToLeave',
            actions: assign({ heldPage: ({ context }) => context.page }),
          },
          { target: 'loading' },
        ],
      },
      states: {
        // Where the sheet is in its life, as the server last said.
        routing: {
          always: (Object.keys(STATE_OF) as SheetState[]).map((state) => ({
            guard: { type: 'inState' as const, params: { state } },
            target: STATE_OF[state],
          })),
        },
        open: {
          on: {
            'sheet.submit': [
              { guard: 'hasUnsaved', actions: 'tellUnsaved' },
              { guard: 'maySubmit', target: 'confirmingSubmit' },
            ],
            // An in-course sheet locks from open.
            'sheet.lock': { guard: 'inCourse', target: 'confirmingLock' },
          },
        },
        markerOneSubmitted: {
          on: {
            'sheet.submit': [
              { guard: 'hasUnsaved', actions: 'tellUnsaved' },
              { guard: 'maySubmit', target: 'confirmingSubmit' },
            ],
          },
        },
        markerTwoSubmitted: {
          on: {
            'sheet.submit': [
              { guard: 'hasUnsaved', actions: 'tellUnsaved' },
              { guard: 'maySubmit', target: 'confirmingSubmit' },
            ],
          },
        },
        reconciling: {
          on: { 'sheet.lock': 'confirmingLock' },
        },
        locked: {
          on: { 'sheet.unlock': '#scoreSheet.unlocking' },
        },
        published: {},
        // Submitting and locking ask first, saying what will happen (the view words it from the sheet).
        confirmingSubmit: {
          on: {
            'sheet.submit.confirm': [
              // A row changed meanwhile: nothing is submitted with marks not saved yet.
              { guard: 'hasUnsaved', target: 'routing', actions: 'tellUnsaved' },
              { target: '#scoreSheet.submitting' },
            ],
            'sheet.submit.cancel': 'routing',
          },
        },
        confirmingLock: {
          on: {
            'sheet.lock.confirm': '#scoreSheet.locking',
            'sheet.lock.cancel': 'routing',
          },
        },
        askingToLeave: {
          on: {
            // The last unsaved row saved meanwhile: nothing is left to lose, so the page changes.
            'sheet.row.saved': [
              {
                guard: 'lastUnsaved',
                target: '#scoreSheet.loading',
                actions: assign({
                  unsaved: [],
                  saves: ({ context }) => context.saves + 1,
                  page: ({ context }) => context.heldPage ?? context.page,
                }),
              },
              { actions: 'forgetSaved' },
            ],
            'sheet.leave.confirm': {
              target: '#scoreSheet.loading',
              actions: assign({ page: ({ context }) => context.heldPage ?? context.page }),
            },
            'sheet.leave.cancel': { target: 'routing', actions: assign({ heldPage: null }) },
          },
        },
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'submitGrid',
        src: 'submitGrid',
        input: ({ context }) => ({ sheetId: context.sheetId, grid: context.grid }),
        onDone: { target: 'loading', actions: 'tellDone' },
        onError: { target: 'shown', actions: ['failed', 'tellFailure'] },
      },
    },
    locking: {
      tags: ['busy'],
      invoke: {
        id: 'lockSheet',
        src: 'lockSheet',
        input: ({ context }) => ({ sheetId: context.sheetId }),
        onDone: { target: 'loading', actions: 'tellDone' },
        onError: { target: 'shown', actions: ['failed', 'tellFailure'] },
      },
    },
    unlocking: {
      tags: ['busy'],
      invoke: {
        id: 'unlockSheet',
        src: 'unlockSheet',
        input: ({ context, event }) => ({
          sheetId: context.sheetId,
          reason: (event as Extract<ScoreSheetEvent, { type: 'sheet.unlock' }>).reason,
        }),
        onDone: { target: 'loading', actions: 'tellDone' },
        onError: { target: 'shown', actions: ['failed', 'tellFailure'] },
      },
    },
  },
});
