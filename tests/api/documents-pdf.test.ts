import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOARD_NAME, type Photocard } from '../../contract/documents';
import { printPhotoOf } from '../../server/candidates/printPhoto';
import { drawPdf } from '../../server/documents/pdf';
import { CARDS_PER_PAGE, HEAD, PAGE } from '../../server/documents/pdfLayout';
import { createLocalStorage } from '../../server/storage/local';
import { newKey, type Storage } from '../../server/storage/storage';
import {
  cardsOf,
  decodeQr,
  drawToBytes,
  inBatches,
  pdfPages,
  printingOf,
  rowsOf,
  verificationOf,
} from './pdfs';

/**
 * The server's PDF drawing (server/documents/pdf.ts) read back as a reader's viewer reads it: each
 * page's text extracted by mupdf, the QR code rendered to pixels by mupdf and decoded by jsQR. Prints
 * are made by hand here, with the Printing interface the pipeline hands the drawing; the routes, jobs
 * and verification over HTTP are in documents-pdf-routes.test.ts.
 */

/** Yoruba (tone marks over subdot vowels), Igbo (dotted vowels) and Hausa (hooked letters) names. */
const NAMES = [
  ['ADÉBÁYỌ̀', 'Ọ̀jọ́ Fúnmiláyọ̀'],
  ['NWÁCHUKWU', 'Ngọzị Ụchẹ'],
  ['ƁELLO', 'Ɗanjuma Ƙasimu'],
  ['ƳAR', 'Ƙasimu Ɓello'],
] as const;

let dir: string;
let storage: Storage;
let photoKey: string;
let originalBytes: number;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-test-'));
  storage = createLocalStorage(dir);
  // A camera-sized photo (1200×1500, noisy so it does not compress away), made small as uploads are.
  const raw = Buffer.alloc(1200 * 1500 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919) % 251;
  const original = await sharp(raw, { raw: { width: 1200, height: 1500, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
  originalBytes = original.byteLength;
  const small = await printPhotoOf(new Uint8Array(original));
  photoKey = newKey('candidates', 'jpg');
  await storage.put(photoKey, small.bytes, small.contentType);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const COLUMNS = [
  { label: 'S/N', width: 0.5, align: 'right' as const },
  { label: 'Index number', width: 1.6 },
  { label: 'Surname', width: 1.4 },
  { label: 'Other names', width: 1.8 },
  { label: 'Sex', width: 0.6 },
  { label: 'Signature', width: 1.2, blank: true },
];

const indexOf = (i: number) => `WHB/26/A1/${String(i + 1).padStart(6, '0')}`;

describe('a list', () => {
  it('prints the head on every page, page X of Y, and names with their diacritics exactly', async () => {
    const printing = printingOf([
      { kind: 'notice', text: 'The portal holds no signatures: the column is left for the hall.' },
      {
        kind: 'table',
        title: 'Candidates',
        columns: COLUMNS,
        count: NAMES.length,
        rows: inBatches(
          NAMES.map(([surname, other], i) => [String(i + 1), indexOf(i), surname, other, 'F', 'ignored']),
        ),
      },
      { kind: 'signatures', labels: ['Invigilator', 'Supervisor'] },
    ]);
    const { bytes, pages } = await drawToBytes(printing, storage);
    expect(pages).toBe(1);
    const [text] = pdfPages(bytes);
    expect(text).toContain(BOARD_NAME);
    expect(text).toContain('Indexed candidate list');
    expect(text).toContain('MAY2026 (May 2026)');
    expect(text).toContain('SHT-IB School of Health Technology, Ibadan');
    expect(text).toContain('Printed 26/11/2026 11:05 by Adébáyọ̀ Ọ̀jọ́ (board admin)');
    expect(text).toContain('Page 1 of 1');
    expect(text).toContain('K7Q2-M9XD-4HTB');
    expect(text).toContain('The portal holds no signatures');
    expect(text).toContain('Invigilator');
    for (const [surname, other] of NAMES) {
      expect(text).toContain(surname);
      expect(text).toContain(other);
    }
    // A blank column is an empty box: what a builder put there is not printed.
    expect(text).not.toContain('ignored');
    expect(printing.finished).toBe(1);
  });

  it('lets the rest of the portal have its turn between pages', async () => {
    // A 2,000-row list whose rows come without a macrotask, as PGlite's do: a turn of the event loop
    // asked for before it starts must come while it is drawn, not after its last page.
    const count = 2000;
    const printing = printingOf([
      {
        kind: 'table',
        title: 'Candidates',
        columns: COLUMNS,
        count,
        rows: inBatches(rowsOf(count, (i) => [String(i + 1), indexOf(i), 'OKAFOR', 'Ngozi', 'F', ''])),
      },
    ]);
    let drawn = 0;
    let drawnAtTurn: number | null = null;
    setImmediate(() => (drawnAtTurn = drawn));
    const out = new PassThrough().resume();
    const { pages } = await drawPdf(printing, { storage, out, progress: (done) => (drawn = done) });
    expect(pages).toBeGreaterThan(10);
    expect(drawnAtTurn).not.toBeNull();
    expect(drawnAtTurn!).toBeLessThan(count / 10);
  });

  it('5,000 rows: the header and the head on every page, every row once, in order', async () => {
    const count = 5000;
    const printing = printingOf([
      {
        kind: 'table',
        columns: COLUMNS,
        count,
        rows: inBatches(
          rowsOf(count, (i) => [String(i + 1), indexOf(i), `SURNAME${i + 1}`, 'Ngọzị Ụchẹ', 'F', '']),
        ),
      },
    ]);
    const { bytes, pages } = await drawToBytes(printing, storage);
    const texts = pdfPages(bytes);
    expect(texts).toHaveLength(pages);
    expect(pages).toBeGreaterThan(50);
    let next = 0;
    texts.forEach((text, i) => {
      expect(text).toContain(BOARD_NAME);
      expect(text).toContain(`Page ${i + 1} of ${pages}`);
      for (const column of COLUMNS) expect(text).toContain(column.label);
      // This page's rows, in order, following the last page's.
      const found = [...text.matchAll(/WHB\/26\/A1\/(\d{6})/g)].map((match) => Number(match[1]) - 1);
      expect(found.length).toBeGreaterThan(0);
      expect(found).toEqual(found.map((_, j) => next + j));
      next += found.length;
    });
    expect(next).toBe(count);
    expect(printing.finished).toBe(1);
  });

  it('an album: each row with its print photo, or a box saying there is none', async () => {
    const printing = printingOf([
      {
        kind: 'table',
        columns: [{ label: 'Photo', photo: true }, { label: 'Index number' }, { label: 'Name', width: 2 }],
        count: 2,
        rows: inBatches([
          [{ photo: photoKey }, indexOf(0), 'ADÉBÁYỌ̀ Ọ̀jọ́'],
          [{ photo: null }, indexOf(1), 'ƁELLO Ɗanjuma'],
        ]),
      },
    ]);
    const { bytes } = await drawToBytes(printing, storage);
    const [text] = pdfPages(bytes);
    expect(text).toContain('No photo');
    expect(text.match(/No photo/g)).toHaveLength(1);
    expect(text).toContain('ADÉBÁYỌ̀ Ọ̀jọ́');
  });

  it('fields, a chart and text print with the head', async () => {
    const printing = printingOf([
      {
        kind: 'fields',
        title: 'Identity',
        fields: [
          { label: 'Surname', value: 'ƳAR' },
          { label: 'Sex', value: 'Female' },
        ],
      },
      {
        kind: 'chart',
        title: 'Pass rate by course header',
        unit: '% passed',
        max: 100,
        bars: [
          { label: 'A1 General Nursing', value: 82.5 },
          { label: 'B5 Community Health', value: 40 },
        ],
      },
      { kind: 'text', text: 'Facility is the mean mark over the maximum.' },
    ]);
    const { bytes } = await drawToBytes(printing, storage);
    const [text] = pdfPages(bytes);
    for (const words of [
      'Identity',
      'ƳAR',
      'Pass rate by course header (% passed)',
      'A1 General Nursing',
      '82.5',
      'Facility is the mean',
    ])
      expect(text).toContain(words);
  });
});

describe('the QR code', () => {
  it("decodes from the rendered page to the print's verify URL", async () => {
    const verification = verificationOf('ZX4P-7KQM-2WRT');
    const printing = printingOf([{ kind: 'text', text: 'One line.' }], { verification });
    const { bytes } = await drawToBytes(printing, storage);
    const x = PAGE.width - PAGE.margin - HEAD.qr;
    const decoded = decodeQr(bytes, 0, {
      x: x - 8,
      y: PAGE.margin - 8,
      width: HEAD.qr + 16,
      height: HEAD.qr + 11,
    });
    expect(decoded).toBe(verification.url);
    expect(decoded).toBe('https://portal.example.org/verify/ZX4P-7KQM-2WRT');
  });
});

describe('photocards', () => {
  const card = (i: number): Photocard => ({
    photo: i % 5 === 4 ? null : photoKey,
    surname: NAMES[i % NAMES.length][0],
    otherNames: NAMES[i % NAMES.length][1],
    candidateIndex: indexOf(i),
    sex: i % 2 ? 'Male' : 'Female',
    dateOfBirth: '14/02/2003',
    courseHeader: 'A1 General Nursing',
    school: 'SHT-IB School of Health Technology, Ibadan',
    papers: ['A1 Paper I', 'A1 Paper II'],
    diet: 'MAY2026',
    verification: verificationOf(`CARD-${String(i).padStart(4, '0')}-XQ`),
  });

  it('eight a page, each with its photo (or "No photo"), SURNAME first, its papers, a signature box and its own code', async () => {
    const count = 20;
    const printing = printingOf([{ kind: 'cards', count, cards: inBatches(cardsOf(count, card), 7) }], {
      ending: 'photocard',
      title: 'Photocard',
    });
    const { bytes, pages } = await drawToBytes(printing, storage);
    expect(pages).toBe(Math.ceil(count / CARDS_PER_PAGE));
    const texts = pdfPages(bytes);
    const all = texts.join('\n');
    for (let i = 0; i < count; i++) {
      expect(all).toContain(indexOf(i));
      expect(all).toContain(`CARD-${String(i).padStart(4, '0')}-XQ`);
    }
    expect(all.match(/No photo/g)).toHaveLength(4);
    expect(all.match(/Candidate's signature/g)).toHaveLength(count);
    expect(all).toContain('A1 Paper I; A1 Paper II');
    for (const [surname, other] of NAMES) {
      expect(all).toContain(surname);
      expect(all).toContain(other);
    }
    texts.forEach((text, i) => expect(text).toContain(`Page ${i + 1} of ${pages}`));
    expect(printing.finished).toBe(1);
  });

  it('prints the small JPEG, not the original: far smaller than the camera photo', async () => {
    const small = await storage.get(photoKey);
    const meta = await sharp(small!.bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBeLessThanOrEqual(240);
    expect(meta.height).toBeLessThanOrEqual(300);
    expect(small!.bytes.byteLength * 10).toBeLessThan(originalBytes);
  });
});
