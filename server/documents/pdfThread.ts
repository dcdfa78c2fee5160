import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import { BOARD_NAME, type PrintedDocument } from '../../contract/documents';
import type { Printing, PrintingBlock } from './builder';
import { drawPdf, type PdfTarget } from './pdf';
import { verificationOf } from './qr';

/**
 * A print's PDF drawn in a worker thread of its own (./pdfWorker.ts), while this thread reads its rows
 * from the database and its photos from the storage, and writes the PDF to its reader. On PGlite the
 * database runs in this thread (WebAssembly): drawn here, reading and drawing took turns on one core,
 * and 5,000 photocards took 11.8 s where PostgreSQL, reading in a process of its own, took 9.3 s
 * (docs/performance.md). The rest of the portal is answered meanwhile as well.
 *
 * The worker asks and this thread answers (the next batch of a block, a photo, room to write, the
 * print's `finish`), so the drawing itself is server/documents/pdf.ts's, unchanged, on either side. At
 * most one drawing a processor runs in a worker; beyond that a print is drawn in this thread, as before:
 * never more threads than the machine has, never a print waiting for one. A worker that drew a print
 * whole waits, warm, for the next (loading pdfkit and the fonts takes a worker about 0.3 s), and ends
 * after IDLE_MS without one.
 */

/** What the worker asks; each question is answered with its `id`. */
export type Question =
  | { id: number; type: 'batch'; block: number }
  | { id: number; type: 'photo'; key: string }
  | { id: number; type: 'write'; bytes: Uint8Array }
  | { id: number; type: 'finish' };

/** What this thread tells the worker: a print to draw, or an answer. */
export type ToWorker = { type: 'print'; print: WorkerStart } | Answer;

/** What the worker tells without waiting for an answer. */
export type Notice =
  { type: 'progress'; done: number } | { type: 'drawn'; pages: number } | { type: 'failed'; message: string };

type Answer = { id: number; value: unknown } | { id: number; refused: string };

/** A block as it crosses to the worker: its rows or cards stay here and are asked for batch by batch. */
type BlockOutline =
  | Exclude<PrintingBlock, { kind: 'table' } | { kind: 'cards' }>
  | (Omit<Extract<PrintingBlock, { kind: 'table' }>, 'rows'> & { rows: null })
  | { kind: 'cards'; count: number; cards: null };

export interface WorkerStart {
  id: number;
  head: Omit<PrintedDocument, 'blocks'>;
  count: number;
  blocks: BlockOutline[];
}

const outline = (block: PrintingBlock): BlockOutline =>
  block.kind === 'table'
    ? { ...block, rows: null }
    : block.kind === 'cards'
      ? { kind: 'cards', count: block.count, cards: null }
      : block;

let drawing = 0;
const WORKERS = availableParallelism();
/** How long a warm worker waits for another print before it ends. */
const IDLE_MS = 10 * 60_000;

/** Workers that drew their last print whole, waiting for the next; each with the timer that ends it. */
const idle: { worker: Worker; timer: NodeJS.Timeout }[] = [];

/** Workers waiting, warm, for a print. */
export const warmPdfWorkers = () => idle.length;

/** The warm-up's drawing while it runs (warmPdfWorker): a print asked meanwhile waits for its worker. */
let warming: Promise<void> | null = null;

async function takeWorker(): Promise<Worker> {
  // Waiting for the warm-up to end costs less than loading and warming a second worker beside it.
  if (!idle.length && warming) await warming;
  const warm = idle.pop();
  if (warm) {
    clearTimeout(warm.timer);
    warm.worker.ref();
    return warm.worker;
  }
  return newWorker();
}

async function newWorker(): Promise<Worker> {
  const worker = new Worker(await workerFile());
  // A worker that ends while it waits (it never should) is no longer offered.
  worker.once('exit', () => {
    const at = idle.findIndex((w) => w.worker === worker);
    if (at >= 0) idle.splice(at, 1).forEach((w) => clearTimeout(w.timer));
  });
  return worker;
}

/**
 * Kept warm for the next print; it never keeps the portal running. Beyond the first, a warm worker ends
 * after IDLE_MS unused: one always stays, so a print after a quiet hour is as fast as the one before.
 */
function keepWarm(worker: Worker) {
  worker.unref();
  const timer = setTimeout(() => {
    const at = idle.findIndex((w) => w.worker === worker);
    if (at < 0 || idle.length === 1) return;
    idle.splice(at, 1);
    void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  idle.push({ worker, timer });
}

/**
 * Draws the print as server/documents/pdf.ts's drawPdf does, in a worker thread when one is free;
 * answers its page count and where it was drawn.
 */
export async function printPdf(
  printing: Printing,
  target: PdfTarget,
): Promise<{ pages: number; inWorker: boolean }> {
  if (drawing >= WORKERS) return { ...(await drawPdf(printing, target)), inWorker: false };
  drawing++;
  try {
    return { ...(await inWorker(await takeWorker(), printing, target)), inWorker: true };
  } finally {
    drawing--;
  }
}

/**
 * Starts a worker and has it draw a few pages no one sees, so that the first print a user asks for after
 * a start does not also pay for loading pdfkit and the fonts, and for running their code cold: a
 * one-row warm-up left a 5,000-row list's first print 0.8 s slower than the next (docs/performance.md).
 * `npm start` calls it once the portal answers (server/main.ts); a print asked meanwhile waits for this
 * worker (takeWorker). A failure only means the first print warms a worker itself.
 */
export function warmPdfWorker(storage: PdfTarget['storage']): Promise<void> {
  if (warming) return warming;
  const out = new Writable({ write: (_chunk, _encoding, done) => done() });
  const run = (async () => {
    drawing++;
    try {
      await inWorker(await newWorker(), warmUpPrint(), { storage, out });
    } finally {
      drawing--;
      warming = null;
    }
  })();
  warming = run.catch(() => {});
  return run;
}

/** Names in the scripts a list prints (tone marks, subdots, hooked letters) for the warm-up's rows. */
const WARM_UP_NAMES = [
  'ADÉBÁYỌ̀',
  'Ọ̀jọ́',
  'Ngọzị',
  'Ụchẹ',
  'ƁELLO',
  'Ɗanjuma',
  'Ƙasimu',
  'OKONKWO',
  'Chiamaka',
  'Ƴusuf',
  'Fatima',
  'ṢỌ́LÁ',
];
const WARM_UP_ROWS = 200;

/** Five pages of a list as a board prints one, with the same kinds of cells; never stored or shown. */
function warmUpPrint(): Printing {
  const rows = async function* () {
    yield Array.from({ length: WARM_UP_ROWS }, (_, i) => [
      String(i + 1),
      `WARM/UP/${String(i + 1).padStart(6, '0')}`,
      `${WARM_UP_NAMES[i % WARM_UP_NAMES.length]} ${WARM_UP_NAMES[(i * 5 + 3) % WARM_UP_NAMES.length]}`,
      i % 2 ? 'Male' : 'Female',
      `${String((i % 28) + 1).padStart(2, '0')}/0${(i % 9) + 1}/200${i % 10}`,
      'A1 General Nursing',
      i % 3 ? 'Verified' : 'Not verified',
    ]);
  };
  return {
    id: 0,
    count: WARM_UP_ROWS,
    head: {
      ending: 'candidate-list',
      title: 'Warm-up',
      board: BOARD_NAME,
      heading: [{ label: 'Diet', value: 'Warm-up' }],
      printedAt: new Date().toISOString(),
      printedBy: 'The portal',
      verification: verificationOf('WARM-UP0-0000', 'http://localhost'),
    },
    blocks: [
      {
        kind: 'table',
        columns: [
          { label: 'S/N', width: 0.5, align: 'right' },
          { label: 'Index number', width: 1.6 },
          { label: 'Name', width: 2.2 },
          { label: 'Sex', width: 0.7 },
          { label: 'Date of birth', width: 1 },
          { label: 'Course header', width: 1.6 },
          { label: 'Status', width: 1.3 },
        ],
        count: WARM_UP_ROWS,
        rows: rows(),
      },
    ],
    finish: async () => {},
  };
}

/** Bytes of their own (a pooled Buffer's view would carry its whole pool), to hand over without copying. */
const own = (bytes: Uint8Array) => new Uint8Array(bytes);

async function inWorker(worker: Worker, printing: Printing, { storage, out, progress }: PdfTarget) {
  const batches = printing.blocks.map((block) =>
    block.kind === 'table'
      ? block.rows[Symbol.asyncIterator]()
      : block.kind === 'cards'
        ? block.cards[Symbol.asyncIterator]()
        : null,
  );
  // The first failure on this side (a query, the reader gone) is the one the print fails with.
  let failure: unknown = null;
  const fail = (error: unknown) => (failure ??= error);

  const answer = async (question: Question): Promise<[unknown, ArrayBuffer[]]> => {
    switch (question.type) {
      case 'batch': {
        const next = await batches[question.block]!.next();
        return [next.done ? null : next.value, []];
      }
      case 'photo': {
        const file = await storage.get(question.key);
        if (!file) return [null, []];
        const bytes = own(file.bytes);
        return [bytes, [bytes.buffer]];
      }
      case 'write':
        if (!out.write(question.bytes))
          await new Promise<void>((resolve, reject) => {
            const done = () => {
              out.off('drain', done);
              out.off('close', gone);
              resolve();
            };
            const gone = () => {
              out.off('drain', done);
              reject(new Error('The PDF’s reader went away.'));
            };
            out.once('drain', done);
            out.once('close', gone);
          });
        return [null, []];
      case 'finish':
        await printing.finish();
        return [null, []];
    }
  };

  return new Promise<{ pages: number }>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void, whole: boolean) => {
      if (settled) return;
      settled = true;
      out.off('error', broken);
      out.off('close', closedEarly);
      worker.off('message', listen);
      worker.off('error', failWith);
      worker.off('exit', exited);
      // Only a worker whose print ended whole is drawn with again; any other is ended where it is.
      if (whole) keepWarm(worker);
      else void worker.terminate();
      outcome();
    };
    const failWith = (error: unknown) =>
      settle(() => {
        const reason = failure ?? error;
        const cause = reason instanceof Error ? reason : new Error(String(reason));
        // A reader never takes a cut-off PDF for a whole one. The error is the print's, answered
        // here: `out` emitting it again must not be an uncaught one (a job's file has no listener).
        out.on('error', () => {});
        out.destroy(cause);
        reject(cause);
      }, false);
    const broken = (error: Error) => failWith(fail(error));
    const closedEarly = () => failWith(fail(new Error('The PDF’s reader went away before its end.')));
    out.once('error', broken);
    out.once('close', closedEarly);

    const listen = (message: Question | Notice) => {
      if (message.type === 'progress') progress?.(message.done);
      else if (message.type === 'failed') failWith(new Error(message.message));
      else if (message.type === 'drawn') {
        const pages = message.pages;
        out.off('close', closedEarly);
        out.end();
        // As pdf.ts's own pipeline: done when `out` has taken every byte (a file: written and closed).
        finished(out, { readable: false }).then(() => settle(() => resolve({ pages }), true), failWith);
      } else
        answer(message).then(
          ([value, transfer]) => worker.postMessage({ id: message.id, value } satisfies ToWorker, transfer),
          (error: unknown) => {
            fail(error);
            worker.postMessage({ id: message.id, refused: String(error) } satisfies ToWorker);
          },
        );
    };
    const exited = (code: number) => failWith(new Error(`The PDF drawing stopped (exit ${code}).`));
    worker.on('message', listen);
    worker.once('error', failWith);
    worker.once('exit', exited);
    const print: WorkerStart = {
      id: printing.id,
      head: printing.head,
      count: printing.count,
      blocks: printing.blocks.map(outline),
    };
    worker.postMessage({ type: 'print', print } satisfies ToWorker);
  });
}

/**
 * The worker's script: beside the bundle that `npm start` runs (scripts/start.mjs bundles it too);
 * from the sources (tests, scripts run by tsx), bundled once a process the same way, into
 * node_modules/.cache so its packages resolve as the sources' do.
 */
let bundled: Promise<URL> | null = null;
function workerFile(): Promise<URL> {
  if (!import.meta.url.endsWith('.ts')) return Promise.resolve(new URL('./pdfWorker.mjs', import.meta.url));
  bundled ??= (async () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const outfile = path.resolve(here, '../../node_modules/.cache/portal', `pdfWorker-${process.pid}.mjs`);
    process.once('exit', () => rmSync(outfile, { force: true }));
    const { build } = await import('esbuild');
    await build({
      entryPoints: [path.join(here, 'pdfWorker.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
    });
    return new URL(`file://${outfile}`);
  })();
  return bundled;
}
