import { assign, setup } from 'xstate';
import type { ApiFailure } from '../contract/envelope';
import type { ImportReport } from '../contract/scores';
import { asFailure } from './failure';
import { missingPromise } from './missing';

/**
 * Marks from paper (a CSV into one grid), on the bulk import's shape: the file is checked on the server
 * (the dry run) and its report shown, row by row; then its good rows are imported, the same file sent
 * again. Choosing another file checks again; a refusal keeps the file chosen and says why. The page
 * only renders this machine.
 */

export interface MarksImportContext {
  /** The form last checked (the file, and the reason a submitted grid needs), sent again to import. */
  form: FormData | null;
  report: ImportReport | null;
  /** The server's sentence on the last check or import. */
  message: string | null;
  failure: ApiFailure | null;
}

export type MarksImportEvent = { type: 'marks.check'; form: FormData } | { type: 'marks.import' };

/** What the check and the import answer: the report, and the sentence the portal said. */
export interface MarksAnswer {
  report: ImportReport;
  message?: string;
}

export const marksImportMachine = setup({
  types: {
    context: {} as MarksImportContext,
    events: {} as MarksImportEvent,
  },
  actors: {
    checkMarks: missingPromise<MarksAnswer, FormData>('marksImport', 'checkMarks'),
    importMarks: missingPromise<MarksAnswer, FormData>('marksImport', 'importMarks'),
  },
  guards: {
    anyGood: ({ context }) => (context.report?.good ?? 0) > 0,
  },
  actions: {
    answered: assign((_, answer: MarksAnswer) => ({
      report: answer.report,
      message: answer.message ?? null,
      failure: null,
    })),
  },
}).createMachine({
  id: 'marksImport',
  context: { form: null, report: null, message: null, failure: null },
  initial: 'choosing',
  states: {
    choosing: {
      on: {
        'marks.check': { target: 'checking', actions: assign({ form: ({ event }) => event.form }) },
      },
    },
    checking: {
      tags: ['busy'],
      invoke: {
        id: 'checkMarks',
        src: 'checkMarks',
        input: ({ context }) => context.form!,
        onDone: { target: 'reviewed', actions: { type: 'answered', params: ({ event }) => event.output } },
        onError: {
          target: 'choosing',
          // The report of another file no longer applies.
          actions: assign({ report: null, message: null, failure: ({ event }) => asFailure(event.error) }),
        },
      },
    },
    reviewed: {
      on: {
        'marks.import': { guard: 'anyGood', target: 'importing' },
        'marks.check': { target: 'checking', actions: assign({ form: ({ event }) => event.form }) },
      },
    },
    importing: {
      tags: ['busy'],
      invoke: {
        id: 'importMarks',
        src: 'importMarks',
        input: ({ context }) => context.form!,
        onDone: {
          target: 'done',
          // The page says the sentence where the report is (a status region), not in a toast as well.
          actions: { type: 'answered', params: ({ event }) => event.output },
        },
        // The check still stands: the board may try the import again, or choose another file.
        onError: { target: 'reviewed', actions: assign({ failure: ({ event }) => asFailure(event.error) }) },
      },
    },
    done: {
      on: {
        'marks.check': { target: 'checking', actions: assign({ form: ({ event }) => event.form }) },
      },
    },
  },
});
