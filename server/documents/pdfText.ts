import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Verification } from '../../contract/documents';

/**
 * Text on a PDF page: the embedded font, fitting a line into a fixed width, and the QR code as vector.
 *
 * The font is DejaVu Sans (regular and bold), embedded as a subset of the glyphs used. The 14 standard
 * PDF fonts cover Latin-1 only: they garble the Yoruba subdot vowels (ọ, ẹ, ṣ) and tone marks, the
 * Igbo dotted vowels (ị, ụ) and the Hausa hooked letters (ɓ, ɗ, ƙ, ƴ). DejaVu has every one of them,
 * precomposed and as combining marks with their placement, under a free licence.
 */
const require = createRequire(import.meta.url);
const fontFile = (name: string) => readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`));

/** Read once a process (about 1.4 MB), registered with each document. */
let fonts: { regular: Buffer; bold: Buffer } | null = null;
export const REGULAR = 'DejaVuSans';
export const BOLD = 'DejaVuSans-Bold';

export function registerFonts(doc: PDFKit.PDFDocument): void {
  fonts ??= { regular: fontFile('DejaVuSans.ttf'), bold: fontFile('DejaVuSans-Bold.ttf') };
  doc.registerFont(REGULAR, fonts.regular);
  doc.registerFont(BOLD, fonts.bold);
}

/**
 * Forgets the glyph layouts pdfkit keeps of every word it has set (its fonts' `layoutCache`, which it
 * never empties): a list of 20,000 names and index numbers would keep 20,000 layouts, some 25 KB a
 * photocard. Called after each page, so a page's repeated words are still laid out once.
 */
export function forgetLayouts(doc: PDFKit.PDFDocument): void {
  const families = (doc as unknown as { _fontFamilies?: Record<string, { layoutCache?: object }> })
    ._fontFamilies;
  for (const font of Object.values(families ?? {}))
    if (font.layoutCache) font.layoutCache = Object.create(null) as object;
}

const ELLIPSIS = '…';
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

interface Fitted {
  text: string;
  size: number;
  width: number;
}

/**
 * A line fitted into `width`: as it is at `size`; else shrunk in proportion, down to `minSize`; else
 * cut at `minSize`, by whole letters (a letter and its tone marks stay together), with an ellipsis.
 * Never wrapped: a row's height is fixed (server/documents/pdfLayout.ts).
 */
function fit(
  doc: PDFKit.PDFDocument,
  text: string,
  font: string,
  size: number,
  minSize: number,
  width: number,
): Fitted {
  doc.font(font).fontSize(size);
  const natural = doc.widthOfString(text);
  if (natural <= width) return { text, size, width: natural };
  const shrunk = Math.max(minSize, Math.floor((size * width * 10) / natural) / 10);
  doc.fontSize(shrunk);
  const atShrunk = doc.widthOfString(text);
  if (atShrunk <= width) return { text, size: shrunk, width: atShrunk };
  const letters = Array.from(graphemes.segment(text), (part) => part.segment);
  let low = 0;
  let high = letters.length;
  // The longest start of the text that fits with the ellipsis.
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (doc.widthOfString(letters.slice(0, mid).join('').trimEnd() + ELLIPSIS) <= width) low = mid;
    else high = mid - 1;
  }
  const cut = letters.slice(0, low).join('').trimEnd() + ELLIPSIS;
  return { text: cut, size: shrunk, width: doc.widthOfString(cut) };
}

/** Fitted lines of a run, by their text, font, size and width: a list repeats its schools and course headers. */
export class FitCache {
  private cache = new Map<string, Fitted>();
  constructor(private readonly doc: PDFKit.PDFDocument) {}
  fit(text: string, font: string, size: number, minSize: number, width: number): Fitted {
    const key = `${font}\u0000${size}\u0000${minSize}\u0000${width}\u0000${text}`;
    let fitted = this.cache.get(key);
    if (!fitted) {
      fitted = fit(this.doc, text, font, size, minSize, width);
      // Bounded: a list of 20,000 distinct names keeps no more than this.
      if (this.cache.size > 5000) this.cache.clear();
      this.cache.set(key, fitted);
    }
    return fitted;
  }
}

/** Writes one line at (x, y), its top; aligned in `width` when asked. */
export function line(
  doc: PDFKit.PDFDocument,
  fitted: Fitted,
  font: string,
  x: number,
  y: number,
  width = 0,
  align: 'left' | 'right' | 'center' = 'left',
): void {
  const left =
    align === 'right' ? x + width - fitted.width : align === 'center' ? x + (width - fitted.width) / 2 : x;
  doc.font(font).fontSize(fitted.size).text(fitted.text, left, y, { lineBreak: false });
}

/** The last page QR converted: every page of a print draws the same one. */
let lastQr: { path: string; operators: string | null } | null = null;

/**
 * A QR code's path (Verification.qr: the dark modules, in a `size`×`size` box) as PDF path operators,
 * drawn at (x, y), `side` points a side. QR paths are straight lines only (M, H, V, L, Z, relative or
 * absolute), so they are converted here in one pass, each closed square or run of modules to one
 * `re` (a rectangle): pdfkit's general SVG path parser, and the four line operators a module it writes,
 * took most of a photocard's drawing time and PDF size. Anything else goes to pdfkit's parser.
 */
export function drawQr(
  doc: PDFKit.PDFDocument,
  verification: Verification,
  x: number,
  y: number,
  side: number,
): void {
  if (lastQr?.path !== verification.qr)
    lastQr = { path: verification.qr, operators: qrOperators(verification.qr) };
  const { operators } = lastQr;
  doc.save();
  doc.rect(x, y, side, side).fill('#ffffff');
  doc.translate(x, y).scale(side / verification.size);
  if (operators === null) doc.path(verification.qr).fill('#000000');
  else doc.fillColor('#000000').addContent(`${operators}f`);
  doc.restore();
}

/**
 * The path as PDF operators, or null for what this converter does not read (curves, arcs). Read by hand,
 * character by character, into flat arrays: a photocard page has nine QR codes of some 400 modules.
 */
function qrOperators(path: string): string | null {
  let out = '';
  // The current subpath's points, flat: x0, y0, x1, y1, ...
  const points: number[] = [];
  let cx = 0;
  let cy = 0;
  let command = 0;
  let numbers: number[] = [];
  const endSubpath = (closed: boolean) => {
    if (points.length) out += subpathOperators(points, closed);
    points.length = 0;
  };
  const flush = (): boolean => {
    switch (command) {
      case 0:
        return numbers.length === 0;
      case 77: // M
      case 109: // m
      case 76: // L
      case 108: {
        // l
        if (numbers.length % 2 !== 0 || numbers.length === 0) return false;
        const relative = command === 109 || command === 108;
        for (let i = 0; i < numbers.length; i += 2) {
          cx = relative ? cx + numbers[i] : numbers[i];
          cy = relative ? cy + numbers[i + 1] : numbers[i + 1];
          if (i === 0 && (command === 77 || command === 109)) endSubpath(false);
          points.push(cx, cy);
        }
        return true;
      }
      case 72: // H
      case 104: // h
      case 86: // V
      case 118: // v
        if (numbers.length === 0 || points.length === 0) return false;
        for (const n of numbers) {
          if (command === 72) cx = n;
          else if (command === 104) cx += n;
          else if (command === 86) cy = n;
          else cy += n;
          points.push(cx, cy);
        }
        return true;
      case 90: // Z
      case 122: // z
        if (numbers.length !== 0) return false;
        if (points.length) [cx, cy] = [points[0], points[1]];
        endSubpath(true);
        return true;
      default:
        return false;
    }
  };
  let i = 0;
  while (i < path.length) {
    const code = path.charCodeAt(i);
    const digit = (code >= 48 && code <= 57) || code === 45 || code === 46; // 0-9, '-', '.'
    if (digit) {
      let j = i + 1;
      while (j < path.length) {
        const next = path.charCodeAt(j);
        if (
          (next >= 48 && next <= 57) ||
          next === 46 ||
          next === 101 ||
          (next === 45 && path.charCodeAt(j - 1) === 101)
        )
          j++;
        else break;
      }
      const value = Number(path.slice(i, j));
      if (Number.isNaN(value)) return null;
      numbers.push(value);
      i = j;
    } else if (code === 32 || code === 44 || code === 10 || code === 13 || code === 9) {
      i++;
    } else {
      if (!flush()) return null;
      command = code;
      numbers = [];
      i++;
    }
  }
  if (!flush()) return null;
  endSubpath(false);
  return out;
}

/** One subpath: a closed axis-aligned rectangle (a module, a run of them) as one `re`, else lines. */
function subpathOperators(points: number[], closed: boolean): string {
  const count = points.length / 2;
  const returns = count === 5 && points[8] === points[0] && points[9] === points[1];
  if (closed && (count === 4 || returns)) {
    let rectangle = true;
    for (let k = 0; k < 4 && rectangle; k++) {
      const n = (k + 1) % 4;
      // Each side horizontal or vertical, turning at every corner.
      const horizontal = points[2 * k + 1] === points[2 * n + 1];
      const vertical = points[2 * k] === points[2 * n];
      rectangle = horizontal !== vertical;
    }
    if (rectangle) {
      const left = Math.min(points[0], points[2], points[4]);
      const top = Math.min(points[1], points[3], points[5]);
      const width = Math.max(points[0], points[2], points[4]) - left;
      const height = Math.max(points[1], points[3], points[5]) - top;
      return `${round(left)} ${round(top)} ${round(width)} ${round(height)} re\n`;
    }
  }
  let lines = '';
  for (let k = 0; k < count; k++)
    lines += `${round(points[2 * k])} ${round(points[2 * k + 1])} ${k === 0 ? 'm' : 'l'}\n`;
  return closed ? `${lines}h\n` : lines;
}

const round = (n: number) => Math.round(n * 1000) / 1000;
