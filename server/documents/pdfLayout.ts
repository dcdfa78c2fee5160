import type { DocumentColumn } from '../../contract/documents';
import type { PrintingBlock } from './builder';

/**
 * Where everything goes on a PDF's pages, decided before the first page is written, so every page can
 * say 'Page X of Y' while the rows are still being read (a print of 20,000 rows is never held whole).
 * The rule that makes it possible: every repeated thing has a fixed height. A table row is one line
 * high (an album row one photo high) whatever it holds: text too wide for its cell is shrunk, down to
 * a floor, then cut with an ellipsis (server/documents/pdfText.ts), never wrapped. A photocard page is
 * a fixed grid. Only the few blocks drawn once (a text, a notice, a chart's title) are measured, and
 * they are known before drawing starts. So the page count follows from the blocks' counts alone.
 */

/** A4 in points, and its margins. */
export const PAGE = { width: 595.28, height: 841.89, margin: 36 } as const;
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;

/** The page's head: the board, the title, one line a heading; the QR code at the right. */
export const HEAD = { boardSize: 12, titleSize: 14, lineSize: 8.5, lineHeight: 11, qr: 62, linesTop: 36 } as const;
/** The page's foot: when and by whom it was printed, and 'Page X of Y'. */
export const FOOT = { size: 7.5, height: 16 } as const;

/** Fixed heights (points) of what repeats: the layout rule above. */
export const HEIGHTS = {
  title: 16,
  headerRow: 18,
  row: 15,
  albumRow: 58,
  field: 14,
  bar: 14,
  signatures: 46,
  gap: 8,
} as const;

/** Photocards: two across, four down, on a page of their own. */
export const CARD_GRID = { columns: 2, rows: 4, gap: 8 } as const;
export const CARDS_PER_PAGE = CARD_GRID.columns * CARD_GRID.rows;

/** Where the body of a page starts and ends, given how many heading lines the head has. */
export function bodyOf(headingLines: number): { top: number; bottom: number } {
  const head = Math.max(HEAD.linesTop + headingLines * HEAD.lineHeight, HEAD.qr + 12) + 8;
  return { top: PAGE.margin + head + 6, bottom: PAGE.height - PAGE.margin - FOOT.height };
}

/** A column that holds photos (an album's): by its flag, or by its label when a builder left it out. */
export const isPhotoColumn = (column: DocumentColumn) => column.photo === true || /^photo$/i.test(column.label);

/** What one place on a page holds. */
export type Placement =
  /** A block drawn whole (text, notice, signatures), `height` high. */
  | { block: number; kind: 'whole'; y: number; height: number }
  /** Items `from`..`to` (exclusive) of a table (its rows, then its totals), fields or chart bars. */
  | { block: number; kind: 'items'; y: number; from: number; to: number; first: boolean }
  /** Cards `from`..`to` (exclusive), in the page's grid. */
  | { block: number; kind: 'cards'; from: number; to: number };

/** How high a block drawn whole is, and the items of the others: measured by the caller's drawing. */
export interface Measures {
  wholeHeight(block: PrintingBlock): number;
}

/** How many items a block has, each how high, and what repeats above them on every page. */
function itemsOf(block: PrintingBlock) {
  switch (block.kind) {
    case 'table': {
      const album = block.columns.some(isPhotoColumn);
      // An empty table still shows its header and one row saying so.
      const items = Math.max(block.count, 1) + (block.totals ? 1 : 0);
      return { items, height: album ? HEIGHTS.albumRow : HEIGHTS.row, repeated: HEIGHTS.headerRow, titled: !!block.title };
    }
    case 'fields':
      return { items: Math.max(Math.ceil(block.fields.length / 2), 1), height: HEIGHTS.field, repeated: 0, titled: true };
    case 'chart':
      return { items: Math.max(block.bars.length, 1), height: HEIGHTS.bar, repeated: 0, titled: true };
    default:
      return null;
  }
}

/**
 * Every page's placements, in order. Tables, fields and charts flow item by item and break between
 * items (a table's header again at the top of each page; its title, fields' and charts' titles, only
 * with the first items, never alone at a page's foot); cards start a page of their own; a block drawn
 * whole goes to the next page when it does not fit the rest of this one.
 */
export function planPages(blocks: readonly PrintingBlock[], headingLines: number, measures: Measures): Placement[][] {
  const body = bodyOf(headingLines);
  const pages: Placement[][] = [[]];
  let y = body.top;
  const newPage = () => {
    pages.push([]);
    y = body.top;
  };
  const place = (placement: Placement) => pages[pages.length - 1].push(placement);

  blocks.forEach((block, index) => {
    if (block.kind === 'cards') {
      if (block.count === 0) return;
      if (y > body.top) newPage();
      for (let from = 0; from < block.count; from += CARDS_PER_PAGE) {
        if (from > 0) newPage();
        place({ block: index, kind: 'cards', from, to: Math.min(from + CARDS_PER_PAGE, block.count) });
      }
      y = body.bottom; // What follows starts on a new page.
      return;
    }
    const items = itemsOf(block);
    if (!items) {
      const height = Math.min(measures.wholeHeight(block), body.bottom - body.top);
      if (y + height > body.bottom && y > body.top) newPage();
      place({ block: index, kind: 'whole', y, height });
      y += height + HEIGHTS.gap;
      return;
    }
    let from = 0;
    while (from < items.items) {
      const first = from === 0;
      const lead = (first && items.titled ? HEIGHTS.title : 0) + items.repeated;
      const room = Math.floor((body.bottom - y - lead) / items.height);
      if (room < 1 && y > body.top) {
        newPage();
        continue;
      }
      const to = Math.min(from + Math.max(room, 1), items.items);
      place({ block: index, kind: 'items', y, from, to, first });
      y += lead + (to - from) * items.height;
      from = to;
      if (from < items.items) newPage();
    }
    y += HEIGHTS.gap;
  });
  if (pages.length > 1 && pages[pages.length - 1].length === 0) pages.pop();
  return pages;
}
