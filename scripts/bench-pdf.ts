import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { BOARD_NAME, type Photocard, type Verification } from '../contract/documents';
import { printPhotoOf } from '../server/candidates/printPhoto';
import type { Printing, PrintingBlock } from '../server/documents/builder';
import { drawPdf } from '../server/documents/pdf';
import { verificationOf } from '../server/documents/qr';
import { createLocalStorage } from '../server/storage/local';
import { newKey } from '../server/storage/storage';
import { recordFigure } from './benchRecord';

/**
 * Bulk PDFs (issue 25): photocards and list rows at 1,000, 5,000 and 20,000, each drawn by the server's
 * PDF drawing (server/documents/pdf.ts) into a file in its own process, so each process's peak memory
 * (RSS, from the kernel) is that size's alone. Time, PDF size, pages and peak RSS; the aims: 5,000
 * photocards in under 10 s and a 5,000-row list in under 2 s, with memory flat as the count grows.
 *
 * The rows are made as they are read, in batches of 500 as a builder's keyset pages come, and every card
 * has its own QR code (as the pipeline makes one) and a real print photo from the storage
 * (200 distinct ones, made from camera-sized portraits as uploads are), so the PDF embeds a photo a card
 * as it would for real candidates. What this leaves out is the database's reading of the rows, which
 * the builders' own figures give. BENCH_PDF_COUNTS (default 1000,5000,20000) sizes it;
 * BENCH_PDF_KINDS (default photocards,list) chooses what is drawn.
 */

const COUNTS = (process.env.BENCH_PDF_COUNTS ?? '1000,5000,20000').split(',').map(Number);
const PHOTOS = 200;

interface Figure {
  kind: 'photocards' | 'list';
  count: number;
  ms: number;
  bytes: number;
  pages: number;
  peakRssMb: number;
}

/** A code's QR as the pipeline draws it (server/documents/qr.ts): a verify URL's, 29 modules a side. */
const qrOf = (seed: number): Verification =>
  verificationOf(`B${String(seed).padStart(5, '0')}-QX7M-2KDT-9WRT`, 'https://portal.example.org');

async function* batches<T>(count: number, make: (i: number) => T): AsyncIterable<T[]> {
  for (let start = 0; start < count; start += 500) {
    yield Array.from({ length: Math.min(500, count - start) }, (_, j) => make(start + j));
  }
}

async function child(kind: Figure['kind'], count: number, dir: string) {
  const storage = createLocalStorage(path.join(dir, 'uploads'));
  const keys = fs.readFileSync(path.join(dir, 'photos.txt'), 'utf8').trim().split('\n');
  const block: PrintingBlock =
    kind === 'photocards'
      ? {
          kind: 'cards',
          count,
          cards: batches(count, (i): Photocard => ({
            photo: keys[i % keys.length],
            surname: 'ADÉBÁYỌ̀',
            otherNames: `Ngọzị Ụchẹ ${i}`,
            candidateIndex: `WHB/26/A1/${String(i + 1).padStart(6, '0')}`,
            sex: i % 2 ? 'Male' : 'Female',
            dateOfBirth: '14/02/2003',
            courseHeader: 'A1 General Nursing',
            school: 'SHT-IB School of Health Technology, Ibadan',
            papers: ['A1 Paper I', 'A1 Paper II', 'A1 Practical'],
            diet: 'MAY2026',
            verification: qrOf(i),
          })),
        }
      : {
          kind: 'table',
          columns: [
            { label: 'S/N', width: 0.5, align: 'right' },
            { label: 'Index number', width: 1.6 },
            { label: 'Name', width: 2.4 },
            { label: 'Sex', width: 0.6 },
            { label: 'Course header', width: 1.2 },
            { label: 'Signature', width: 1.2, blank: true },
          ],
          count,
          rows: batches(count, (i) => [
            String(i + 1),
            `WHB/26/A1/${String(i + 1).padStart(6, '0')}`,
            `ƁELLO Ɗanjuma Ƙasimu ${i}`,
            i % 2 ? 'M' : 'F',
            'A1',
            '',
          ]),
        };
  const printing: Printing = {
    id: 1,
    count,
    head: {
      ending: kind === 'photocards' ? 'photocard' : 'candidate-list',
      title: kind === 'photocards' ? 'Photocard' : 'Candidate list',
      board: BOARD_NAME,
      heading: [
        { label: 'Diet', value: 'MAY2026 (May 2026)' },
        { label: 'Training school', value: 'All schools' },
      ],
      printedAt: new Date().toISOString(),
      printedBy: 'Bench (board admin)',
      verification: qrOf(999_999),
    },
    blocks: [block],
    finish: async () => {},
  };
  const file = path.join(dir, `${kind}-${count}.pdf`);
  const started = performance.now();
  const { pages } = await drawPdf(printing, { storage, out: fs.createWriteStream(file) });
  const ms = performance.now() - started;
  const figure: Figure = {
    kind,
    count,
    ms: Math.round(ms),
    bytes: fs.statSync(file).size,
    pages,
    peakRssMb: peakRssMb(),
  };
  fs.rmSync(file);
  process.stdout.write(JSON.stringify(figure));
}

/**
 * This process's own peak RSS: the kernel's VmHWM, which starts again at exec. (getrusage's maxRSS keeps
 * the high-water mark of the process forked from, so inside a whole `npm run bench` every size reported
 * the bench process's own peak: 392 MB at 1,000 cards and at 20,000.) maxRSS where /proc is missing.
 */
function peakRssMb(): number {
  const status = fs.existsSync('/proc/self/status') ? fs.readFileSync('/proc/self/status', 'utf8') : '';
  const kb = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? process.resourceUsage().maxRSS);
  return Math.round(kb / 1024);
}

/** The print photos the cards use: made from camera-sized portraits (1200×1500) as uploads are. */
async function makePhotos(dir: string) {
  const storage = createLocalStorage(path.join(dir, 'uploads'));
  const keys: string[] = [];
  for (let i = 0; i < PHOTOS; i++) {
    const camera = await sharp({
      create: {
        width: 1200,
        height: 1500,
        channels: 3,
        background: { r: 180 + (i % 60), g: 150, b: 120 + (i % 90) },
      },
    })
      .composite([
        {
          input: Buffer.from(
            `<svg width="1200" height="1500"><ellipse cx="600" cy="620" rx="${300 + (i % 40)}" ry="400" fill="rgb(${90 + (i % 50)},60,40)"/><ellipse cx="600" cy="1500" rx="560" ry="480" fill="rgb(30,${60 + (i % 80)},120)"/></svg>`,
          ),
        },
      ])
      .jpeg({ quality: 90 })
      .toBuffer();
    const small = await printPhotoOf(new Uint8Array(camera));
    const key = newKey('candidates', 'jpg');
    await storage.put(key, small.bytes, small.contentType);
    keys.push(key);
  }
  fs.writeFileSync(path.join(dir, 'photos.txt'), keys.join('\n'));
}

function runChild(kind: Figure['kind'], count: number, dir: string): Promise<Figure> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.resolve('scripts/bench-pdf.ts'), 'child', kind, String(count), dir],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as Figure) : reject(new Error(`bench-pdf child exited ${code}`)),
    );
  });
}

export async function benchPdf(): Promise<Figure[]> {
  console.log('\nBulk PDFs (server/documents/pdf.ts): each size drawn in its own process');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pdf-'));
  try {
    await makePhotos(dir);
    const figures: Figure[] = [];
    for (const kind of (process.env.BENCH_PDF_KINDS ?? 'photocards,list').split(',') as Figure['kind'][]) {
      for (const count of COUNTS) {
        const figure = await runChild(kind, count, dir);
        figures.push(figure);
        // No anchor: the time is absolute (its load stored beside it); size, pages and memory are not
        // moved by the load.
        const key = `pdf.${kind}.n${count}`;
        recordFigure(`${key}.ms`, figure.ms, 'ms', 'lower');
        recordFigure(`${key}.bytes`, figure.bytes, 'bytes', 'lower');
        recordFigure(`${key}.pages`, figure.pages, 'pages', 'lower');
        recordFigure(`${key}.peak_rss_mb`, figure.peakRssMb, 'MB', 'lower');
        console.log(
          `  ${kind.padEnd(10)} ${String(count).padStart(6)}: ${(figure.ms / 1000).toFixed(2)} s, ${(figure.bytes / 2 ** 20).toFixed(1)} MB, ${figure.pages} pages, peak RSS ${figure.peakRssMb} MB`,
        );
      }
    }
    return figures;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'child') {
  await child(process.argv[3] as Figure['kind'], Number(process.argv[4]), process.argv[5]);
}
