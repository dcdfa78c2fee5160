import { describe, expect, it } from 'vitest';
import type { DocumentJob } from '../../contract/documents';
import type { ApiFailure } from '../../contract/envelope';
import {
  JOB_POLL_MS,
  documentJobMachine,
  type DocumentJobEvent,
  type DocumentJobInput,
} from '../../machines/documentJob.machine';
import { createPathModel, errorOf, outputOf, type ReplayStep } from './paths';

const input: DocumentJobInput = { ending: 'photocard', query: { diet: 'MAY-2026' } };

const job = (state: DocumentJob['state'], done: number, message: string | null = null): DocumentJob => ({
  id: 7,
  ending: 'photocard',
  title: 'Photo cards',
  state,
  done,
  total: 6000,
  bytes: state === 'ready' ? 48_000_000 : null,
  createdAt: '2026-11-26T11:00:00.000Z',
  message,
});

const queued = job('queued', 0);
const building = job('building', 2500);
const ready = job('ready', 6000);
const failedJob = job('failed', 1200, 'The PDF could not be written.');

const tooLarge: ApiFailure = {
  status: 413,
  message: 'This document has 6,000 cards: build it as a job.',
  fields: {},
};
const offline: ApiFailure = {
  status: 0,
  message: 'The portal could not be reached. Check your connection and try again.',
  fields: {},
};

const events: DocumentJobEvent[] = [{ type: 'pdf.download' }, { type: 'pdf.build' }, { type: 'pdf.retry' }];

function check(replayed: ReplayStep<typeof documentJobMachine>) {
  const { step, snapshot, calls, timers, now } = replayed;
  const where = `after ${step.event.type} in ${JSON.stringify(snapshot.value)}`;
  const pending = calls.filter((call) => call.status === 'pending');
  const requesting = (['downloading', 'starting', 'polling', 'fetchingFile'] as const).some((s) =>
    snapshot.matches(s),
  );
  expect(pending.length, where).toBe(requesting ? 1 : 0);
  // Each request is about this document and this query, or this job.
  if (snapshot.matches('downloading') || snapshot.matches('starting'))
    expect(pending[0].input, where).toEqual(input);
  if (snapshot.matches('polling')) expect(pending[0].input, where).toEqual({ id: 7 });
  if (snapshot.matches('fetchingFile'))
    expect(pending[0].input, where).toEqual({ id: 7, ending: 'photocard' });
  // Asked again only after the poll's delay, and only while the job is being built.
  expect(timers.length, where).toBe(snapshot.matches('waiting') ? 1 : 0);
  if (snapshot.matches('waiting')) expect(timers[0].due - now, where).toBe(JOB_POLL_MS);
  // The progress shown is the server's last word on the job.
  if (
    step.event.type.startsWith('xstate.done.actor.startJob') ||
    step.event.type.startsWith('xstate.done.actor.loadJob')
  ) {
    expect(snapshot.context.job, where).toEqual(outputOf(step.event));
  }
  // A failure is said, in the server's words or the job's.
  if (step.event.type.startsWith('xstate.error.actor.')) {
    expect(snapshot.context.failure, where).toEqual(errorOf(step.event));
  }
  if (snapshot.matches('failed') && snapshot.context.job?.state === 'failed') {
    expect(snapshot.context.failure?.message, where).toBe(failedJob.message);
  }
  // Building is offered only after the server said the PDF is too large to stream.
  expect(snapshot.can({ type: 'pdf.build' }), where).toBe(snapshot.matches('tooLarge'));
  expect(snapshot.hasTag('tooLarge'), where).toBe(snapshot.matches('tooLarge'));
  if (snapshot.matches('tooLarge')) expect(snapshot.context.failure, where).toEqual(tooLarge);
  // A retry after a lost poll asks after the same job; after a failed job, it builds a new one.
  if (step.event.type === 'pdf.retry') {
    const polled = snapshot.matches('polling');
    expect(polled || snapshot.matches('starting'), where).toBe(true);
    if (snapshot.matches('starting')) expect(snapshot.context.job, where).toBeNull();
    expect(snapshot.context.failure, where).toBeNull();
  }
  expect(snapshot.hasTag('busy'), where).toBe(
    (['downloading', 'starting', 'fetchingFile'] as const).some((s) => snapshot.matches(s)),
  );
}

const model = createPathModel(documentJobMachine, {
  inputs: [input],
  events,
  outputs: {
    downloadPdf: [undefined],
    startJob: [queued, ready, failedJob],
    loadJob: [building, ready, failedJob],
    downloadJobFile: [undefined],
  },
  errors: {
    downloadPdf: [tooLarge, offline],
    startJob: [offline],
    loadJob: [offline],
    downloadJobFile: [offline],
  },
  check,
});

describe('document job machine: model-based paths', () => {
  it('covers every state and every transition', () => {
    model.assertCoverage();
    expect(model.coverage().states.all).toEqual([
      '#documentJob.idle',
      '#documentJob.downloading',
      '#documentJob.tooLarge',
      '#documentJob.starting',
      '#documentJob.waiting',
      '#documentJob.polling',
      '#documentJob.failed',
      '#documentJob.ready',
      '#documentJob.fetchingFile',
    ]);
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });
});
