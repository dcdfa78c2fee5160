import { stringify } from 'csv-stringify/sync';
import { zipSync } from 'fflate';
import { BULK_COLUMNS, BULK_LIMITS, type BulkReport } from '../contract/bulkIndexing';
import { BULK_INDEXING_ENDPOINTS } from '../contract/bulkIndexing.endpoints';
import { fillPath } from '../contract/endpoint';
import { databaseKey, onEachDatabase, signIn, startServer } from './bench-candidates';
import { recordFigure } from './benchRecord';

/**
 * Bulk indexing at the size the issue names: 2,000 candidates with a photo each (30 KB, a PNG padded to
 * the size of a phone photo after the school's resizing), through real HTTP on a real `npm start`: the
 * dry run (upload and check of every row), then the import in chunks of BULK_LIMITS.chunk as the page
 * sends them, on PGlite and on PostgreSQL. BENCH_BULK_ROWS sizes it.
 */

const ROWS = Number(process.env.BENCH_BULK_ROWS ?? 2000);
const ADMIN = 'admin@example.org';
const PHOTO_BYTES = 30 * 1024;

const PNG_HEAD = Uint8Array.from(
  Buffer.from(
    '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
      '1f15c4890000000d49444154789c6360000002000005000158bf0a4e0000000049454e44ae426082',
    'hex',
  ),
);
function photo(seed: number): Uint8Array {
  const bytes = new Uint8Array(PHOTO_BYTES);
  bytes.set(PNG_HEAD);
  // Different bytes a photo, as real photos are (a zip of identical files would be unrealistically small).
  for (let i = PNG_HEAD.length; i < bytes.length; i += 97) bytes[i] = (seed * 31 + i) & 0xff;
  return bytes;
}

const FIRST = [
  'Amaka',
  'Bolaji',
  'Chinedu',
  'Damilola',
  'Efe',
  'Funke',
  'Gbenga',
  'Halima',
  'Ifeanyi',
  'Jumoke',
];
const LAST = ['Adeyemi', 'Bello', 'Chukwu', 'Danjuma', 'Eze', 'Fashola', 'Garba', 'Hassan', 'Ibekwe', 'Jaja'];

function files(run: string) {
  const rows = Array.from({ length: ROWS }, (_, i) => {
    const values: Record<string, string> = {
      first_name: FIRST[i % FIRST.length],
      last_name: `${LAST[Math.floor(i / FIRST.length) % LAST.length]}${run}${Math.floor(i / 100)}`,
      school_code: 'SHT-IB',
      date_of_birth: `${String((i % 28) + 1).padStart(2, '0')}/${String((Math.floor(i / 28) % 12) + 1).padStart(2, '0')}/2001`,
      candidate_category: 'fresh',
      course_header: 'A1',
      marital_status: 'S',
      gender: i % 2 ? 'male' : 'female',
      nationality: 'NG',
      certificate_evaluated: 'WASSCE',
      year_of_certificate_evaluated: '2019',
      exam_number_1: String(4250100000 + i),
      exam_month: 'June',
      english: 'B3',
      biology: 'C4',
    };
    return BULK_COLUMNS.map((column) => values[column] ?? '');
  });
  const csv = stringify([[...BULK_COLUMNS], ...rows]);
  const zip = zipSync(
    Object.fromEntries(Array.from({ length: ROWS }, (_, i) => [`${i + 1}-photo.png`, photo(i)])),
    { level: 0 },
  );
  return { csv, zip };
}

async function run(label: string, env: Record<string, string>, dataDir: string, port: number) {
  const server = await startServer(env, port);
  try {
    const token = await signIn(server.url, dataDir, ADMIN);
    const headers = { authorization: `Bearer ${token}` };
    const { csv, zip } = files(label.startsWith('PG') ? 'p' : 'g');
    const form = new FormData();
    form.set('csv', new File([csv], 'candidates.csv'));
    form.set('files', new File([zip], 'files.zip'));
    const started = performance.now();
    const staged = await fetch(server.url + BULK_INDEXING_ENDPOINTS.start.path, {
      method: 'POST',
      headers,
      body: form,
    });
    const report = (await staged.json()).data as BulkReport;
    const checked = performance.now();
    if (report.good !== ROWS)
      throw new Error(`${label}: the dry run refused rows: ${JSON.stringify(report.problems.slice(0, 3))}`);
    let last = report;
    while (!last.finished) {
      const response = await fetch(
        server.url + fillPath(BULK_INDEXING_ENDPOINTS.import.path, { id: report.id }),
        {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ from: last.imported_through + 1, count: BULK_LIMITS.chunk }),
        },
      );
      last = (await response.json()).data as BulkReport;
    }
    const imported = performance.now();
    if (last.indexed.length !== ROWS) throw new Error(`${label}: ${last.indexed.length} of ${ROWS} indexed`);
    // No anchor runs beside an import: its seconds are absolute, read with the load stored beside them.
    const key = `bulk.${databaseKey(label)}.n${ROWS}`;
    recordFigure(`${key}.dry_run_s`, Number(((checked - started) / 1000).toFixed(2)), 's', 'lower');
    recordFigure(`${key}.import_s`, Number(((imported - checked) / 1000).toFixed(2)), 's', 'lower');
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    // Milliseconds a row are seconds a thousand rows.
    const perThousand = (ms: number) => `${(ms / ROWS).toFixed(1)} s`;
    return {
      label,
      line: `| ${label} | ${ROWS.toLocaleString('en')} | ${(zip.byteLength / 2 ** 20).toFixed(0)} MB | ${s(checked - started)} | ${s(imported - checked)} | ${s(imported - started)} | ${perThousand(imported - started)} |`,
    };
  } finally {
    await server.stop();
  }
}

export async function benchBulk({ port }: { port: number }) {
  const lines = await onEachDatabase(
    'bulk',
    async (label, env, dataDir) => (await run(label, env, dataDir, port)).line,
  );
  console.log('\nBulk indexing (2,000 rows with a 30 KB photo each, over HTTP):');
  console.log(
    '| database | rows | zip | dry run | import | total | per 1,000 rows |\n|---|---|---|---|---|---|---|',
  );
  for (const line of lines) console.log(line);
}
