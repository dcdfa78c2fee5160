import { describe, expect, it } from 'vitest';
import type { BulkReport } from '../../contract/bulkIndexing';
import type { ApiFailure } from '../../contract/envelope';
import { bulkImportMachine, nextChunk, type BulkImportEvent } from '../../machines/bulkImport.machine';
import { createPathModel, matchCoverageFile, outputOf, type ReplayStep } from './paths';

const report = (overrides: Partial<BulkReport> = {}): BulkReport => ({
  id: 7,
  rows: 120,
  good: 100,
  problems: [{ row: 3, field: 'date_of_birth', message: 'Enter validate date of birth (DD/MM/YYYY)' }],
  indexed: [],
  imported_through: 0,
  finished: false,
  ...overrides,
});

const checked = report();
const noneGood = report({ good: 0 });
const halfway = report({ imported_through: 50, indexed: [{ row: 1, candidate_index: 'WHB/26/A1/000001' }] });
const finished = report({ imported_through: 120, finished: true });

const badCsv: ApiFailure = {
  status: 422,
  message: 'Some fields need your attention.',
  fields: { csv: ['Choose the CSV file of candidates'] },
};
const offline: ApiFailure = { status: 0, message: 'The network is unreachable.', fields: {} };

const events: BulkImportEvent[] = [
  { type: 'bulk.check', files: new FormData() },
  { type: 'bulk.import' },
  { type: 'bulk.retry' },
  { type: 'bulk.restart' },
];

function check(replayed: ReplayStep<typeof bulkImportMachine>) {
  const { step, snapshot, calls, previous } = replayed;
  const where = `after ${step.event.type} in ${JSON.stringify(snapshot.value)}`;
  const pending = calls.filter((call) => call.status === 'pending');
  expect(snapshot.hasTag('busy'), where).toBe(snapshot.matches('checking') || snapshot.matches('importing'));
  expect(snapshot.hasTag('failed'), where).toBe(snapshot.matches('paused'));
  expect(pending.length, where).toBe(snapshot.hasTag('busy') ? 1 : 0);
  if (snapshot.matches('importing')) {
    // Each chunk asks for the rows after those the last answer went through.
    expect(pending[0].input, where).toEqual(nextChunk(snapshot.context.report!));
  }
  if (step.event.type === 'xstate.done.actor.importChunk') {
    expect(snapshot.context.report, where).toEqual(outputOf(step.event));
  }
  if (snapshot.matches('paused')) {
    // What was indexed stays known; trying again asks for the same rows.
    expect(snapshot.context.report, where).toEqual(previous?.context.report);
  }
  if (snapshot.matches('choosing')) expect(snapshot.context.report, where).toBeNull();
}

const model = createPathModel(bulkImportMachine, {
  events,
  outputs: { checkFiles: [checked, noneGood], importChunk: [halfway, finished] },
  errors: { checkFiles: [badCsv], importChunk: [offline] },
  check,
});

describe('bulk import machine: model-based paths', () => {
  it('covers every state and every transition', () => {
    model.assertCoverage();
    expect(model.coverage().states.all).toEqual([
      '#bulkImport.choosing',
      '#bulkImport.checking',
      '#bulkImport.reviewed',
      '#bulkImport.importing',
      '#bulkImport.paused',
      '#bulkImport.done',
    ]);
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });
});

describe('bulkImport machine: coverage file', () => {
  it('docs/statecharts/coverage/bulkImport.json is what its paths cover', () => matchCoverageFile(model));
});
