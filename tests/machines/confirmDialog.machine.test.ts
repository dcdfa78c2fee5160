import { describe, expect, it } from 'vitest';
import { confirmDialogMachine, type ConfirmDialogEvent } from '../../machines/confirmDialog.machine';
import { createPathModel, matchCoverageFile, type ReplayStep } from './paths';

/** Two rows a question may be about. */
const first = { id: 3, candidate_index: 'WHB/26/A1/000003' };
const second = { id: 9, candidate_index: 'WHB/26/A1/000009' };

const events: ConfirmDialogEvent[] = [
  { type: 'confirm.ask', subject: first },
  { type: 'confirm.ask', subject: second },
  { type: 'confirm.accept' },
  { type: 'confirm.cancel' },
];

function checkConfirmDialog({ step, snapshot, previous, emitted }: ReplayStep<typeof confirmDialogMachine>) {
  const event = step.event as ConfirmDialogEvent | { type: 'xstate.init' };
  const at = `after ${event.type} in ${JSON.stringify(snapshot.value)}`;
  expect(snapshot.hasTag('open'), at).toBe(snapshot.matches('asking'));
  expect(emitted, at).toEqual([]);
  switch (event.type) {
    case 'xstate.init':
      expect(snapshot.context.subject, at).toBeNull();
      break;
    case 'confirm.ask':
      // The question is about exactly the row it was asked about: the same object.
      expect(snapshot.value, at).toBe('asking');
      expect(snapshot.context.subject, at).toBe(event.subject);
      break;
    default:
      // Yes or no closes it; what it was about stays, so the closing dialog still shows it.
      expect(snapshot.value, at).toBe('closed');
      expect(snapshot.context.subject, at).toBe(previous?.context.subject);
  }
}

const model = createPathModel(confirmDialogMachine, { events, edges: 'all', check: checkConfirmDialog });

describe('confirm dialog machine: model-based paths', () => {
  it('covers every state and every transition', () => {
    model.assertCoverage();
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });
});

describe('confirmDialog machine: coverage file', () => {
  it('docs/statecharts/coverage/confirmDialog.json is what its paths cover', () => matchCoverageFile(model));
});
