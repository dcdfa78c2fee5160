import { describe, expect, it } from 'vitest';
import type { ApiFailure } from '../../contract/envelope';
import type { ImportReport } from '../../contract/scores';
import {
  marksImportMachine,
  type MarksAnswer,
  type MarksImportEvent,
} from '../../machines/marksImport.machine';
import { createPathModel, matchCoverageFile, outputOf, type ReplayStep } from './paths';

const report = (overrides: Partial<ImportReport> = {}): ImportReport => ({
  rows: [{ row: 3, candidate_index: 'WHB/25/B1/000007', problems: { q1: 'At most 20 for this question.' } }],
  good: 9,
  bad: 1,
  saved: 0,
  ...overrides,
});

const checked: MarksAnswer = { report: report(), message: '9 rows can be imported; 1 has problems.' };
const noneGood: MarksAnswer = { report: report({ good: 0, bad: 10 }) };
const imported: MarksAnswer = { report: report({ saved: 9 }), message: '9 rows imported.' };

const notCsv: ApiFailure = {
  status: 422,
  message: 'Some fields need your attention.',
  fields: { csv: ['Choose a CSV file'] },
};
const offline: ApiFailure = { status: 0, message: 'The network is unreachable.', fields: {} };

const form = new FormData();
const events: MarksImportEvent[] = [{ type: 'marks.check', form }, { type: 'marks.import' }];

function check(replayed: ReplayStep<typeof marksImportMachine>) {
  const { step, snapshot, calls, previous } = replayed;
  const where = `after ${step.event.type} in ${JSON.stringify(snapshot.value)}`;
  const pending = calls.filter((call) => call.status === 'pending');
  expect(snapshot.hasTag('busy'), where).toBe(snapshot.matches('checking') || snapshot.matches('importing'));
  expect(pending.length, where).toBe(snapshot.hasTag('busy') ? 1 : 0);
  // The import sends the very form that was checked.
  if (snapshot.hasTag('busy')) expect(pending[0].input, where).toBe(snapshot.context.form);
  if (step.event.type.startsWith('xstate.done.actor.')) {
    const answer = outputOf(step.event) as MarksAnswer;
    expect(snapshot.context.report, where).toEqual(answer.report);
    expect(snapshot.context.message, where).toBe(answer.message ?? null);
    expect(snapshot.context.failure, where).toBeNull();
  }
  if (step.event.type === 'xstate.error.actor.checkMarks') {
    expect(snapshot.context.report, where).toBeNull();
    expect(snapshot.context.failure, where).toEqual(notCsv);
  }
  if (step.event.type === 'xstate.error.actor.importMarks') {
    // A failed import keeps the check's report, so the board may try again.
    expect(snapshot.context.report, where).toEqual(previous?.context.report);
    expect(snapshot.context.failure, where).toEqual(offline);
  }
  // Importing is offered only when the check found a good row.
  expect(snapshot.can({ type: 'marks.import' }), where).toBe(
    snapshot.matches('reviewed') && (snapshot.context.report?.good ?? 0) > 0,
  );
}

const model = createPathModel(marksImportMachine, {
  events,
  outputs: { checkMarks: [checked, noneGood], importMarks: [imported] },
  errors: { checkMarks: [notCsv], importMarks: [offline] },
  check,
});

describe('marks import machine: model-based paths', () => {
  it('covers every state and every transition', () => {
    model.assertCoverage();
    expect(model.coverage().states.all).toEqual([
      '#marksImport.choosing',
      '#marksImport.checking',
      '#marksImport.reviewed',
      '#marksImport.importing',
      '#marksImport.done',
    ]);
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });
});

describe('marksImport machine: coverage file', () => {
  it('docs/statecharts/coverage/marksImport.json is what its paths cover', () => matchCoverageFile(model));
});
