import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  BOARD_NAME,
  chartValueFormat,
  type DocumentCell,
  type Photocard,
  type PrintedDocument,
} from '../../contract/documents';
import { formatDateTime } from '../../contract/format';
import type { Storage } from '../storage/storage';
import type { Printing, PrintingBlock } from './builder';
import {
  CARD_GRID,
  CONTENT_WIDTH,
  FOOT,
  HEAD,
  HEIGHTS,
  PAGE,
  bodyOf,
  isPhotoColumn,
  planPages,
  type Placement,
} from './pdfLayout';
import { BOLD, FitCache, REGULAR, drawQr, forgetLayouts, line, registerFonts } from './pdfText';

/**
 * A print as an A4 PDF (pdfkit), streamed into `out` page by page as its rows are read: the layout is
 * planned first from the blocks' counts (server/documents/pdfLayout.ts), so every page carries 'Page X
 * of Y', then each page is drawn with the rows it holds and written. What is held in memory is one
 * batch of rows (or cards and their print photos) and the PDF's small index of objects, whatever the
 * count. A slow reader slows the drawing (`out`'s backpressure), never fills the memory.
 *
 * Every page: the board's name, the document's title and heading lines, the print's QR code with its
 * short code, 'Printed <date time, Lagos> by <name>' and 'Page X of Y'. A photocard carries its own QR
 * and code besides. When every row is drawn, `printing.finish()` records what the print certified,
 * before the PDF's last bytes go out: a PDF that reaches its reader whole is a print on record.
 */

/** How much the PDF may run ahead of a slow reader before the drawing waits. */
const AHEAD_BYTES = 1 << 20;
/** Print photos read from the storage at once. */
const PHOTO_READS = 16;

const GREY = '#555555';
const RULE = '#999999';
const SHADE = '#e6e6e6';
const BAR = '#3f6aa1';

export interface PdfTarget {
  storage: Storage;
  out: Writable;
  /** Told after each page how many of the print's rows and cards are drawn (a job's progress). */
  progress?: (done: number) => void;
}

/** Draws the print into `out`, ending it; answers the page count. Rejects if `out` fails or closes early. */
export async function drawPdf(
  printing: Printing,
  { storage, out, progress }: PdfTarget,
): Promise<{ pages: number }> {
  const { head } = printing;
  // Loaded at the first print, not at start (0.1-0.2 s): prints are drawn in a worker thread, which
  // loads it while warming up (./pdfThread.ts).
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    autoFirstPage: false,
    info: {
      Title: head.title,
      Author: head.board,
      Subject: head.heading.map((h) => `${h.label}: ${h.value}`).join('; '),
      Creator: head.board,
      CreationDate: new Date(head.printedAt),
    },
  });
  registerFonts(doc);
  const fits = new FitCache(doc);

  let failure: unknown = null;
  const written = pipeline(doc, out).catch((error: unknown) => {
    failure = error ?? new Error('The PDF could not be written');
    throw failure;
  });
  // Keeps an early failure from being unhandled before it is awaited at the end.
  written.catch(() => {});

  const pages = planPages(printing.blocks, head.heading.length, {
    wholeHeight: (block) => wholeHeight(doc, block),
  });
  const readers = printing.blocks.map((block) => readerOf(block, storage));
  const body = bodyOf(head.heading.length);

  try {
    let drawn = 0;
    for (const [index, placements] of pages.entries()) {
      if (failure) throw failure;
      doc.addPage({ size: 'A4', margin: 0 });
      drawHead(doc, fits, head, index + 1, pages.length);
      for (const placement of placements) {
        const block = printing.blocks[placement.block];
        await drawPlacement(doc, fits, block, placement, readers[placement.block], body);
        if (placement.kind === 'cards') drawn += placement.to - placement.from;
        else if (placement.kind === 'items' && block.kind === 'table')
          drawn += Math.max(Math.min(placement.to, block.count) - placement.from, 0);
      }
      forgetLayouts(doc);
      progress?.(Math.min(drawn, printing.count));
      await aheadOfReader(doc, out, () => failure);
      // Other requests get their turn between pages. A list's small output never fills `out`, and its
      // rows may come without a macrotask (PGlite runs in this thread): without this, a 5,000-row list
      // held every other request of the portal, /api/health too, for the whole of its drawing.
      await nextTurn();
    }
    // Rows a count left out (the data grew since it was counted) are read to the end, not printed:
    // the paper holds what was counted when its pages were planned.
    for (const reader of readers) await reader?.drain();
    await printing.finish();
  } catch (error) {
    // `out` is destroyed with the error: a reader never takes a cut-off PDF for a whole one.
    (doc as unknown as Readable).destroy(error instanceof Error ? error : new Error(String(error)));
    await written.catch(() => {});
    throw error;
  }
  doc.end();
  await written;
  return { pages: pages.length };
}

/** Waits while the PDF is more than AHEAD_BYTES ahead of its reader. */
async function aheadOfReader(doc: PDFKit.PDFDocument, out: Writable, failed: () => unknown) {
  const readable = doc as unknown as Readable;
  while (readable.readableLength > AHEAD_BYTES) {
    if (failed()) throw failed();
    await new Promise<void>((resolve) => {
      // Looked at again soon in any case: the PDF may have flowed on without `out` ever filling.
      const timer = setTimeout(done, 20);
      out.once('drain', done);
      function done() {
        clearTimeout(timer);
        out.off('drain', done);
        resolve();
      }
    });
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* The rows and cards, read in batches with their print photos.                                    */
/* ---------------------------------------------------------------------------------------------- */

type Photo = Uint8Array | null;
interface Row {
  cells: readonly DocumentCell[];
  photos: Photo[];
}
interface Card {
  card: Photocard;
  photo: Photo;
}

/**
 * Items of one block taken in order, a batch at a time, with the next batch (and its photos) read while
 * this one is drawn: two batches in memory at most.
 */
class Reader<T> {
  private batch: T[] = [];
  private at = 0;
  private done = false;
  private ahead: Promise<{ done: boolean; items: T[] }> | null = null;
  private readonly iterator: AsyncIterator<readonly unknown[]>;
  constructor(
    source: AsyncIterable<readonly unknown[]>,
    private readonly prepare: (batch: readonly unknown[]) => Promise<T[]>,
  ) {
    this.iterator = source[Symbol.asyncIterator]();
  }
  private readAhead() {
    const read = this.iterator
      .next()
      .then(async (next) =>
        next.done ? { done: true, items: [] } : { done: false, items: await this.prepare(next.value) },
      );
    // Awaited by the next take; a drawing that stops first must not leave it unhandled.
    read.catch(() => {});
    this.ahead = read;
  }
  async take(count: number): Promise<T[]> {
    const taken: T[] = [];
    while (taken.length < count) {
      if (this.at >= this.batch.length) {
        if (this.done) break;
        if (!this.ahead) this.readAhead();
        const next = await this.ahead!;
        this.ahead = null;
        if (next.done) {
          this.done = true;
          break;
        }
        this.batch = next.items;
        this.at = 0;
        this.readAhead();
        continue;
      }
      const part = this.batch.slice(this.at, this.at + count - taken.length);
      this.at += part.length;
      taken.push(...part);
    }
    return taken;
  }
  async drain(): Promise<void> {
    if (this.ahead && (await this.ahead).done) this.done = true;
    this.ahead = null;
    while (!this.done) if ((await this.iterator.next()).done) this.done = true;
    this.batch = [];
  }
}

async function readPhotos(storage: Storage, keys: (string | null)[]): Promise<Photo[]> {
  const photos: Photo[] = new Array<Photo>(keys.length).fill(null);
  let next = 0;
  const lane = async () => {
    while (next < keys.length) {
      const i = next++;
      const key = keys[i];
      if (key) photos[i] = (await storage.get(key))?.bytes ?? null;
    }
  };
  await Promise.all(Array.from({ length: PHOTO_READS }, lane));
  return photos;
}

type AnyReader = Reader<Row> | Reader<Card>;

function readerOf(block: PrintingBlock, storage: Storage): AnyReader | null {
  if (block.kind === 'cards') {
    return new Reader<Card>(block.cards, async (batch) => {
      const cards = batch as readonly Photocard[];
      const photos = await readPhotos(
        storage,
        cards.map((card) => card.photo),
      );
      return cards.map((card, i) => ({ card, photo: photos[i] }));
    });
  }
  if (block.kind === 'table') {
    const photoColumns = block.columns.map(isPhotoColumn);
    return new Reader<Row>(block.rows, async (batch) => {
      const rows = batch as readonly DocumentCell[][];
      const keys = rows.flatMap((cells) =>
        cells.map((cell, i) => (photoColumns[i] && typeof cell === 'object' ? cell.photo : null)),
      );
      const photos = photoColumns.some(Boolean) ? await readPhotos(storage, keys) : [];
      return rows.map((cells, r) => ({
        cells,
        photos: photos.length ? photos.slice(r * cells.length, (r + 1) * cells.length) : [],
      }));
    });
  }
  return null;
}

/* ---------------------------------------------------------------------------------------------- */
/* The head and foot of every page.                                                                */
/* ---------------------------------------------------------------------------------------------- */

function drawHead(
  doc: PDFKit.PDFDocument,
  fits: FitCache,
  head: Omit<PrintedDocument, 'blocks'>,
  page: number,
  pages: number,
) {
  const { margin } = PAGE;
  const textWidth = CONTENT_WIDTH - HEAD.qr - 12;
  doc.fillColor('#000000');
  line(doc, fits.fit(head.board, BOLD, HEAD.boardSize, 8, textWidth), BOLD, margin, margin);
  line(doc, fits.fit(head.title, BOLD, HEAD.titleSize, 9, textWidth), BOLD, margin, margin + 16);
  head.heading.forEach((heading, i) => {
    const y = margin + HEAD.linesTop + i * HEAD.lineHeight;
    const label = fits.fit(`${heading.label}:`, BOLD, HEAD.lineSize, HEAD.lineSize, 110);
    line(doc, label, BOLD, margin, y);
    line(doc, fits.fit(heading.value, REGULAR, HEAD.lineSize, 6, textWidth - 114), REGULAR, margin + 114, y);
  });
  const qrX = PAGE.width - margin - HEAD.qr;
  drawQr(doc, head.verification, qrX, margin, HEAD.qr);
  doc.fillColor('#000000');
  line(
    doc,
    fits.fit(head.verification.code, BOLD, 7.5, 5, HEAD.qr + 24),
    BOLD,
    qrX - 12,
    margin + HEAD.qr + 4,
    HEAD.qr + 24,
    'center',
  );
  const ruleY = bodyOf(head.heading.length).top - 6;
  doc
    .moveTo(margin, ruleY)
    .lineTo(PAGE.width - margin, ruleY)
    .lineWidth(0.6)
    .strokeColor(RULE)
    .stroke();

  const footY = PAGE.height - margin - FOOT.height + 6;
  doc
    .moveTo(margin, footY - 3)
    .lineTo(PAGE.width - margin, footY - 3)
    .lineWidth(0.4)
    .strokeColor(RULE)
    .stroke();
  doc.fillColor(GREY);
  const printed = `Printed ${formatDateTime(head.printedAt)} by ${head.printedBy}`;
  line(doc, fits.fit(printed, REGULAR, FOOT.size, 5.5, CONTENT_WIDTH - 90), REGULAR, margin, footY);
  const pageOf = `Page ${page} of ${pages}`;
  line(
    doc,
    fits.fit(pageOf, REGULAR, FOOT.size, FOOT.size, 88),
    REGULAR,
    margin,
    footY,
    CONTENT_WIDTH,
    'right',
  );
  doc.fillColor('#000000');
}

/* ---------------------------------------------------------------------------------------------- */
/* The blocks.                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

const TEXT_SIZE = 9;
const NOTICE_PADDING = 6;

/** The height of a block drawn whole, as drawn below. */
function wholeHeight(doc: PDFKit.PDFDocument, block: PrintingBlock): number {
  switch (block.kind) {
    case 'text':
      doc.font(REGULAR).fontSize(TEXT_SIZE);
      return doc.heightOfString(block.text, { width: CONTENT_WIDTH });
    case 'notice':
      doc.font(BOLD).fontSize(TEXT_SIZE);
      return (
        doc.heightOfString(block.text, { width: CONTENT_WIDTH - 2 * NOTICE_PADDING }) + 2 * NOTICE_PADDING
      );
    default:
      return HEIGHTS.signatures;
  }
}

async function drawPlacement(
  doc: PDFKit.PDFDocument,
  fits: FitCache,
  block: PrintingBlock,
  placement: Placement,
  reader: AnyReader | null,
  body: { top: number; bottom: number },
) {
  const x = PAGE.margin;
  doc.fillColor('#000000');
  if (placement.kind === 'whole') {
    if (block.kind === 'text') {
      doc.font(REGULAR).fontSize(TEXT_SIZE).text(block.text, x, placement.y, {
        width: CONTENT_WIDTH,
        height: placement.height,
        ellipsis: true,
      });
    } else if (block.kind === 'notice') {
      doc
        .rect(x, placement.y, CONTENT_WIDTH, placement.height)
        .lineWidth(1.2)
        .fillAndStroke('#f2f2f2', '#333333');
      doc
        .fillColor('#000000')
        .font(BOLD)
        .fontSize(TEXT_SIZE)
        .text(block.text, x + NOTICE_PADDING, placement.y + NOTICE_PADDING, {
          width: CONTENT_WIDTH - 2 * NOTICE_PADDING,
          height: placement.height - NOTICE_PADDING,
          ellipsis: true,
        });
    } else if (block.kind === 'signatures') {
      drawSignatures(doc, fits, block.labels, placement.y);
    }
    return;
  }
  if (placement.kind === 'cards') {
    const cards = await (reader as Reader<Card>).take(placement.to - placement.from);
    const width = (CONTENT_WIDTH - (CARD_GRID.columns - 1) * CARD_GRID.gap) / CARD_GRID.columns;
    const height = (body.bottom - body.top - (CARD_GRID.rows - 1) * CARD_GRID.gap) / CARD_GRID.rows;
    cards.forEach((card, i) => {
      const column = i % CARD_GRID.columns;
      const row = Math.floor(i / CARD_GRID.columns);
      drawCard(
        doc,
        fits,
        card,
        x + column * (width + CARD_GRID.gap),
        body.top + row * (height + CARD_GRID.gap),
        width,
        height,
      );
    });
    return;
  }
  let y = placement.y;
  if (placement.first && 'title' in block && block.title) {
    const title = block.kind === 'chart' ? `${block.title} (${block.unit})` : block.title;
    line(doc, fits.fit(title, BOLD, 10, 7, CONTENT_WIDTH), BOLD, x, y + 2);
    y += HEIGHTS.title;
  }
  if (block.kind === 'table') await drawTableRows(doc, fits, block, placement, reader as Reader<Row>, y);
  else if (block.kind === 'fields') drawFields(doc, fits, block.fields, placement, y);
  else if (block.kind === 'chart') drawBars(doc, fits, block, placement, y);
}

type TableBlock = Extract<PrintingBlock, { kind: 'table' }>;

/** Column lefts and widths: photo columns a photo wide, the rest by their relative widths. */
function columnsOf(block: TableBlock) {
  const photoWidth = 46;
  const photos = block.columns.map(isPhotoColumn);
  const fixed = photos.filter(Boolean).length * photoWidth;
  const shares = block.columns.reduce((sum, column, i) => sum + (photos[i] ? 0 : (column.width ?? 1)), 0);
  let left = PAGE.margin;
  return block.columns.map((column, i) => {
    const width = photos[i] ? photoWidth : ((CONTENT_WIDTH - fixed) * (column.width ?? 1)) / (shares || 1);
    const placed = { left, width, photo: photos[i], column };
    left += width;
    return placed;
  });
}

const CELL_PADDING = 3;

async function drawTableRows(
  doc: PDFKit.PDFDocument,
  fits: FitCache,
  block: TableBlock,
  placement: Extract<Placement, { kind: 'items' }>,
  reader: Reader<Row>,
  top: number,
) {
  const columns = columnsOf(block);
  const album = columns.some((column) => column.photo);
  const rowHeight = album ? HEIGHTS.albumRow : HEIGHTS.row;
  // The header, on every page the table reaches.
  doc.rect(PAGE.margin, top, CONTENT_WIDTH, HEIGHTS.headerRow).fill(SHADE);
  doc.fillColor('#000000');
  for (const { left, width, column } of columns) {
    const label = fits.fit(column.label, BOLD, 7.5, 5, width - 2 * CELL_PADDING);
    line(doc, label, BOLD, left + CELL_PADDING, top + 5, width - 2 * CELL_PADDING, column.align ?? 'left');
  }
  let y = top + HEIGHTS.headerRow;
  const lines = [top, y];

  const rowsHere = Math.min(placement.to, block.count) - Math.min(placement.from, block.count);
  const rows = rowsHere > 0 ? await reader.take(rowsHere) : [];
  const empty = block.count === 0 && placement.from === 0;
  if (empty) {
    line(doc, fits.fit('None.', REGULAR, 8, 8, CONTENT_WIDTH), REGULAR, PAGE.margin + CELL_PADDING, y + 4);
    y += rowHeight;
    lines.push(y);
  }
  const cell = (
    text: string,
    font: string,
    left: number,
    width: number,
    align: 'left' | 'right' | 'center',
  ) => {
    if (!text) return;
    const fitted = fits.fit(text, font, 8, 5.5, width - 2 * CELL_PADDING);
    line(
      doc,
      fitted,
      font,
      left + CELL_PADDING,
      y + (rowHeight - fitted.size) / 2 - 1,
      width - 2 * CELL_PADDING,
      align,
    );
  };
  for (const row of rows) {
    columns.forEach(({ left, width, column }, i) => {
      const value = row.cells[i];
      if (column.blank || value === undefined) return; // An empty box, for the examiner's hand.
      if (typeof value === 'object')
        drawPhoto(doc, fits, row.photos[i] ?? null, left + 3, y + 3, width - 6, rowHeight - 6);
      else cell(value, REGULAR, left, width, column.align ?? 'left');
    });
    y += rowHeight;
    lines.push(y);
  }
  // The totals, after the last row.
  if (block.totals && placement.to > Math.max(block.count, 1)) {
    doc.rect(PAGE.margin, y, CONTENT_WIDTH, rowHeight).fill('#f2f2f2');
    doc.fillColor('#000000');
    columns.forEach(({ left, width, column }, i) =>
      cell(block.totals?.[i] ?? '', BOLD, left, width, column.align ?? 'left'),
    );
    y += rowHeight;
    lines.push(y);
  }
  // The grid, once for the page's rows: every cell a box, so a blank column is an empty box to write in.
  for (const at of lines) doc.moveTo(PAGE.margin, at).lineTo(PAGE.width - PAGE.margin, at);
  const bottom = lines[lines.length - 1];
  for (const { left } of columns)
    doc.moveTo(left, top).lineTo(left, empty ? top + HEIGHTS.headerRow : bottom);
  doc.moveTo(PAGE.width - PAGE.margin, top).lineTo(PAGE.width - PAGE.margin, bottom);
  if (empty) doc.moveTo(PAGE.margin, top).lineTo(PAGE.margin, bottom);
  doc.lineWidth(0.5).strokeColor('#444444').stroke();
  doc.fillColor('#000000');
}

/** A print photo in its box; 'No photo' when the candidate has none (or it cannot be read). */
function drawPhoto(
  doc: PDFKit.PDFDocument,
  fits: FitCache,
  photo: Photo,
  x: number,
  y: number,
  width: number,
  height: number,
) {
  if (photo) {
    try {
      doc.image(Buffer.from(photo.buffer, photo.byteOffset, photo.byteLength), x, y, {
        fit: [width, height],
        align: 'center',
        valign: 'center',
      });
      return;
    } catch {
      // Not a picture pdfkit can place: said as missing, below, rather than failing the whole print.
    }
  }
  doc.rect(x, y, width, height).lineWidth(0.5).dash(2, { space: 2 }).strokeColor('#777777').stroke().undash();
  doc.fillColor(GREY);
  const words = fits.fit('No photo', REGULAR, 7, 5, width - 4);
  line(doc, words, REGULAR, x + 2, y + height / 2 - 4, width - 4, 'center');
  doc.fillColor('#000000');
}

function drawFields(
  doc: PDFKit.PDFDocument,
  fits: FitCache,
  fields: { label: string; value: string }[],
  placement: Extract<Placement, { kind: 'items' }>,
  top: number,
) {
  const half = CONTENT_WIDTH / 2;
  const labelWidth = half * 0.4;
  for (let item = placement.from; item < placement.to; item++) {
    const y = top + (item - placement.from) * HEIGHTS.field;
    for (let side = 0; side < 2; side++) {
      const field = fields[item * 2 + side];
      if (!field) continue;
      const left = PAGE.margin + side * half;
      line(doc, fits.fit(field.label, BOLD, 7.5, 5.5, labelWidth - 4), BOLD, left, y + 3);
      line(
        doc,
        fits.fit(field.value || '—', REGULAR, 8, 5.5, half - labelWidth - 8),
        REGULAR,
        left + labelWidth,
        y + 2.5,
      );
    }
    doc
      .moveTo(PAGE.margin, y + HEIGHTS.field)
      .lineTo(PAGE.width - PAGE.margin, y + HEIGHTS.field)
      .lineWidth(0.3)
      .strokeColor('#bbbbbb')
      .stroke();
  }
  doc.fillColor('#000000');
}

/** Horizontal bars, each `value / max` of the bar area long, with its label and value. */
function drawBars(
  doc: PDFKit.PDFDocument,
  fits: FitCache,
  block: Extract<PrintingBlock, { kind: 'chart' }>,
  placement: Extract<Placement, { kind: 'items' }>,
  top: number,
) {
  const labelWidth = CONTENT_WIDTH * 0.32;
  const valueWidth = 54;
  const area = CONTENT_WIDTH - labelWidth - valueWidth - 8;
  if (block.bars.length === 0) {
    line(doc, fits.fit('Nothing to chart.', REGULAR, 8, 8, CONTENT_WIDTH), REGULAR, PAGE.margin, top + 3);
    return;
  }
  const valueText = chartValueFormat(block.bars);
  for (let item = placement.from; item < placement.to; item++) {
    const bar = block.bars[item];
    const y = top + (item - placement.from) * HEIGHTS.bar;
    line(doc, fits.fit(bar.label, REGULAR, 7.5, 5.5, labelWidth - 4), REGULAR, PAGE.margin, y + 3);
    const share = block.max > 0 ? Math.min(Math.max(bar.value / block.max, 0), 1) : 0;
    const barLeft = PAGE.margin + labelWidth;
    doc
      .rect(barLeft, y + 2, area, HEIGHTS.bar - 4)
      .lineWidth(0.3)
      .strokeColor('#cccccc')
      .stroke();
    if (share > 0) doc.rect(barLeft, y + 2, area * share, HEIGHTS.bar - 4).fill(BAR);
    doc.fillColor('#000000');
    line(
      doc,
      fits.fit(valueText(bar.value), BOLD, 7.5, 5.5, valueWidth),
      BOLD,
      barLeft + area + 8,
      y + 3,
      valueWidth,
      'left',
    );
  }
}

function drawSignatures(doc: PDFKit.PDFDocument, fits: FitCache, labels: string[], y: number) {
  if (!labels.length) return;
  const width = CONTENT_WIDTH / labels.length;
  labels.forEach((label, i) => {
    const left = PAGE.margin + i * width;
    doc
      .moveTo(left + 6, y + 28)
      .lineTo(left + width - 6, y + 28)
      .lineWidth(0.6)
      .strokeColor('#000000')
      .stroke();
    line(doc, fits.fit(label, REGULAR, 7.5, 5.5, width - 12), REGULAR, left + 6, y + 31);
  });
}

/* ---------------------------------------------------------------------------------------------- */
/* A photocard.                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

const CARD_PADDING = 6;
const CARD_PHOTO = { width: 60, height: 75 };
const CARD_QR = 46;

function drawCard(
  doc: PDFKit.PDFDocument,
  fits: FitCache,
  { card, photo }: Card,
  x: number,
  y: number,
  width: number,
  height: number,
) {
  doc.roundedRect(x, y, width, height, 4).lineWidth(0.8).strokeColor('#333333').stroke();
  doc.fillColor('#000000');
  const inner = width - 2 * CARD_PADDING;
  const left = x + CARD_PADDING;
  // The card is cut out and shown alone at every paper: it names the board itself.
  line(doc, fits.fit(BOARD_NAME, BOLD, 7, 5, inner - CARD_QR - 4), BOLD, left, y + CARD_PADDING);

  const top = y + CARD_PADDING + 12;
  drawPhoto(doc, fits, photo, left, top, CARD_PHOTO.width, CARD_PHOTO.height);
  const qrX = x + width - CARD_PADDING - CARD_QR;
  drawQr(doc, card.verification, qrX, y + CARD_PADDING, CARD_QR);
  doc.fillColor('#000000');
  line(
    doc,
    fits.fit(card.verification.code, BOLD, 6, 4.5, CARD_QR + 10),
    BOLD,
    qrX - 5,
    y + CARD_PADDING + CARD_QR + 1,
    CARD_QR + 10,
    'center',
  );

  const textLeft = left + CARD_PHOTO.width + 6;
  const textWidth = qrX - textLeft - 4;
  line(doc, fits.fit(card.surname, BOLD, 10, 6, textWidth), BOLD, textLeft, top);
  line(doc, fits.fit(card.otherNames, REGULAR, 8.5, 5.5, textWidth), REGULAR, textLeft, top + 12);
  const facts: [string, string][] = [
    ['Index number', card.candidateIndex],
    ['Sex', card.sex],
    ['Date of birth', card.dateOfBirth],
  ];
  facts.forEach(([label, value], i) => {
    const rowY = top + 25 + i * 10.5;
    line(doc, fits.fit(label, BOLD, 6.5, 5, 52), BOLD, textLeft, rowY + 0.5);
    line(doc, fits.fit(value, REGULAR, 7.5, 5, textWidth - 54), REGULAR, textLeft + 54, rowY);
  });
  // Below the QR's code, the full width right of the photo.
  const wideWidth = x + width - CARD_PADDING - textLeft;
  const wide: [string, string][] = [
    ['Course header', card.courseHeader],
    ['School', card.school],
  ];
  wide.forEach(([label, value], i) => {
    const rowY = top + 57 + i * 10.5;
    line(doc, fits.fit(label, BOLD, 6.5, 5, 52), BOLD, textLeft, rowY + 0.5);
    line(doc, fits.fit(value, REGULAR, 7.5, 5, wideWidth - 54), REGULAR, textLeft + 54, rowY);
  });

  let below = top + CARD_PHOTO.height + 4;
  line(doc, fits.fit('Papers', BOLD, 6.5, 5, 52), BOLD, left, below + 0.5);
  const papers = card.papers.length ? card.papers.join('; ') : 'None entered';
  line(doc, fits.fit(papers, REGULAR, 7, 4.5, inner - 54), REGULAR, left + 54, below);
  below += 10.5;
  line(doc, fits.fit('Diet', BOLD, 6.5, 5, 52), BOLD, left, below + 0.5);
  line(doc, fits.fit(card.diet, REGULAR, 7.5, 5, inner - 54), REGULAR, left + 54, below);
  below += 12;

  const boxHeight = Math.max(y + height - CARD_PADDING - below, 14);
  doc.rect(left, below, inner, boxHeight).lineWidth(0.5).strokeColor('#555555').stroke();
  doc.fillColor(GREY);
  line(
    doc,
    fits.fit("Candidate's signature", REGULAR, 6, 5, inner - 6),
    REGULAR,
    left + 3,
    below + boxHeight - 8,
  );
  doc.fillColor('#000000');
}
