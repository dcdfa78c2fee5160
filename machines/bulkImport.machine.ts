import { assign, emit, setup } from 'xstate';
import { BULK_LIMITS, type BulkReport } from '../contract/bulkIndexing';
import type { ApiFailure } from '../contract/envelope';
import { asFailure } from './failure';
import { missingPromise } from './missing';
import type { NotifyEmitted } from './notify';

/**
 * Bulk indexing (contract/bulkIndexing.ts), one batch at a time: the files chosen are checked on the
 * server (the dry run) and its report shown; then the good rows are imported a chunk at a time, each
 * chunk one request, the progress shown as the report comes back. A chunk that fails (a lost connection)
 * pauses the import where it was, with a way on; a chunk sent again indexes nobody twice (the server's
 * submission key a row), so trying again is always safe. The page only renders this machine.
 */

export interface BulkImportContext {
  report: BulkReport | null;
  /** The dry run's refusal (a 422's field messages: the CSV, the zip), or the last chunk's failure. */
  failure: ApiFailure | null;
}

export type BulkImportEvent =
  | { type: 'bulk.check'; files: FormData }
  | { type: 'bulk.import' }
  | { type: 'bulk.retry' }
  | { type: 'bulk.restart' };

export type BulkImportEmitted = NotifyEmitted;

/** The next rows the import asks for: after those it has gone through. */
export const nextChunk = (report: BulkReport) => ({
  id: report.id,
  from: report.imported_through + 1,
  count: BULK_LIMITS.chunk,
});

export const bulkImportMachine = setup({
  types: {
    context: {} as BulkImportContext,
    events: {} as BulkImportEvent,
    emitted: {} as BulkImportEmitted,
  },
  actors: {
    checkFiles: missingPromise<BulkReport, FormData>('bulkImport', 'checkFiles'),
    importChunk: missingPromise<BulkReport, { id: number; from: number; count: number }>(
      'bulkImport',
      'importChunk',
    ),
  },
  guards: {
    anyGood: ({ context }) => (context.report?.good ?? 0) > 0,
    finished: ({ event }) => (event as unknown as { output: BulkReport }).output.finished,
  },
}).createMachine({
  id: 'bulkImport',
  context: { report: null, failure: null },
  initial: 'choosing',
  states: {
    choosing: {
      on: { 'bulk.check': { target: 'checking' } },
    },
    checking: {
      tags: ['busy'],
      invoke: {
        id: 'checkFiles',
        src: 'checkFiles',
        input: ({ event }) => (event as Extract<BulkImportEvent, { type: 'bulk.check' }>).files,
        onDone: {
          target: 'reviewed',
          actions: assign({ report: ({ event }) => event.output, failure: null }),
        },
        onError: {
          target: 'choosing',
          actions: [
            // The files checked before no longer apply: their report goes with them.
            assign({ report: null, failure: ({ event }) => asFailure(event.error) }),
            emit(({ event }) => ({
              type: 'notify' as const,
              tone: 'error' as const,
              message: asFailure(event.error).message,
            })),
          ],
        },
      },
    },
    reviewed: {
      on: {
        'bulk.import': { guard: 'anyGood', target: 'importing' },
        'bulk.check': { target: 'checking' },
        'bulk.restart': { target: 'choosing', actions: assign({ report: null, failure: null }) },
      },
    },
    importing: {
      tags: ['busy'],
      invoke: {
        id: 'importChunk',
        src: 'importChunk',
        input: ({ context }) => nextChunk(context.report!),
        onDone: [
          {
            guard: 'finished',
            target: 'done',
            actions: [
              assign({ report: ({ event }) => event.output, failure: null }),
              emit(({ event }) => ({
                type: 'notify' as const,
                tone: 'success' as const,
                message: `${event.output.indexed.length} candidates indexed.`,
              })),
            ],
          },
          {
            target: 'importing',
            reenter: true,
            actions: assign({ report: ({ event }) => event.output, failure: null }),
          },
        ],
        onError: {
          target: 'paused',
          actions: assign({ failure: ({ event }) => asFailure(event.error) }),
        },
      },
    },
    // A chunk failed: what was indexed stays; trying again asks for the same rows.
    paused: {
      tags: ['failed'],
      on: {
        'bulk.retry': { target: 'importing' },
        'bulk.restart': { target: 'choosing', actions: assign({ report: null, failure: null }) },
      },
    },
    done: {
      on: { 'bulk.restart': { target: 'choosing', actions: assign({ report: null, failure: null }) } },
    },
  },
});
