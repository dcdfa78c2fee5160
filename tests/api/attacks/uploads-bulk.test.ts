import { stringify } from 'csv-stringify/sync';
import { constants, deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BULK_COLUMNS,
  BULK_LIMITS as L,
  BULK_MESSAGES as M,
  type BulkReport,
} from '../../../contract/bulkIndexing';
import { CANDIDATE_MESSAGES } from '../../../contract/candidates';
import { UPLOAD_LIMIT_BYTES } from '../../../contract/constants';
import { unreadableCell } from '../../../contract/input';
import { SCORE_ENDPOINTS } from '../../../contract/scores.endpoints';
import { BULK_INDEXING_ENDPOINTS } from '../../../contract/bulkIndexing.endpoints';
import { issueToken } from '../../../server/auth/tokens';
import { capsFor, readZip } from '../../../server/candidates/zip';
import { addUser, currentDietOf, demoSignIns, PNG, VALID_CANDIDATE } from '../fixtures';
import { startTestPortal, type TestPortal } from '../portal';
import { deflated, padded, rawZip, type RawEntry } from '../zips';

/**
 * Attack class: bulk uploads (issue 22). One upload cannot stop the portal: a zip entry that inflates
 * past the upload limit is that row's 'File is too large' and is never inflated further (the header's
 * stated size is not believed); an archive of too many entries, or unpacking past the total, is
 * refused whole in words; entries a central directory lists over another's bytes are not read; and a
 * CSV (bulk indexing, marks from paper) with a NUL, a surrogate or bytes that are not UTF-8 is a 422
 * naming the row and column, never a 500.
 */

let t: TestPortal;
let tokens: Awaited<ReturnType<typeof demoSignIns>>;
beforeAll(async () => {
  t = await startTestPortal();
  tokens = await demoSignIns(t);
});
afterAll(() => t?.close());

const person = (first: string, last: string, overrides: Record<string, string> = {}) => ({
  ...VALID_CANDIDATE,
  first_name: first,
  last_name: last,
  middle_name: '',
  date_of_birth: VALID_CANDIDATE.date_of_birth.split('-').reverse().join('/'),
  ...overrides,
});
const csvOf = (rows: Record<string, string>[]) =>
  stringify([[...BULK_COLUMNS], ...rows.map((row) => BULK_COLUMNS.map((column) => row[column] ?? ''))]);

function stage(csv: string | Uint8Array, zip: Uint8Array | null) {
  const form = new FormData();
  form.set('csv', new File([csv as BlobPart], 'candidates.csv', { type: 'text/csv' }));
  if (zip) form.set('files', new File([zip as BlobPart], 'files.zip', { type: 'application/zip' }));
  return t.request('POST', BULK_INDEXING_ENDPOINTS.start.path, { token: tokens.admin, form });
}

/**
 * A deflate stream of `megabytes` MB of zeros at about a thousandth of that: 1 MB of zeros deflated
 * once, sync-flushed (no final block, so the pieces chain), repeated, then an empty final block. Its
 * header says it inflates to `says` bytes.
 */
function zeroBomb(name: string, megabytes: number, says: number): RawEntry {
  const piece = deflateRawSync(new Uint8Array(1 << 20), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const data = new Uint8Array(piece.byteLength * megabytes + 2);
  for (let i = 0; i < megabytes; i++) data.set(piece, i * piece.byteLength);
  data.set([0x03, 0x00], piece.byteLength * megabytes);
  return { name, data, size: says, crc: 0 };
}

describe('bulk indexing zips', () => {
  it('a small zip whose entries inflate to 4 GB each: never inflated past the cap, each row told in words', async () => {
    // One says what it inflates to (more than the cap): it is not inflated at all. One says 1,000 bytes,
    // as an attacker's would: it is inflated only until it passes what it said.
    const honest = zeroBomb('honest.png', 4000, 4_000_000_000);
    const lying = zeroBomb('lying.png', 4000, 1000);
    expect(honest.data.byteLength).toBeLessThan(5_000_000);
    const zip = rawZip([honest, lying, deflated('ok.png', PNG)]);
    const started = performance.now();
    const response = await stage(
      csvOf([
        { ...person('Zipbomb', 'Rowone'), photo: 'honest.png' },
        { ...person('Zipbomb', 'Rowtwo'), photo: 'lying.png' },
        { ...person('Zipbomb', 'Rowthree'), photo: 'ok.png' },
      ]),
      zip,
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const report = response.body.data as BulkReport;
    expect(report.problems).toEqual([
      { row: 1, field: 'photo', message: CANDIDATE_MESSAGES.fileTooLarge },
      { row: 2, field: 'photo', message: M.fileUnreadable('lying.png') },
    ]);
    expect(report.good).toBe(1);
    // 8 GB inflated would take minutes (and hold gigabytes).
    expect(performance.now() - started).toBeLessThan(20_000);

    // The reader itself: the honest one was not inflated; the lying one stopped within a chunk of 1,000.
    const read = await readZip(zip, { names: ['honest.png', 'lying.png'], stems: [] }, 'whole', capsFor(1));
    expect(read.entries.get('honest.png')).toEqual({ size: 0, tooLarge: true, broken: false, bytes: null });
    const stopped = read.entries.get('lying.png')!;
    expect(stopped).toMatchObject({ tooLarge: false, broken: true, bytes: null });
    expect(stopped.size).toBeLessThan(UPLOAD_LIMIT_BYTES);
  });

  it('refuses a zip of more entries than a batch can use, in words', async () => {
    const empty = deflated('x', new Uint8Array(0));
    const many = Array.from({ length: L.zipEntries + 1 }, (_, i) => ({ ...empty, name: `f${i}.png` }));
    const response = await stage(csvOf([person('Many', 'Entries')]), rawZip(many));
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ files: [M.zipTooManyFiles] });
  });

  it('refuses a zip whose central directory lays entries over another’s bytes (an overlapping-entries bomb)', async () => {
    const real = deflated('real.png', padded(PNG, 1_900_000));
    const overlapping = Array.from({ length: 1000 }, (_, i) => `over-${i}.png`);
    const response = await stage(
      csvOf([{ ...person('Overlap', 'Rowone'), photo: 'over-5.png' }]),
      rawZip([real], { centralOnly: overlapping }),
    );
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ files: [M.zipNotZip] });
  });

  it('stops reading once the entries asked for unpack past the total cap, and says so', async () => {
    const entry = deflated('a.png', padded(PNG, 1_500_000));
    const zip = rawZip(Array.from({ length: 10 }, (_, i) => ({ ...entry, name: `${i + 1}-photo.png` })));
    const asked = { names: [], stems: Array.from({ length: 10 }, (_, i) => `${i + 1}-photo`) };
    // The cap of ten rows holds them; a total cap of 5 MB does not.
    expect((await readZip(zip, asked, 'head', capsFor(10))).entries.size).toBe(10);
    await expect(readZip(zip, asked, 'head', { ...capsFor(10), totalCap: 5_000_000 })).rejects.toMatchObject({
      fields: { files: [M.zipUnpacksTooLarge] },
    });
  });

  it('refuses what is not a zip, and a truncated one, in words', async () => {
    const zip = rawZip([deflated('1-photo.png', PNG)]);
    for (const bytes of [new Uint8Array([1, 2, 3, 4, 5]), zip.subarray(0, 40)]) {
      const response = await stage(csvOf([person('Broken', 'Zipfile')]), bytes);
      expect(response.status).toBe(422);
      expect(response.body.message).toEqual({ files: [M.zipNotZip] });
    }
  });
});

describe('bulk CSVs: every cell through the hostile-input check', () => {
  const header = BULK_COLUMNS.join(',');
  const row = (first: string) =>
    BULK_COLUMNS.map((column) =>
      column === 'first_name' ? first : ((person('Ada', 'Csvcell') as Record<string, string>)[column] ?? ''),
    ).join(',');
  const bytesOf = (...parts: (string | number[])[]) =>
    new Uint8Array(
      parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part, 'utf8')] : part)),
    );

  /** The CSV of two rows, the second's first name `Ad`, then `bytes`, then `a`. */
  const withBytes = (bytes: number[]) => {
    const [before, after] = row('Ad|a').split('|');
    return bytesOf(`${header}\n${row('Ada')}\n${before}`, bytes, `${after}\n`);
  };
  it.each([
    ['a NUL', withBytes([0])],
    ['an unpaired surrogate (its WTF-8 bytes)', withBytes([0xed, 0xa0, 0x80])],
    ['bytes that are not UTF-8 (Latin-1)', withBytes([0xe9])],
  ])('refuses %s as a 422 naming the row and column', async (_name, bytes) => {
    const response = await stage(bytes, null);
    expect(response.status, JSON.stringify(response.body)).toBe(422);
    expect(response.body.message).toEqual({ csv: [unreadableCell(2, 'first_name')] });
  });

  it('refuses a NUL in the header row', async () => {
    const response = await stage(bytesOf('first_', [0], `name,last_name\n${'Ada,Obi'}\n`), null);
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ csv: [unreadableCell('header', '1')] });
  });

  it('marks from paper: the same check, rows numbered as its report numbers them', async () => {
    const db = t.portal.database.db;
    const one = await addUser(t, { email: 'csv-marker-one@example.org', name: 'Marker One', role: 'admin' });
    const two = await addUser(t, { email: 'csv-marker-two@example.org', name: 'Marker Two', role: 'admin' });
    const token = (await issueToken(db, one, 60)).token;
    const paper = await t.request('POST', SCORE_ENDPOINTS.createPaper.path, {
      token: tokens.admin,
      json: {
        course_header: 'B1',
        name: 'Hostile CSV',
        ...{ q1_max: '50', q2_max: '50', q3_max: '0', q4_max: '0', q5_max: '0' },
        tolerance_question: '5',
        tolerance_total: '5',
      },
    });
    expect(paper.status, JSON.stringify(paper.body)).toBe(200);
    const sheet = await t.request('POST', SCORE_ENDPOINTS.createSheet.path, {
      token: tokens.admin,
      json: {
        kind: 'exam',
        diet: (await currentDietOf(t)).code,
        course_header: 'B1',
        paper_id: paper.body.data.id,
        marker_one: one,
        marker_two: two,
      },
    });
    expect(sheet.status, JSON.stringify(sheet.body)).toBe(200);
    const path = `/api/admin/score/sheets/${sheet.body.data.id}/grids/one/import`;
    for (const [bytes, column] of [
      [bytesOf('candidate_index,q1,q2,absent\nWHB/24/B1/000001,1,2,\nWHB/24/B1/000002,', [0], ',3,\n'), 'q1'],
      [
        bytesOf('candidate_index,q1,q2,absent\nWHB/24/B1/000001,1,2,\nWHB/24/B1/00000', [0xff], ',1,3,\n'),
        'candidate_index',
      ],
    ] as const) {
      const form = new FormData();
      form.append('csv', new File([bytes as BlobPart], 'marks.csv', { type: 'text/csv' }));
      form.append('dry_run', '1');
      const response = await t.request('POST', path, { token, form });
      expect(response.status, JSON.stringify(response.body)).toBe(422);
      // Its report numbers rows by line: the header is line 1.
      expect(response.body.message).toEqual({ csv: [unreadableCell(3, column)] });
    }
  });
});
