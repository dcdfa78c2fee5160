import { describe, expect, it } from 'vitest';
import type { ApiFailure } from '../../contract/envelope';
import { SCORE_MESSAGES } from '../../contract/scores';
import {
  RETRY_SAVE_MS,
  SAVE_AFTER_MS,
  hasEntry,
  markRowMachine,
  rowStatus,
  type MarkRowEvent,
  type MarkRowInput,
  type SavedRow,
} from '../../machines/markRow.machine';
import { createPathModel, matchCoverageFile, errorOf, outputOf, type ReplayStep } from './paths';

/** One row of a marker's grid: typed, checked, saved in the background, conflicts kept, nothing lost. */

const LIMITS = { q1: 200, q2: 200, q3: 200, q4: 200, q5: 200 };
const LOADED = { q1: '', q2: '', q3: '', q4: '', q5: '', absent: false };
const INPUT: MarkRowInput = {
  sheetId: 4,
  grid: 'one',
  candidateId: 9,
  values: LOADED,
  version: 0,
  limits: LIMITS,
};

const SAVED: SavedRow = { values: { ...LOADED, q1: '12.5' }, version: 1 };
const THEIRS: SavedRow = { values: { ...LOADED, q1: '14' }, version: 3 };
const conflict: ApiFailure = {
  status: 409,
  message: SCORE_MESSAGES.staleRow,
  fields: {},
  data: { current: THEIRS },
};
const refused: ApiFailure = {
  status: 422,
  message: 'The input is not valid.',
  fields: { reason: [SCORE_MESSAGES.reasonRequired] },
};
const locked: ApiFailure = { status: 409, message: SCORE_MESSAGES.sheetLocked, fields: {} };
const offline: ApiFailure = { status: 0, message: 'The portal could not be reached.', fields: {} };

const events: MarkRowEvent[] = [
  { type: 'row.edit', field: 'q1', value: '12.5' },
  // Over the question's maximum of 20: said at once, never sent.
  { type: 'row.edit', field: 'q1', value: '25' },
  // Typed back to what is saved.
  { type: 'row.edit', field: 'q1', value: '' },
  { type: 'row.commit' },
  { type: 'row.retry' },
  { type: 'row.keepMine' },
  { type: 'row.keepTheirs' },
  { type: 'row.reason', reason: 'Recounted' },
];

type Snapshot = ReplayStep<typeof markRowMachine>['snapshot'];
const vertexOf = (s: Snapshot) =>
  JSON.stringify([
    s.value,
    s.context.draft.q1,
    s.context.saved.q1,
    s.context.version,
    s.context.theirs !== null,
    s.context.editedWhileSaving,
    Object.keys(s.context.errors).sort(),
    s.context.reason,
  ]);

function checkRow(replayed: ReplayStep<typeof markRowMachine>) {
  const { step, snapshot, previous, calls, timers, now } = replayed;
  const { context } = snapshot;
  const where = `after ${step.event.type} in ${JSON.stringify(snapshot.value)}`;
  // Unsaved work is shown as such until the server holds it.
  expect(snapshot.hasTag('unsaved'), where).toBe(!snapshot.matches('clean'));
  const pending = calls.filter((c) => c.status === 'pending');
  expect(pending.length, where).toBe(snapshot.matches('saving') ? 1 : 0);
  if (snapshot.matches('saving')) {
    const sent = pending[0].input as {
      values: Record<string, unknown>;
      version: number;
      reason: string | null;
    };
    // What is sent is what was typed (until the marker types on), from the version the row holds.
    if (!context.editedWhileSaving) {
      expect(sent, where).toMatchObject({
        values: context.draft,
        version: context.version,
        reason: context.reason,
      });
    }
    // A mark over its maximum is never sent.
    expect(sent.values.q1, where).not.toBe('25');
  }
  if (context.draft.q1 === '25') expect(context.errors.q1, where).toBe('At most 20 for this question.');
  // Nothing typed is lost: a failure or a conflict keeps the draft.
  if (step.event.type.startsWith('xstate.error.actor.')) {
    expect(context.draft, where).toEqual(previous?.context.draft);
    expect(context.failure ?? context.theirs, where).not.toBeNull();
  }
  if (step.event.type === 'xstate.done.actor.saveRow') {
    expect(context.saved, where).toEqual((outputOf(step.event) as SavedRow).values);
    expect(context.version, where).toBe((outputOf(step.event) as SavedRow).version);
  }
  if (step.event.type === 'xstate.error.actor.saveRow' && errorOf(step.event) === conflict) {
    expect(context.theirs, where).toEqual(THEIRS);
  }
  if (step.event.type === 'row.keepTheirs') expect(context.draft, where).toEqual(THEIRS.values);
  if (snapshot.matches('clean')) expect(context.draft, where).toEqual(context.saved);
  // 'Saved' is said of marks the server holds, never of a row with none (one never entered, or emptied).
  const status = rowStatus(snapshot);
  expect(status === 'Saved', where).toBe(snapshot.matches('clean') && hasEntry(context.saved));
  if (snapshot.matches('clean') && !hasEntry(context.saved)) expect(status, where).toBe('Not entered');
  if (!snapshot.matches('clean')) expect(status, where).not.toBe('Not entered');
  // The only timers: the pause before a save, and the wait before a retry.
  const waits = snapshot.matches('dirty') || snapshot.matches('failed');
  expect(timers.length, where).toBe(waits ? 1 : 0);
  if (snapshot.matches('dirty')) expect(timers[0].due - now, where).toBe(SAVE_AFTER_MS);
  if (snapshot.matches('failed')) expect(timers[0].due - now, where).toBe(RETRY_SAVE_MS);
}

const model = createPathModel(markRowMachine, {
  inputs: [INPUT],
  events,
  outputs: { saveRow: [SAVED] },
  errors: { saveRow: [conflict, refused, locked, offline] },
  serializeState: vertexOf,
  compareContext: false,
  check: checkRow,
});

describe('mark row machine: model-based paths', () => {
  it('covers every state and every transition', () => {
    model.assertCoverage();
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });
});

describe('markRow machine: coverage file', () => {
  it('docs/statecharts/coverage/markRow.json is what its paths cover', () => matchCoverageFile(model));
});
