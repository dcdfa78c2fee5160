import { fromCallback, type AnyActorRef } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { ApiFailure } from '../../contract/envelope';
import {
  SCORE_MESSAGES,
  type GridPage,
  type MarkRow,
  type SheetRow,
  type SheetState,
} from '../../contract/scores';
import type { MarkRowInput } from '../../machines/markRow.machine';
import {
  scoreSheetMachine,
  type ScoreSheetEvent,
  type ScoreSheetInput,
} from '../../machines/scoreSheet.machine';
import { createPathModel, matchCoverageFile, outputOf, type ReplayStep } from './paths';

/**
 * A score sheet's life as one marker's grid shows it: loaded into the state the server says, a grid
 * submitted by its own marker only once every row is saved, a reconciled sheet locked, a locked one
 * unlocked with a reason, a change of page asked first while marks are unsaved, and one row actor per
 * editable row.
 */

const SHEET = (state: SheetState): SheetRow => ({
  id: 4,
  kind: 'exam',
  state,
  diet: { id: 1, code: 'MAY-2027' },
  course_header: { id: 2, code: 'B1' },
  paper: { id: 3, name: 'Paper I' },
  school: null,
  marker_one: { id: 10, name: 'Marker one' },
  marker_two: { id: 11, name: 'Marker two' },
  marker_three: null,
  candidates: 2,
  flagged: 0,
  version: 1,
});

const row = (id: number): MarkRow => ({
  candidate_id: id,
  candidate_index: `WHB/26/B1/00000${id}`,
  name: `Candidate ${id}`,
  school_code: 'SHT-IB',
  q1: '10',
  q2: '',
  q3: '',
  q4: '',
  q5: '',
  absent: false,
  total_score: '',
  version: 1,
});

const page = (state: SheetState, editable: boolean): GridPage<MarkRow> => ({
  sheet: SHEET(state),
  grid: 'one',
  rules: { q_max: [200, 200, 200, 200, 0], tolerance_question: 20, tolerance_total: 50 },
  editable,
  reason_required: state !== 'open',
  rows: [row(1), row(2)],
  page: 1,
  pages: 2,
  total: 2,
});

const STATES: SheetState[] = [
  'open',
  'marker_one_submitted',
  'marker_two_submitted',
  'reconciling',
  'locked',
  'published',
];
const PAGES = [
  ...STATES.map((state) => page(state, state !== 'locked' && state !== 'published')),
  page('open', false),
];

const offline: ApiFailure = { status: 0, message: 'The portal could not be reached.', fields: {} };
const notReady: ApiFailure = { status: 409, message: SCORE_MESSAGES.lockNotReady, fields: {} };

const events: ScoreSheetEvent[] = [
  { type: 'sheet.page', page: 2 },
  { type: 'sheet.reload' },
  { type: 'sheet.retry' },
  { type: 'sheet.leave.confirm' },
  { type: 'sheet.leave.cancel' },
  { type: 'sheet.submit' },
  { type: 'sheet.submit.confirm' },
  { type: 'sheet.submit.cancel' },
  { type: 'sheet.lock' },
  { type: 'sheet.lock.confirm' },
  { type: 'sheet.lock.cancel' },
  { type: 'sheet.unlock', reason: 'A page was missed' },
  { type: 'sheet.reason', reason: 'Recounted' },
  { type: 'sheet.row.dirty', id: 1 },
  { type: 'sheet.row.saved', id: 1 },
];

const inputs: ScoreSheetInput[] = [
  { sheetId: 4, grid: 'one' },
  { sheetId: 4, grid: 'two' },
  { sheetId: 5, grid: 'in-course' },
];

/** A row actor that remembers what it was started with and what it was told. */
const rowStarts = new WeakMap<AnyActorRef, MarkRowInput>();
const rowHeard = new WeakMap<AnyActorRef, string[]>();
const recordingRow = fromCallback<{ type: string; reason?: string }, MarkRowInput>(
  ({ self, input, receive }) => {
    rowStarts.set(self, input);
    rowHeard.set(self, []);
    receive((event) => rowHeard.get(self)!.push(event.reason ?? event.type));
  },
);

type Snapshot = ReplayStep<typeof scoreSheetMachine>['snapshot'];
const vertexOf = (s: Snapshot) =>
  JSON.stringify([
    s.value,
    s.context.grid,
    s.context.page,
    s.context.data?.sheet.state ?? null,
    s.context.data?.editable ?? null,
    [...s.context.unsaved].sort(),
    s.context.heldPage,
    s.context.error !== null,
    s.context.reason,
  ]);

const BUSY = ['loading', 'submitting', 'locking', 'unlocking'] as const;
const LIFE = {
  open: 'open',
  marker_one_submitted: 'markerOneSubmitted',
  marker_two_submitted: 'markerTwoSubmitted',
  reconciling: 'reconciling',
  locked: 'locked',
  published: 'published',
} as const satisfies Record<SheetState, string>;

function checkSheet(replayed: ReplayStep<typeof scoreSheetMachine>) {
  const { step, snapshot, previous, calls } = replayed;
  const { context } = snapshot;
  const where = `after ${step.event.type} in ${JSON.stringify(snapshot.value)}`;
  const busy = BUSY.some((s) => snapshot.matches(s));
  expect(snapshot.hasTag('busy'), where).toBe(busy);
  const pending = calls.filter((c) => c.status === 'pending' && c.src !== 'markRow');
  expect(pending.length, where).toBe(busy ? 1 : 0);
  if (snapshot.matches('loading')) {
    expect(pending[0].input, where).toEqual({
      sheetId: context.sheetId,
      grid: context.grid,
      page: context.page,
    });
  }
  // Shown in the state of its life the server last said.
  const asking = (['askingToLeave', 'confirmingSubmit', 'confirmingLock'] as const).some((s) =>
    snapshot.matches({ shown: s }),
  );
  if (snapshot.matches('shown') && !asking) {
    expect(snapshot.matches({ shown: LIFE[context.data!.sheet.state] }), where).toBe(true);
  }
  // Submitting asks first: only a grid's marker is asked, on their own editable grid in a state it can be
  // submitted from; it is submitted only on their yes, and only with every row saved.
  if (snapshot.matches({ shown: 'confirmingSubmit' })) {
    const from = context.data!.sheet.state;
    expect(context.data!.editable, where).toBe(true);
    expect(
      (context.grid === 'one' && (from === 'open' || from === 'marker_two_submitted')) ||
        (context.grid === 'two' && (from === 'open' || from === 'marker_one_submitted')),
      where,
    ).toBe(true);
  }
  if (snapshot.matches('submitting') && !previous?.matches('submitting')) {
    expect(step.event.type, where).toBe('sheet.submit.confirm');
    expect(previous!.matches({ shown: 'confirmingSubmit' }), where).toBe(true);
    expect(['one', 'two'], where).toContain(context.grid);
    expect(previous?.context.unsaved, where).toEqual([]);
    expect(previous?.context.data?.editable, where).toBe(true);
  }
  // Locking asks first too, and locks only on the yes.
  if (snapshot.matches({ shown: 'confirmingLock' })) {
    const from = context.data!.sheet.state;
    expect(from === 'reconciling' || (from === 'open' && context.grid === 'in-course'), where).toBe(true);
  }
  if (snapshot.matches('locking') && !previous?.matches('locking')) {
    expect(step.event.type, where).toBe('sheet.lock.confirm');
    expect(previous!.matches({ shown: 'confirmingLock' }), where).toBe(true);
    const from = previous!.context.data!.sheet.state;
    expect(from === 'reconciling' || (from === 'open' && context.grid === 'in-course'), where).toBe(true);
  }
  // A no goes back to where the sheet was, and nothing is sent to the server.
  if (step.event.type === 'sheet.submit.cancel' || step.event.type === 'sheet.lock.cancel') {
    if (
      previous!.matches({
        shown: step.event.type === 'sheet.submit.cancel' ? 'confirmingSubmit' : 'confirmingLock',
      })
    ) {
      expect(snapshot.matches({ shown: LIFE[context.data!.sheet.state] }), where).toBe(true);
    }
  }
  if (snapshot.matches('unlocking')) expect(previous!.context.data!.sheet.state, where).toBe('locked');
  // Leaving a page with unsaved marks asks first, keeping the page asked for.
  if (snapshot.matches({ shown: 'askingToLeave' })) {
    expect(context.unsaved.length, where).toBeGreaterThan(0);
    expect(context.heldPage, where).not.toBeNull();
  }
  if (step.event.type === 'xstate.done.actor.loadGrid') {
    const shown = outputOf(step.event) as GridPage<MarkRow>;
    expect(context.unsaved, where).toEqual([]);
    // One row actor per row where the grid can be changed, none where it cannot.
    const refs = Object.values(context.rows);
    expect(refs.length, where).toBe(shown.editable ? shown.rows.length : 0);
    expect(
      refs.map((ref) => rowStarts.get(ref)!.candidateId),
      where,
    ).toEqual(shown.editable ? shown.rows.map((r) => r.candidate_id) : []);
    for (const ref of refs) {
      const input = rowStarts.get(ref)!;
      // Each row reports to the sheet, is checked against its paper's maxima, and saves with its version.
      expect((input.sheet as unknown as { logic: { id: string } }).logic.id, where).toBe('scoreSheet');
      expect(input.limits, where).toEqual({ q1: 200, q2: 200, q3: 200, q4: 200, q5: 0 });
      expect(input.values, where).toEqual({ q1: '10', q2: '', q3: '', q4: '', q5: '', absent: false });
      expect(input.version, where).toBe(1);
      expect(input.reason, where).toBe(context.reason);
    }
  }
  // Every saved row moves the count the third marker's table reads again by; nothing else does.
  expect(context.saves, where).toBe(
    (previous?.context.saves ?? 0) + (step.event.type === 'sheet.row.saved' ? 1 : 0),
  );
  if (step.event.type === 'sheet.reason') {
    for (const ref of Object.values(context.rows)) expect(rowHeard.get(ref)!.at(-1), where).toBe('Recounted');
  }
  if (
    (step.event.type === 'sheet.submit' && previous?.context.unsaved.length) ||
    (step.event.type === 'sheet.submit.confirm' &&
      previous?.matches({ shown: 'confirmingSubmit' }) &&
      previous.context.unsaved.length)
  ) {
    expect(replayed.emitted, where).toEqual([
      { type: 'notify', tone: 'error', message: SCORE_MESSAGES.unsavedFirst },
    ]);
  }
  if (step.event.type.startsWith('xstate.error.actor.') && !snapshot.matches('loadFailed')) {
    // A refusal is told, and the grid stays as it was.
    expect(replayed.emitted[0], where).toMatchObject({ type: 'notify', tone: 'error' });
    expect(context.data, where).toBe(previous?.context.data);
  }
}

const OUTPUTS = {
  loadGrid: PAGES,
  submitGrid: [{ sheet: SHEET('marker_one_submitted'), message: SCORE_MESSAGES.submitted }],
  lockSheet: [{ sheet: SHEET('locked'), message: SCORE_MESSAGES.locked }],
  unlockSheet: [{ sheet: SHEET('reconciling'), message: SCORE_MESSAGES.unlocked }],
};
const ERRORS = { loadGrid: [offline], submitGrid: [notReady], lockSheet: [notReady], unlockSheet: [offline] };

// Two models of the one machine, so that neither grows past what a test run can walk: the first walks
// the sheet's life with one row's unsaved work; the second, on one open page, two rows' unsaved work
// while the marker is asked about leaving. Together they take every state and transition.
const model = createPathModel(scoreSheetMachine, {
  inputs,
  events,
  withoutEvents: [],
  outputs: OUTPUTS,
  errors: ERRORS,
  actors: { markRow: recordingRow },
  serializeState: vertexOf,
  compareContext: false,
  check: checkSheet,
});

const unsavedModel = createPathModel(scoreSheetMachine, {
  inputs: [inputs[0]],
  events: [...events, { type: 'sheet.row.dirty', id: 2 }, { type: 'sheet.row.saved', id: 2 }],
  withoutEvents: [
    'sheet.submit',
    'sheet.submit.confirm',
    'sheet.submit.cancel',
    'sheet.lock',
    'sheet.lock.confirm',
    'sheet.lock.cancel',
    'sheet.unlock',
    'sheet.reason',
    'sheet.retry',
  ],
  outputs: { ...OUTPUTS, loadGrid: [PAGES[0]] },
  errors: ERRORS,
  actors: { markRow: recordingRow },
  serializeState: vertexOf,
  compareContext: false,
  check: checkSheet,
});

describe('score sheet machine: model-based paths', () => {
  it('covers every state and every transition, between its two models', () => {
    const both = [model.coverage(), unsavedModel.coverage()];
    expect(both[0].states.missing.filter((id) => both[1].states.missing.includes(id))).toEqual([]);
    expect(
      both[0].transitions.missing
        .filter((info) => both[1].transitions.missing.some((other) => other.key === info.key))
        .map((info) => info.key),
    ).toEqual([]);
  });

  it.each(
    [...model.paths, ...unsavedModel.paths].map(
      (path, i) => [`${i < model.paths.length ? 'life' : 'unsaved'} ${path.name}`, path] as const,
    ),
  )('%s', async (name, path) => {
    await (name.startsWith('life') ? model : unsavedModel).replay(path);
  });
});

describe('scoreSheet machine: coverage file', () => {
  it('docs/statecharts/coverage/scoreSheet.json is what its paths cover', () =>
    matchCoverageFile(model, unsavedModel));
});
