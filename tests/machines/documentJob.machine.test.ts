import { describe, expect, it } from 'vitest';
import type { DocumentJob } from '../../contract/documents';
import type { ApiFailure } from '../../contract/envelope';
import {
  JOB_POLL_MS,
  LINK_REFRESH_MS,
  documentJobMachine,
  type DocumentJobEvent,
  type DocumentJobInput,
} from '../../machines/documentJob.machine';
import { createPathModel, matchCoverageFile, errorOf, outputOf, type ReplayStep } from './paths';

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
  download:
    state === 'ready'
      ? { url: `/api/document-downloads/7/3.1795700000.${link}`, expiresAt: '2026-11-26T13:00:00.000Z' }
      : null,
});
let link = 'a'.repeat(22);

const queued = job('queued', 0);
const building = job('building', 2500);
const ready = job('ready', 6000);
link = 'b'.repeat(22);
const refreshed = job('ready', 6000);
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
  const requesting = (['downloading', 'starting', 'polling', 'refreshing'] as const).some((s) =>
    snapshot.matches(s),
  );
  expect(pending.length, where).toBe(requesting ? 1 : 0);
  // Each request is about this document and this query, or this job.
  if (snapshot.matches('downloading') || snapshot.matches('starting'))
    expect(pending[0].input, where).toEqual(input);
  if (snapshot.matches('polling') || snapshot.matches('refreshing'))
    expect(pending[0].input, where).toEqual({ id: 7 });
  // Asked again only after the poll's delay while the job is being built; once ready, read again for a
  // fresh link well before the one shown expires.
  expect(timers.length, where).toBe(snapshot.matches('waiting') || snapshot.matches('ready') ? 1 : 0);
  if (snapshot.matches('waiting')) expect(timers[0].due - now, where).toBe(JOB_POLL_MS);
  if (snapshot.matches('ready')) expect(timers[0].due - now, where).toBe(LINK_REFRESH_MS);
  expect(LINK_REFRESH_MS * 4).toBeLessThanOrEqual(2 * 3600_000);
  // Ready, the page shows the server's latest link to the file, which the browser downloads itself.
  if (snapshot.hasTag('ready')) expect(snapshot.context.job?.download?.url, where).toMatch(/^\/api\//);
  // A lost refresh keeps the link it had.
  if (step.event.type.startsWith('xstate.error.actor.refreshJob')) {
    expect(snapshot.matches('ready'), where).toBe(true);
    expect(snapshot.context.failure, where).toBeNull();
  }
  // The progress shown is the server's last word on the job.
  if (
    step.event.type.startsWith('xstate.done.actor.startJob') ||
    step.event.type.startsWith('xstate.done.actor.loadJob') ||
    step.event.type.startsWith('xstate.done.actor.refreshJob')
  ) {
    expect(snapshot.context.job, where).toEqual(outputOf(step.event));
  }
  // A failure is said, in the server's words or the job's.
  if (step.event.type.startsWith('xstate.error.actor.') && !step.event.type.includes('refreshJob')) {
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
    (['downloading', 'starting'] as const).some((s) => snapshot.matches(s)),
  );
}

const model = createPathModel(documentJobMachine, {
  inputs: [input],
  events,
  outputs: {
    downloadPdf: [undefined],
    startJob: [queued, ready, failedJob],
    loadJob: [building, ready, failedJob],
    refreshJob: [refreshed, building, failedJob],
  },
  errors: {
    downloadPdf: [tooLarge, offline],
    startJob: [offline],
    loadJob: [offline],
    refreshJob: [offline],
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
      '#documentJob.refreshing',
    ]);
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });
});

describe('documentJob machine: coverage file', () => {
  it('docs/statecharts/coverage/documentJob.json is what its paths cover', () => matchCoverageFile(model));
});
