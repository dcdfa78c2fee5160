import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentCell, Photocard } from '../../contract/documents';
import { printPhotoOf } from '../../server/candidates/printPhoto';
import { drawPdf } from '../../server/documents/pdf';
import { printPdf, warmPdfWorker, warmPdfWorkers } from '../../server/documents/pdfThread';
import { createLocalStorage } from '../../server/storage/local';
import { newKey, type Storage } from '../../server/storage/storage';
import { cardsOf, drawToBytes, inBatches, pdfPages, printingOf, rowsOf, verificationOf } from './pdfs';

/**
 * A print's PDF drawn in a worker thread (server/documents/pdfThread.ts) while this thread reads its
 * rows and photos: the same PDF as drawn here, its failures on either side failing the print (never a
 * PDF that looks whole), and never more worker drawings than processors.
 */

let dir: string;
let storage: Storage;
let photoKey: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-thread-test-'));
  storage = createLocalStorage(dir);
  const raw = Buffer.alloc(600 * 750 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919) % 251;
  const small = await printPhotoOf(
    new Uint8Array(
      await sharp(raw, { raw: { width: 600, height: 750, channels: 3 } })
        .jpeg()
        .toBuffer(),
    ),
  );
  photoKey = newKey('candidates', 'jpg');
  await storage.put(photoKey, small.bytes, small.contentType);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const indexOf = (i: number) => `WHB/26/A1/${String(i + 1).padStart(6, '0')}`;

const card = (i: number): Photocard => ({
  photo: i % 4 === 3 ? null : photoKey,
  surname: i % 2 ? 'ADÉBÁYỌ̀' : 'ƁELLO',
  otherNames: i % 2 ? 'Ọ̀jọ́ Fúnmiláyọ̀' : 'Ɗanjuma Ƙasimu',
  candidateIndex: indexOf(i),
  sex: i % 2 ? 'Male' : 'Female',
  dateOfBirth: '14/02/2003',
  courseHeader: 'A1 General Nursing',
  school: 'SHT-IB School of Health Technology, Ibadan',
  papers: ['A1 Paper I', 'A1 Paper II'],
  diet: 'MAY2026',
  verification: verificationOf(`CARD-${String(i).padStart(4, '0')}-XQ`),
});

const COLUMNS = [
  { label: 'S/N', align: 'right' as const },
  { label: 'Index number', width: 1.6 },
  { label: 'Name' },
];
const row = (i: number): DocumentCell[] => [String(i + 1), indexOf(i), 'NWÁCHUKWU Ngọzị Ụchẹ'];

/** A list and photocards in one print: rows, cards (with their photos), in batches, as builders give them. */
const mixed = (rows: number, cards: number) =>
  printingOf([
    { kind: 'table', columns: COLUMNS, count: rows, rows: inBatches(rowsOf(rows, row), 100) },
    { kind: 'cards', count: cards, cards: inBatches(cardsOf(cards, card), 9) },
  ]);

describe('a PDF drawn in a worker thread', () => {
  it('is warmed at the start: a print asked meanwhile waits for that worker, and the next is drawn by it too', async () => {
    const warming = warmPdfWorker(storage);
    // Asked while the warm-up draws: drawn by the warming worker once it is free, not by a second one.
    const first = await drawToBytes(mixed(5, 1), storage, printPdf);
    await warming;
    expect(first.inWorker).toBe(true);
    expect(warmPdfWorkers()).toBe(1);
    const { inWorker } = await drawToBytes(mixed(5, 1), storage, printPdf);
    expect(inWorker).toBe(true);
    expect(warmPdfWorkers()).toBe(1);
  });

  it('is the PDF drawn in this thread, page for page, its print finished once and its progress told', async () => {
    const here = await drawToBytes(mixed(300, 30), storage);
    const printing = mixed(300, 30);
    const progress: number[] = [];
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const drawn = await printPdf(printing, { storage, out, progress: (done) => progress.push(done) });
    expect(drawn.inWorker).toBe(true);
    expect(drawn.pages).toBe(here.pages);
    expect(pdfPages(new Uint8Array(Buffer.concat(chunks)))).toEqual(pdfPages(here.bytes));
    expect(printing.finished).toBe(1);
    expect(progress.at(-1)).toBe(330);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('carries the photos: the same photos printed, and "No photo" where there is none', async () => {
    const { bytes, inWorker } = await drawToBytes(mixed(0, 8), storage, printPdf);
    expect(inWorker).toBe(true);
    const text = pdfPages(bytes).join('\n');
    expect(text.match(/No photo/g)).toHaveLength(2);
    // Six photos of about 6 KB each are in the file, not left behind in this thread.
    const small = (await storage.get(photoKey))!.bytes.byteLength;
    expect(bytes.byteLength).toBeGreaterThan(small);
    const { bytes: here } = await drawToBytes(mixed(0, 8), storage);
    expect(Math.abs(bytes.byteLength - here.byteLength)).toBeLessThan(64);
  });

  it('keeps a worker that drew its print whole warm for the next, and ends one whose print failed', async () => {
    await drawToBytes(mixed(10, 1), storage, printPdf);
    const warm = warmPdfWorkers();
    expect(warm).toBeGreaterThanOrEqual(1);
    const started = performance.now();
    const again = await drawToBytes(mixed(10, 1), storage, printPdf);
    expect(again.inWorker).toBe(true);
    expect(warmPdfWorkers()).toBe(warm);
    // A warm worker has pdfkit and the fonts loaded: a one-page print is drawn at once.
    expect(performance.now() - started).toBeLessThan(2000);
    async function* failing(): AsyncIterable<DocumentCell[][]> {
      yield [row(0)];
      throw new Error('refused');
    }
    const printing = printingOf([{ kind: 'table', columns: COLUMNS, count: 400, rows: failing() }]);
    await expect(printPdf(printing, { storage, out: new PassThrough().resume() })).rejects.toThrow('refused');
    expect(warmPdfWorkers()).toBe(warm - 1);
  });

  it('fails with the reading’s own error when a batch cannot be read, and cuts the PDF off', async () => {
    const refused = new Error('the database refused the second page');
    async function* failing(): AsyncIterable<DocumentCell[][]> {
      yield [row(0), row(1)];
      throw refused;
    }
    const printing = printingOf([{ kind: 'table', columns: COLUMNS, count: 400, rows: failing() }]);
    const out = new PassThrough().resume();
    const outError = new Promise((resolve) => out.once('error', resolve));
    await expect(printPdf(printing, { storage, out })).rejects.toBe(refused);
    expect(await outError).toBe(refused);
    expect(printing.finished).toBe(0);
  });

  it('stops when its reader goes away part-way', async () => {
    const printing = mixed(20_000, 0);
    const out = new PassThrough();
    let read = 0;
    out.on('data', (chunk: Buffer) => {
      read += chunk.byteLength;
      if (read > 10_000) out.destroy();
    });
    await expect(printPdf(printing, { storage, out })).rejects.toThrow(/reader went away/);
    expect(printing.finished).toBe(0);
  });

  it('draws at most one print a processor in a worker; the others in this thread, all whole', async () => {
    const prints = availableParallelism() + 2;
    const drawn = await Promise.all(
      Array.from({ length: prints }, () => drawToBytes(mixed(200, 10), storage, printPdf)),
    );
    expect(drawn.filter((d) => d.inWorker)).toHaveLength(availableParallelism());
    const expected = pdfPages((await drawToBytes(mixed(200, 10), storage, drawPdf)).bytes);
    for (const { bytes } of drawn) expect(pdfPages(bytes)).toEqual(expected);
  });
});
