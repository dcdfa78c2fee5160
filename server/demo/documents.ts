import { PNG } from 'pngjs';
import { UPLOAD_LABELS, type UploadField } from '../../contract/candidates';
import { uploadRule } from '../candidates/form';
import { checkUpload, type Upload } from '../storage/uploads';

/**
 * The demo's photos and certificates, made at seed time rather than committed: a handful of small PNG
 * portraits (a silhouette on a coloured ground, by pngjs) and one-page PDF specimens (by pdfkit, the
 * PDF library the printable documents use). Each goes through the checks a real upload passes, so it
 * is stored and recorded exactly as one would be. Candidates share these bytes; each gets its own
 * stored file and `files` row.
 */

type Rgb = readonly [number, number, number];

const GROUNDS: Rgb[] = [
  [214, 228, 240],
  [226, 236, 214],
  [240, 226, 214],
  [228, 220, 238],
];
const SKINS: Rgb[] = [
  [92, 58, 38],
  [124, 80, 52],
  [150, 104, 70],
];
const CLOTHES: Rgb[] = [
  [30, 64, 120],
  [120, 30, 48],
  [36, 96, 64],
];

const PHOTO_WIDTH = 90;
const PHOTO_HEIGHT = 112;

/** A passport-style portrait: head and shoulders on a plain ground. */
function portrait(ground: Rgb, skin: Rgb, clothes: Rgb): Uint8Array {
  const png = new PNG({ width: PHOTO_WIDTH, height: PHOTO_HEIGHT });
  const inEllipse = (x: number, y: number, cx: number, cy: number, rx: number, ry: number) =>
    ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1;
  for (let y = 0; y < PHOTO_HEIGHT; y++) {
    for (let x = 0; x < PHOTO_WIDTH; x++) {
      let colour = ground;
      if (inEllipse(x, y, 45, 124, 44, 42)) colour = clothes;
      else if (x >= 37 && x <= 53 && y >= 62 && y <= 86) colour = skin;
      else if (inEllipse(x, y, 45, 46, 20, 25)) colour = skin;
      const i = (y * PHOTO_WIDTH + x) * 4;
      png.data[i] = colour[0];
      png.data[i + 1] = colour[1];
      png.data[i + 2] = colour[2];
      png.data[i + 3] = 255;
    }
  }
  return new Uint8Array(PNG.sync.write(png));
}

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
  photos: Upload[];
  certificates: Record<DemoCertificateField, Upload>;
}

export async function makeDemoDocuments(): Promise<DemoDocuments> {
  const photos = await Promise.all(
    GROUNDS.flatMap((ground, g) =>
      SKINS.map((skin, s) =>
        checked('photo', portrait(ground, skin, CLOTHES[(g + s) % CLOTHES.length]), `photo-${g}-${s}.png`),
      ),
    ),
  );
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
  return { photos, certificates };
}
