import jsQR from 'jsqr';
import * as mupdf from 'mupdf';
import { PassThrough } from 'node:stream';
import type { DocumentCell, Photocard, PrintedDocument, Verification } from '../../contract/documents';
import { BOARD_NAME } from '../../contract/documents';
import type { Printing, PrintingBlock } from '../../server/documents/builder';
import { drawPdf, type PdfTarget } from '../../server/documents/pdf';
import { verificationOf as pipelineVerification } from '../../server/documents/qr';
import type { Storage } from '../../server/storage/storage';

/**
 * What the PDF tests read a PDF with: mupdf (the PDF library of MuPDF, as WebAssembly) for each page's
 * text and for the page as pixels, and jsQR for the QR code in those pixels. Nothing of pdfkit's: the
 * PDF is read as a reader's viewer would read it.
 */

/** Each page's text, as mupdf extracts it. */
export function pdfPages(bytes: Uint8Array): string[] {
  const document = mupdf.Document.openDocument(bytes, 'application/pdf');
  const pages: string[] = [];
  for (let i = 0; i < document.countPages(); i++) {
    pages.push(document.loadPage(i).toStructuredText('preserve-whitespace').asText());
  }
  document.destroy();
  return pages;
}

/**
 * The QR code drawn in a page's region (in points from the top left), decoded: the page rendered at
 * `scale` × 72 dpi, the region cut out, and jsQR run over it. Null when no code is read.
 */
export function decodeQr(
  bytes: Uint8Array,
  pageIndex: number,
  region: { x: number; y: number; width: number; height: number },
  scale = 4,
): string | null {
  const document = mupdf.Document.openDocument(bytes, 'application/pdf');
  const page = document.loadPage(pageIndex);
  const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
  const [width, stride, components] = [pixmap.getWidth(), pixmap.getStride(), pixmap.getNumberOfComponents()];
  const pixels = pixmap.getPixels();
  const left = Math.round(region.x * scale);
  const top = Math.round(region.y * scale);
  const cutWidth = Math.min(Math.round(region.width * scale), width - left);
  const cutHeight = Math.round(region.height * scale);
  const rgba = new Uint8ClampedArray(cutWidth * cutHeight * 4);
  for (let y = 0; y < cutHeight; y++) {
    for (let x = 0; x < cutWidth; x++) {
      const from = (top + y) * stride + (left + x) * components;
      const to = (y * cutWidth + x) * 4;
      rgba[to] = pixels[from];
      rgba[to + 1] = pixels[from + 1];
      rgba[to + 2] = pixels[from + 2];
      rgba[to + 3] = 255;
    }
  }
  document.destroy();
  return jsQR(rgba, cutWidth, cutHeight)?.data ?? null;
}

/** A verification as the pipeline makes one (server/documents/qr.ts), for a code of our own. */
export const verificationOf = (code: string): Verification =>
  pipelineVerification(code, 'https://portal.example.org');

/** Items in batches, as a builder's keyset pages give them. */
export async function* inBatches<T>(items: Iterable<T>, size = 500): AsyncIterable<T[]> {
  let batch: T[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** A table's rows made as they are read, never all at once. */
export function* rowsOf(count: number, row: (i: number) => DocumentCell[]): Iterable<DocumentCell[]> {
  for (let i = 0; i < count; i++) yield row(i);
}

export function* cardsOf(count: number, card: (i: number) => Photocard): Iterable<Photocard> {
  for (let i = 0; i < count; i++) yield card(i);
}

export interface TestPrinting extends Printing {
  finished: number;
}

/** A Printing made by hand (the pipeline's own is tested with it once merged). */
export function printingOf(
  blocks: PrintingBlock[],
  head: Partial<Omit<PrintedDocument, 'blocks'>> = {},
): TestPrinting {
  const count = blocks.reduce(
    (sum, block) => sum + (block.kind === 'table' || block.kind === 'cards' ? block.count : 0),
    0,
  );
  const printing: TestPrinting = {
    id: 1,
    count,
    finished: 0,
    head: {
      ending: 'indexed-candidate-list',
      title: 'Indexed candidate list',
      board: BOARD_NAME,
      heading: [
        { label: 'Diet', value: 'MAY2026 (May 2026)' },
        { label: 'Training school', value: 'SHT-IB School of Health Technology, Ibadan' },
      ],
      printedAt: '2026-11-26T10:05:00.000Z',
      printedBy: 'Adébáyọ̀ Ọ̀jọ́ (board admin)',
      verification: verificationOf('K7Q2-M9XD-4HTB'),
      ...head,
    },
    blocks,
    async finish() {
      printing.finished += 1;
    },
  };
  return printing;
}

/** The PDF drawn into memory (the tests' PDFs are small enough), with its page count. */
export async function drawToBytes<T extends { pages: number }>(
  printing: Printing,
  storage: Storage,
  draw: (printing: Printing, target: PdfTarget) => Promise<T> = drawPdf as never,
): Promise<T & { bytes: Uint8Array }> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => out.once('end', resolve));
  const drawn = await draw(printing, { storage, out });
  await ended;
  return { ...drawn, bytes: new Uint8Array(Buffer.concat(chunks)) };
}
