import { describe, expect, it } from 'vitest';
import type { ApiFailure } from '../../contract/envelope';
import { bulkRegistrationSummary, type BulkRegistrationResult } from '../../contract/registration';
import { bulkRegistrationMachine, type BulkRegistrationEvent } from '../../machines/bulkRegistration.machine';
import { createPathModel, matchCoverageFile, errorOf, outputOf, type ReplayStep } from './paths';

const events: BulkRegistrationEvent[] = [
  { type: 'bulk.tick', ids: [4], on: true },
  { type: 'bulk.tick', ids: [4, 7], on: true },
  { type: 'bulk.tick', ids: [4], on: false },
  { type: 'bulk.clear' },
  { type: 'bulk.registerTicked' },
  { type: 'bulk.registerAllVerified', diet: 'MAY-2026', course_header: 'A1' },
  { type: 'bulk.confirm' },
  { type: 'bulk.cancel' },
];

const result: BulkRegistrationResult = {
  diet: 'MAY-2026',
  registered: 12,
  already_registered: 0,
  refused: [
    { reason: 'not_verified', label: 'not verified by the board', count: 2 },
    { reason: 'sanctioned', label: 'under sanction', count: 1 },
  ],
  left_over: 0,
  rows: [],
};
const failure: ApiFailure = { status: 403, message: 'Your school is suspended', fields: {} };

function check({ step, snapshot, previous, calls, emitted }: ReplayStep<typeof bulkRegistrationMachine>) {
  const event = step.event as BulkRegistrationEvent | { type: string };
  const at = `after ${event.type} in ${JSON.stringify(snapshot.value)}`;
  const { context } = snapshot;
  expect(snapshot.hasTag('busy'), at).toBe(snapshot.matches('registering'));
  expect(snapshot.hasTag('confirming'), at).toBe(snapshot.matches('confirming'));
  const pending = calls.filter((call) => call.status === 'pending');
  expect(pending.length, at).toBe(snapshot.hasTag('busy') ? 1 : 0);
  // No id is ticked twice.
  expect(new Set(context.selected).size, at).toBe(context.selected.length);
  switch (event.type) {
    case 'bulk.tick': {
      const tick = event as Extract<BulkRegistrationEvent, { type: 'bulk.tick' }>;
      for (const id of tick.ids) expect(context.selected.includes(id), at).toBe(tick.on);
      break;
    }
    case 'bulk.clear':
      expect(context.selected, at).toEqual([]);
      break;
    case 'bulk.registerTicked':
      // Only with ticks (nothing ticked: nothing happens); the ticked ids, as they are, go to the server.
      if (previous!.context.selected.length === 0) expect(snapshot.value, at).toBe('idle');
      else expect(pending[0].input, at).toEqual({ candidate_ids: previous!.context.selected });
      break;
    case 'bulk.registerAllVerified':
      // Asked first: nothing is sent until confirmed.
      expect(snapshot.value, at).toBe('confirming');
      expect(context.ask, at).toEqual({ all_verified: true, diet: 'MAY-2026', course_header: 'A1' });
      break;
    case 'bulk.confirm':
      expect(pending[0].input, at).toEqual({ all_verified: true, diet: 'MAY-2026', course_header: 'A1' });
      break;
    case 'bulk.cancel':
      expect(snapshot.value, at).toBe('idle');
      expect(context.ask, at).toBeNull();
      expect(context.selected, at).toEqual(previous!.context.selected);
      break;
    case 'xstate.done.actor.register': {
      const answered = outputOf(step.event) as BulkRegistrationResult;
      expect(context.result, at).toEqual(answered);
      expect(context.summary, at).toBe(
        '12 registered; 3 refused: 2 not verified by the board, 1 under sanction',
      );
      expect(context.selected, at).toEqual([]);
      expect(emitted, at).toEqual([
        { type: 'notify', tone: 'success', message: bulkRegistrationSummary(answered) },
        { type: 'bulk.registered' },
      ]);
      break;
    }
    case 'xstate.error.actor.register':
      // Refused: the ticks stay, so the user can try again; the reason is said.
      expect(errorOf(step.event)).toEqual(failure);
      expect(context.error, at).toBe(failure.message);
      expect(context.selected, at).toEqual(previous!.context.selected);
      expect(emitted, at).toEqual([{ type: 'notify', tone: 'error', message: failure.message }]);
      break;
  }
}

const model = createPathModel(bulkRegistrationMachine, {
  events,
  outputs: { register: [result] },
  errors: { register: [failure] },
  edges: 'all',
  check,
});

describe('bulk registration machine: model-based paths', () => {
  it('covers every state and every transition', () => {
    model.assertCoverage();
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });
});

describe('bulkRegistration machine: coverage file', () => {
  it('docs/statecharts/coverage/bulkRegistration.json is what its paths cover', () =>
    matchCoverageFile(model));
});
