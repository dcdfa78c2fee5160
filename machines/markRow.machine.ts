import { assign, enqueueActions, setup, type AnyActorRef, type SnapshotFrom } from 'xstate';
import type { ApiFailure } from '../contract/envelope';
import { SCORE_MESSAGES, formatMark, parseMark, type Grid } from '../contract/scores';
import { asFailure } from './failure';
import { missingPromise } from './missing';

/**
 * One candidate's row of a score grid, spawned by its sheet (machines/scoreSheet.machine.ts): what is
 * saved and what is typed, saved in the background a moment after the last keystroke (or at once when
 * the marker leaves the row). Each mark is checked as it is typed against its question's maximum; a row
 * with a mark out of range is not sent. The save carries the version the row was loaded at: a row
 * changed elsewhere meanwhile comes back as a conflict showing both, and the marker keeps one. A lost
 * connection is retried after a named delay; nothing typed is dropped. The row tells its sheet when it
 * holds work not yet saved and when that is saved, so the sheet can ask before leaving the page.
 */

export const SAVE_AFTER_MS = 800;
export const RETRY_SAVE_MS = 5_000;

/** A row's values by field: marks as typed ('12.5'), and absent (a boolean) in a marker's grid. */
export type RowValues = Record<string, string | boolean>;

export interface MarkRowInput {
  sheetId: number;
  grid: Grid;
  candidateId: number;
  /** The row as loaded: its fields' values and version. */
  values: RowValues;
  version: number;
  /** Each mark field's maximum, in tenths ('absent' has none). */
  limits: Record<string, number>;
  /** The sheet that hears of unsaved work (none in a test of the row alone). */
  sheet?: AnyActorRef;
  /** The reason a change needs after its grid was submitted (null: none needed or none given yet). */
  reason?: string | null;
}

/** What a row's save sends: its values as typed, the version it was loaded at, the reason if one is due. */
export interface SaveRowInput {
  sheetId: number;
  grid: Grid;
  candidateId: number;
  values: RowValues;
  version: number;
  reason: string | null;
}

export interface SavedRow {
  values: RowValues;
  version: number;
}

export interface MarkRowContext extends Omit<MarkRowInput, 'values'> {
  saved: RowValues;
  draft: RowValues;
  /** Each field's sentence: as typed, or the server's. */
  errors: Record<string, string>;
  /** What the server holds now, when the row changed elsewhere since it was loaded. */
  theirs: SavedRow | null;
  /** Typed while a save was on its way: saved again after it. */
  editedWhileSaving: boolean;
  failure: ApiFailure | null;
  reason: string | null;
}

export type MarkRowEvent =
  | { type: 'row.edit'; field: string; value: string | boolean }
  /** The marker leaves the row (Enter, Tab past its last cell, another row): save now. */
  | { type: 'row.commit' }
  | { type: 'row.retry' }
  | { type: 'row.keepMine' }
  | { type: 'row.keepTheirs' }
  | { type: 'row.reason'; reason: string | null };

/** The sentence of a value as typed against its maximum (null: fine). */
function fieldProblem(value: string | boolean, limit: number | undefined): string | null {
  if (typeof value === 'boolean' || limit === undefined) return null;
  const tenths = parseMark(value);
  if (tenths === undefined) return SCORE_MESSAGES.markInvalid;
  if (tenths !== null && tenths > limit) return SCORE_MESSAGES.markTooHigh(formatMark(limit));
  return null;
}

const problemsOf = (draft: RowValues, limits: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(draft)
      .map(([field, value]) => [field, fieldProblem(value, limits[field])] as const)
      .filter((entry): entry is readonly [string, string] => entry[1] !== null),
  );

const sameValues = (a: RowValues, b: RowValues) =>
  Object.keys({ ...a, ...b }).every((key) => String(a[key] ?? '') === String(b[key] ?? ''));

/** A 409 from the save, with the row the server holds now. */
const conflictOf = (error: unknown): SavedRow | null => {
  const failure = asFailure(error) as ApiFailure & { data?: { current?: SavedRow } };
  return failure.status === 409 && failure.data?.current ? failure.data.current : null;
};

export const markRowMachine = setup({
  types: {
    input: {} as MarkRowInput,
    context: {} as MarkRowContext,
    events: {} as MarkRowEvent,
  },
  actors: {
    saveRow: missingPromise<
      SavedRow,
      {
        sheetId: number;
        grid: Grid;
        candidateId: number;
        values: RowValues;
        version: number;
        reason: string | null;
      }
    >('markRow', 'saveRow'),
  },
  delays: {
    saveAfter: SAVE_AFTER_MS,
    retrySave: RETRY_SAVE_MS,
  },
  guards: {
    typedFine: ({ context }) => Object.keys(problemsOf(context.draft, context.limits)).length === 0,
    unchanged: ({ context }) => sameValues(context.draft, context.saved),
    editedWhileSaving: ({ context }) => context.editedWhileSaving,
    isConflict: ({ event }) => conflictOf((event as { error?: unknown }).error) !== null,
    isRefusal: ({ event }) => {
      const status = asFailure((event as { error?: unknown }).error).status;
      return status === 422 || status === 403 || status === 404 || status === 409;
    },
  },
  actions: {
    type: assign({
      draft: ({ context, event }) => {
        const { field, value } = event as Extract<MarkRowEvent, { type: 'row.edit' }>;
        return { ...context.draft, [field]: value };
      },
      errors: ({ context, event }) => {
        const { field, value } = event as Extract<MarkRowEvent, { type: 'row.edit' }>;
        const rest = Object.fromEntries(Object.entries(context.errors).filter(([key]) => key !== field));
        const problem = fieldProblem(value, context.limits[field]);
        return problem ? { ...rest, [field]: problem } : rest;
      },
    }),
    tellUnsaved: enqueueActions(({ context, enqueue }) => {
      if (context.sheet) enqueue.sendTo(context.sheet, { type: 'sheet.row.dirty', id: context.candidateId });
    }),
    tellSaved: enqueueActions(({ context, enqueue }) => {
      if (context.sheet) enqueue.sendTo(context.sheet, { type: 'sheet.row.saved', id: context.candidateId });
    }),
  },
}).createMachine({
  id: 'markRow',
  context: ({ input }) => ({
    sheetId: input.sheetId,
    grid: input.grid,
    candidateId: input.candidateId,
    version: input.version,
    limits: input.limits,
    sheet: input.sheet,
    saved: input.values,
    draft: input.values,
    errors: {},
    theirs: null,
    editedWhileSaving: false,
    failure: null,
    reason: input.reason ?? null,
  }),
  initial: 'clean',
  on: {
    'row.reason': { actions: assign({ reason: ({ event }) => event.reason }) },
  },
  states: {
    clean: {
      on: {
        'row.edit': { target: 'dirty', actions: ['type', 'tellUnsaved'] },
      },
    },
    dirty: {
      tags: ['unsaved'],
      after: { saveAfter: 'deciding' },
      on: {
        // Each keystroke starts the wait again: a row is saved once the marker pauses.
        'row.edit': { target: 'dirty', reenter: true, actions: 'type' },
        'row.commit': 'deciding',
      },
    },
    deciding: {
      tags: ['unsaved'],
      always: [
        // Typed back to what is saved: nothing to send.
        { guard: 'unchanged', target: 'clean', actions: ['tellSaved', assign({ errors: {} })] },
        { guard: 'typedFine', target: 'saving' },
        // A mark out of range stays on screen with its sentence, unsent, until it is put right.
        { target: 'invalid' },
      ],
    },
    saving: {
      tags: ['unsaved', 'saving'],
      entry: assign({ editedWhileSaving: false, failure: null }),
      invoke: {
        id: 'saveRow',
        src: 'saveRow',
        input: ({ context }) => ({
          sheetId: context.sheetId,
          grid: context.grid,
          candidateId: context.candidateId,
          values: context.draft,
          version: context.version,
          reason: context.reason,
        }),
        onDone: [
          {
            guard: 'editedWhileSaving',
            target: 'dirty',
            actions: assign({
              saved: ({ event }) => event.output.values,
              version: ({ event }) => event.output.version,
              // What was typed meanwhile keeps its own sentences.
              errors: ({ context }) => problemsOf(context.draft, context.limits),
            }),
          },
          {
            target: 'clean',
            actions: [
              assign({
                saved: ({ event }) => event.output.values,
                draft: ({ event }) => event.output.values,
                version: ({ event }) => event.output.version,
                errors: {},
              }),
              'tellSaved',
            ],
          },
        ],
        onError: [
          {
            guard: 'isConflict',
            target: 'conflict',
            actions: assign({ theirs: ({ event }) => conflictOf(event.error) }),
          },
          {
            // Refused as it stands (a field's message, a locked sheet, a reason needed): said, kept, not retried.
            guard: 'isRefusal',
            target: 'invalid',
            actions: assign({
              failure: ({ event }) => asFailure(event.error),
              errors: ({ context, event }) => {
                const failure = asFailure(event.error);
                const fields = Object.fromEntries(
                  Object.entries(failure.fields).map(([field, messages]) => [field, messages[0]]),
                );
                return { ...context.errors, ...fields };
              },
            }),
          },
          { target: 'failed', actions: assign({ failure: ({ event }) => asFailure(event.error) }) },
        ],
      },
      on: {
        'row.edit': { actions: ['type', assign({ editedWhileSaving: true })] },
      },
    },
    invalid: {
      tags: ['unsaved'],
      on: {
        'row.edit': { target: 'dirty', actions: ['type', assign({ failure: null })] },
        'row.retry': 'deciding',
      },
    },
    conflict: {
      tags: ['unsaved', 'conflict'],
      on: {
        // Mine: sent again over theirs, from the version the server holds now.
        // (What the server holds is theirs now: mine is sent only if it differs, and only if it is fine.)
        'row.keepMine': {
          target: 'deciding',
          actions: assign({
            saved: ({ context }) => context.theirs!.values,
            version: ({ context }) => context.theirs!.version,
            theirs: null,
          }),
        },
        'row.keepTheirs': {
          target: 'clean',
          actions: [
            assign({
              saved: ({ context }) => context.theirs!.values,
              draft: ({ context }) => context.theirs!.values,
              version: ({ context }) => context.theirs!.version,
              theirs: null,
              errors: {},
            }),
            'tellSaved',
          ],
        },
      },
    },
    failed: {
      tags: ['unsaved'],
      after: { retrySave: 'deciding' },
      on: {
        'row.retry': 'deciding',
        'row.edit': { target: 'dirty', actions: 'type' },
      },
    },
  },
});

/** Whether a row's stored values hold anything: a mark, or absent. */
export const hasEntry = (values: RowValues): boolean =>
  Object.values(values).some((value) => (typeof value === 'boolean' ? value : value.trim() !== ''));

/**
 * What a row says of its marks beside them. 'Saved' only for marks the server holds: a row never
 * entered (or emptied) says 'Not entered', not 'Saved'.
 */
export function rowStatus(snapshot: SnapshotFrom<typeof markRowMachine>): string {
  if (snapshot.hasTag('conflict')) return 'Changed elsewhere';
  if (snapshot.hasTag('saving')) return 'Saving…';
  if (snapshot.matches('failed')) return 'Not saved: retrying';
  if (snapshot.hasTag('unsaved')) return 'Not saved yet';
  return hasEntry(snapshot.context.saved) ? 'Saved' : 'Not entered';
}
