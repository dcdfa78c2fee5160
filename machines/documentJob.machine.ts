import { assign, setup } from 'xstate';
import { DOCUMENT_DOWNLOAD_MINUTES, type DocumentJob } from '../contract/documents';
import type { ApiFailure } from '../contract/envelope';
import { asFailure } from './failure';
import { missingPromise } from './missing';

/**
 * One document's PDF, as Print Documents downloads it. Up to the inline limit the server streams it at
 * once (`downloading`); a larger one it refuses with 413, and the board may then have it built on the
 * job queue: the job is started, asked after a delay how far it has got, and so on until it is ready
 * or has failed (built again on request). A ready job's answer carries a signed link to its file, which
 * the page shows as a plain link: the browser downloads it by itself, and resumes it when the link
 * breaks (no script holds the file). The link lives DOCUMENT_DOWNLOAD_MINUTES; while the page stays
 * open, the job is read again every LINK_REFRESH_MS for a fresh one, so a link clicked has at least
 * three quarters of its time left to be resumed in (a lost read keeps the link it had). A lost
 * answer while polling is a failure the user may retry: the job goes on on the server meanwhile, so a
 * retry asks after the same job rather than starting another. The page only renders this machine; a
 * new choice of document or parameters is a new machine.
 */

export const JOB_POLL_MS = 2_000;
/** How often a ready job is read again for a fresh download link: a quarter of the link's life. */
export const LINK_REFRESH_MS = (DOCUMENT_DOWNLOAD_MINUTES * 60_000) / 4;

/** Which document, chosen by which query (the chooser's values, empty ones left out). */
export interface DocumentJobInput {
  ending: string;
  query: Record<string, string>;
}

interface DocumentJobContext extends DocumentJobInput {
  /** The job as the server last described it. */
  job: DocumentJob | null;
  /** Why the last step failed: a refusal, a lost connection, or the job's own failure. */
  failure: ApiFailure | null;
}

export type DocumentJobEvent = { type: 'pdf.download' } | { type: 'pdf.build' } | { type: 'pdf.retry' };

/** The job as the server described it, and its own failure in its words. */
const described = (job: DocumentJob) => ({
  job,
  failure:
    job.state === 'failed'
      ? ({
          status: 0,
          message: job.message ?? 'The PDF could not be built.',
          fields: {},
        } satisfies ApiFailure)
      : null,
});

/** The 413 the server answers for a PDF past the inline limit. */
const TOO_LARGE = 413;

/** A start's or a poll's answer describes the job; a failed call is the failure (both actors alike). */
const describe = {
  type: 'describeJob',
  params: ({ event }: { event: { output?: unknown } }) => event.output as DocumentJob,
} as const;
const fail = {
  type: 'recordFailure',
  params: ({ event }: { event: { error?: unknown } }) => event.error,
} as const;

export const documentJobMachine = setup({
  types: {
    input: {} as DocumentJobInput,
    context: {} as DocumentJobContext,
    events: {} as DocumentJobEvent,
  },
  actors: {
    /** Streams the PDF to the browser's downloads. */
    downloadPdf: missingPromise<void, DocumentJobInput>('documentJob', 'downloadPdf'),
    startJob: missingPromise<DocumentJob, DocumentJobInput>('documentJob', 'startJob'),
    loadJob: missingPromise<DocumentJob, { id: number }>('documentJob', 'loadJob'),
  },
  delays: {
    poll: JOB_POLL_MS,
    linkRefresh: LINK_REFRESH_MS,
  },
  guards: {
    tooLarge: ({ event }) => asFailure((event as unknown as { error?: unknown }).error).status === TOO_LARGE,
    // Where a job's description leads (read from a start's or a poll's done event).
    jobIs: ({ event }, params: { state: DocumentJob['state'] }) =>
      (event as unknown as { output?: DocumentJob }).output?.state === params.state,
    // A job the server is still building (a poll was lost, not the job).
    jobAlive: ({ context }) => context.job !== null && context.job.state !== 'failed',
  },
  actions: {
    clearFailure: assign({ failure: null }),
    // A start's or a poll's answer, and a failed call: the same for both (params from the event).
    describeJob: assign((_, job: DocumentJob) => described(job)),
    recordFailure: assign((_, error: unknown) => ({ failure: asFailure(error) })),
  },
}).createMachine({
  id: 'documentJob',
  context: ({ input }) => ({ ...input, job: null, failure: null }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'pdf.download': { target: 'downloading', actions: 'clearFailure' } },
    },
    downloading: {
      tags: ['busy'],
      invoke: {
        id: 'downloadPdf',
        src: 'downloadPdf',
        input: ({ context }) => ({ ending: context.ending, query: context.query }),
        onDone: { target: 'idle' },
        onError: [
          {
            guard: 'tooLarge',
            target: 'tooLarge',
            actions: assign({ failure: ({ event }) => asFailure(event.error) }),
          },
          { target: 'idle', actions: assign({ failure: ({ event }) => asFailure(event.error) }) },
        ],
      },
    },
    // Too many rows or cards to stream: the server's sentence says so; the board may have it built.
    tooLarge: {
      tags: ['tooLarge'],
      on: { 'pdf.build': { target: 'starting' } },
    },
    starting: {
      tags: ['busy', 'building'],
      invoke: {
        id: 'startJob',
        src: 'startJob',
        input: ({ context }) => ({ ending: context.ending, query: context.query }),
        onDone: [
          { guard: { type: 'jobIs', params: { state: 'ready' } }, target: 'ready', actions: describe },
          { guard: { type: 'jobIs', params: { state: 'failed' } }, target: 'failed', actions: describe },
          { target: 'waiting', actions: describe },
        ],
        onError: { target: 'failed', actions: fail },
      },
    },
    waiting: {
      tags: ['building'],
      after: { poll: 'polling' },
    },
    polling: {
      tags: ['building'],
      invoke: {
        id: 'loadJob',
        src: 'loadJob',
        input: ({ context }) => ({ id: context.job!.id }),
        onDone: [
          { guard: { type: 'jobIs', params: { state: 'ready' } }, target: 'ready', actions: describe },
          { guard: { type: 'jobIs', params: { state: 'failed' } }, target: 'failed', actions: describe },
          { target: 'waiting', actions: describe },
        ],
        onError: { target: 'failed', actions: fail },
      },
    },
    failed: {
      tags: ['failed'],
      on: {
        'pdf.retry': [
          // The poll was lost, not the job: ask after the same job again.
          { guard: 'jobAlive', target: 'polling', actions: 'clearFailure' },
          { target: 'starting', actions: ['clearFailure', assign({ job: null })] },
        ],
      },
    },
    // The file is downloaded by the browser through the job's link (the view's <a download>).
    ready: {
      tags: ['ready'],
      after: { linkRefresh: 'refreshing' },
    },
    // Read again for a fresh link; a lost answer keeps the link it had (tried again after the delay).
    refreshing: {
      tags: ['ready'],
      invoke: {
        id: 'refreshJob',
        src: 'loadJob',
        input: ({ context }) => ({ id: context.job!.id }),
        onDone: [
          { guard: { type: 'jobIs', params: { state: 'ready' } }, target: 'ready', actions: describe },
          { guard: { type: 'jobIs', params: { state: 'failed' } }, target: 'failed', actions: describe },
          { target: 'waiting', actions: describe },
        ],
        onError: { target: 'ready' },
      },
    },
  },
});
