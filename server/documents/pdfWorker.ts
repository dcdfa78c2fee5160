import { Writable } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import type { Photocard, DocumentCell } from '../../contract/documents';
import type { Storage } from '../storage/storage';
import type { Printing, PrintingBlock } from './builder';
import { drawPdf } from './pdf';
import type { Notice, Question, ToWorker, WorkerStart } from './pdfThread';

/**
 * The worker thread that draws prints' PDFs (server/documents/pdfThread.ts), one at a time:
 * server/documents/pdf.ts's drawing, given a print whose rows, photos, output and finish are asked of
 * the thread that started it.
 */

const port = parentPort!;

type Asked = Question extends infer Q ? (Q extends { id: number } ? Omit<Q, 'id'> : never) : never;
const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
let asked = 0;

function ask<T>(question: Asked, transfer: ArrayBuffer[] = []): Promise<T> {
  const id = ++asked;
  return new Promise<T>((resolve, reject) => {
    waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
    port.postMessage({ ...question, id } as Question, transfer);
  });
}

port.on('message', (message: ToWorker) => {
  if ('type' in message) {
    draw(message.print);
    return;
  }
  const answer = message;
  const question = waiting.get(answer.id);
  if (!question) return;
  waiting.delete(answer.id);
  if ('refused' in answer) question.reject(new Error(answer.refused));
  else question.resolve(answer.value);
});

const tell = (notice: Notice) => port.postMessage(notice);

/** A block's batches, asked for one at a time (pdf.ts reads the next while it draws one). */
function batchesOf<T>(block: number): AsyncIterable<readonly T[]> {
  return {
    [Symbol.asyncIterator]: () => ({
      async next() {
        const batch = await ask<readonly T[] | null>({ type: 'batch', block });
        return batch === null ? { done: true, value: undefined } : { done: false, value: batch };
      },
    }),
  };
}

/** Only `get` is used by the drawing: the print photos. */
const storage = {
  get: async (key: string) => {
    const bytes = await ask<Uint8Array | null>({ type: 'photo', key });
    return bytes && { bytes, contentType: 'image/jpeg' };
  },
} as unknown as Storage;

function draw(start: WorkerStart) {
  const blocks: PrintingBlock[] = start.blocks.map((block, i) =>
    block.kind === 'table'
      ? { ...block, rows: batchesOf<DocumentCell[]>(i) }
      : block.kind === 'cards'
        ? { kind: 'cards', count: block.count, cards: batchesOf<Photocard>(i) }
        : block,
  );

  const printing: Printing = {
    id: start.id,
    head: start.head,
    count: start.count,
    blocks,
    finish: () => ask<void>({ type: 'finish' }),
  };

  // The PDF's bytes, handed over in pieces as large as were written meanwhile, each once there was room.
  const out = new Writable({
    highWaterMark: 256 * 1024,
    writev(chunks, callback) {
      const whole = new Uint8Array(chunks.reduce((sum, { chunk }) => sum + (chunk as Buffer).byteLength, 0));
      let at = 0;
      for (const { chunk } of chunks) {
        whole.set(chunk as Buffer, at);
        at += (chunk as Buffer).byteLength;
      }
      ask({ type: 'write', bytes: whole }, [whole.buffer]).then(() => callback(), callback);
    },
  });

  drawPdf(printing, { storage, out, progress: (done) => tell({ type: 'progress', done }) }).then(
    ({ pages }) => tell({ type: 'drawn', pages }),
    (error: unknown) =>
      tell({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
}
