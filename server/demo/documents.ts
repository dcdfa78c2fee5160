import { UPLOAD_LABELS, type UploadField } from '../../contract/candidates';
import { uploadRule } from '../candidates/form';
import { checkUpload, type Upload } from '../storage/uploads';
import type { Random } from './random';

/**
 * The demo's photos and certificates, made at seed time rather than committed: a small PNG portrait for
 * each candidate (by pngjs) and one-page PDF specimens (by pdfkit, the PDF library the printable
 * documents use). Each goes through the checks a real upload passes, so it is stored and recorded
 * exactly as one would be. Candidates share the certificates' bytes; each gets its own stored file and
 * `files` row.
 */

type Rgb = readonly [number, number, number];

const PHOTO_WIDTH = 90;
const PHOTO_HEIGHT = 112;
const HAIR: Rgb = [25, 20, 18];

const clamp = (value: number) => Math.max(0, Math.min(255, Math.round(value)));

/**
 * A passport-style portrait of one made-up person: head, hair, neck and shoulders on a studio ground with
 * its own light (a slope and a few soft patches), each drawn from `rng`. Every demo candidate has their
 * own: the photos look alike, as a school's passport photos do, but are not one photo, so the integrity
 * reports' duplicate finder must not flag them (tests/api/integrity.test.ts; their likeness peaks about
 * 0.96 where the finder's threshold is 0.98, docs/performance.md).
 */
async function portrait(rng: Random): Promise<Uint8Array> {
  // Loaded when the demo is seeded, not at every start.
  const { PNG } = await import('pngjs');
  const r = rng.next;
  const png = new PNG({ width: PHOTO_WIDTH, height: PHOTO_HEIGHT });
  const cx = 45 + (r() - 0.5) * 20;
  const cy = 44 + (r() - 0.5) * 16;
  const rx = 15 + r() * 9;
  const ry = 19 + r() * 9;
  const sx = 45 + (r() - 0.5) * 16;
  const sw = 34 + r() * 16;
  const sy = 116 + r() * 14;
  const angle = r() * Math.PI * 2;
  const slope = 20 + r() * 60;
  const ground = [170 + r() * 80, 170 + r() * 80, 170 + r() * 80];
  const skin: Rgb = [70 + r() * 90, 45 + r() * 65, 25 + r() * 45];
  const clothes: Rgb = [r() * 200, r() * 200, r() * 200];
  const hairTop = 0.1 + r() * 0.7;
  const hairWide = 1 + r() * 0.35;
  const patches = Array.from({ length: 3 }, () => [
    r() * PHOTO_WIDTH,
    r() * PHOTO_HEIGHT,
    10 + r() * 25,
    (r() - 0.5) * 90,
  ]);
  const inEllipse = (x: number, y: number, ex: number, ey: number, erx: number, ery: number) =>
    ((x - ex) / erx) ** 2 + ((y - ey) / ery) ** 2 <= 1;
  for (let y = 0; y < PHOTO_HEIGHT; y++) {
    for (let x = 0; x < PHOTO_WIDTH; x++) {
      let light = slope * (((x - 45) * Math.cos(angle) + (y - 56) * Math.sin(angle)) / 70);
      for (const [px, py, pr, pa] of patches)
        light += pa * Math.exp(-((x - px) ** 2 + (y - py) ** 2) / (pr * pr));
      let colour: readonly number[] = ground.map((value) => value + light);
      if (inEllipse(x, y, sx, sy, sw, 42)) colour = clothes;
      else if (x >= cx - 8 && x <= cx + 8 && y >= cy + ry * 0.6 && y <= cy + ry + 18) colour = skin;
      else if (inEllipse(x, y, cx, cy - ry * 0.15, rx * hairWide, ry * 1.05) && y < cy - ry * (0.9 - hairTop))
        colour = HAIR;
      else if (inEllipse(x, y, cx, cy, rx, ry)) colour = skin;
      const i = (y * PHOTO_WIDTH + x) * 4;
      png.data[i] = clamp(colour[0]);
      png.data[i + 1] = clamp(colour[1]);
      png.data[i + 2] = clamp(colour[2]);
      png.data[i + 3] = 255;
    }
  }
  return new Uint8Array(PNG.sync.write(png));
}

/** One made-up person's photo, checked as the index form's photo is. */
export const demoPhoto = async (rng: Random): Promise<Upload> =>
  checked('photo', await portrait(rng), 'photo.png');

/** A one-page specimen certificate, plainly marked as demo data. */
async function specimen(title: string, lines: string[]): Promise<Uint8Array> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A5',
    layout: 'landscape',
    margin: 36,
    info: { Title: `${title} (demo specimen)`, Author: 'Examination portal demo' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => doc.on('end', resolve));
  doc
    .rect(18, 18, doc.page.width - 36, doc.page.height - 36)
    .lineWidth(2)
    .stroke('#1e4078');
  doc.moveDown(1.5).font('Helvetica-Bold').fontSize(20).fillColor('#1e4078').text(title, { align: 'center' });
  doc.moveDown(1).font('Helvetica').fontSize(12).fillColor('black');
  for (const line of lines) doc.text(line, { align: 'center' }).moveDown(0.4);
  doc.moveDown(1.5).fontSize(10).fillColor('#a01830');
  doc.text('SPECIMEN: made-up demo data, not a real certificate', { align: 'center' });
  doc.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}

/** Checked as the index form's upload of `field` is checked (server/candidates/form.ts). */
async function checked(field: UploadField, bytes: Uint8Array, name: string): Promise<Upload> {
  const result = await checkUpload(new File([bytes as Uint8Array<ArrayBuffer>], name), uploadRule(field));
  if (typeof result === 'string') throw new Error(`The demo's ${UPLOAD_LABELS[field]} is refused: ${result}`);
  return result;
}

type DemoCertificateField = Extract<
  UploadField,
  'olevel_certificate_upload' | 'birth_certificate_upload' | 'fn_image_upload' | 'nd_certificate_upload'
>;

export interface DemoDocuments {
  certificates: Record<DemoCertificateField, Upload>;
}

export async function makeDemoDocuments(): Promise<DemoDocuments> {
  const pdfs: [DemoCertificateField, string, string[]][] = [
    [
      'olevel_certificate_upload',
      'Senior School Certificate Examination',
      ['Statement of Result', 'English Language, Mathematics, Biology, Chemistry, Physics'],
    ],
    ['birth_certificate_upload', 'Certificate of Birth', ['National Population Commission']],
    ['fn_image_upload', 'Food Hygiene Certificate', ['Awarded on completion of the food hygiene course']],
    ['nd_certificate_upload', 'National Diploma', ['Community Health']],
  ];
  const certificates = Object.fromEntries(
    await Promise.all(
      pdfs.map(async ([field, title, lines]) => [
        field,
        await checked(field, await specimen(title, lines), 'c.pdf'),
      ]),
    ),
  ) as Record<DemoCertificateField, Upload>;
  return { certificates };
}
