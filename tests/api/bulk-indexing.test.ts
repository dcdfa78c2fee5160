import { stringify } from 'csv-stringify/sync';
import { eq, like } from 'drizzle-orm';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_COLUMNS, BULK_MESSAGES as M, type BulkReport } from '../../contract/bulkIndexing';
import { CANDIDATE_MESSAGES, CANDIDATE_RULE_MESSAGES as R } from '../../contract/candidates';
import { BULK_INDEXING_ENDPOINTS } from '../../contract/bulkIndexing.endpoints';
import { fillPath } from '../../contract/endpoint';
import { candidates, files } from '../../server/db/schema';
import { VALID_CANDIDATE } from '../fixtures/candidate';
import { demoSignIns, PNG } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Bulk indexing over HTTP: the template; the dry run's report in the form's own words, row by row;
 * the import by chunks, indexing the good rows with index numbers as the form does, and never twice
 * for a chunk sent again; the report as CSV; and only the board may.
 */

let t: TestPortal;
let tokens: Awaited<ReturnType<typeof demoSignIns>>;
beforeAll(async () => {
  t = await startTestPortal();
  tokens = await demoSignIns(t);
});
afterAll(() => t?.close());

/** The form's valid candidate (tests/fixtures), as a CSV row writes it: the date of birth as DD/MM/YYYY. */
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

function stage(csv: string | null, zip: Record<string, Uint8Array> | null, token = tokens.admin) {
  const form = new FormData();
  if (csv !== null) form.set('csv', new File([csv], 'candidates.csv', { type: 'text/csv' }));
  if (zip) form.set('files', new File([zipSync(zip)], 'files.zip', { type: 'application/zip' }));
  return t.request('POST', BULK_INDEXING_ENDPOINTS.start.path, { token, form });
}

const importRows = (id: number, from: number, count: number) =>
  t.request('POST', fillPath(BULK_INDEXING_ENDPOINTS.import.path, { id }), {
    token: tokens.admin,
    json: { from, count },
  });

describe('bulk indexing', () => {
  it('the template has the form’s columns and an example row', async () => {
    const response = await fetch(t.url + BULK_INDEXING_ENDPOINTS.template.path, {
      headers: { authorization: `Bearer ${tokens.admin}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, example] = (await response.text()).trim().split(/\r?\n/);
    expect(header.split(',')).toEqual([...BULK_COLUMNS]);
    expect(example).toContain('Chiamaka');
  });

  it('a dry run reports each bad row in the form’s words; the import indexes the good ones once', async () => {
    const csv = csvOf([
      { ...person('Adaku', 'Bulkone'), photo: 'adaku.png' },
      person('Bisi', 'Bulktwo'),
      { ...person('Chidi', 'Bulkthree', { date_of_birth: '31/02/2001' }), photo: 'nowhere.png' },
      person('Dayo', 'Bulkfour', { first_name: 'Da' }),
      { ...person('Adaku', 'Bulkone'), photo: 'adaku.png' },
      person('Efe', 'Bulkfive'),
    ]);
    const staged = await stage(csv, { 'adaku.png': PNG, '2-photo.png': PNG, '6-photo.png': PNG });
    expect(staged.status, JSON.stringify(staged.body)).toBe(200);
    const report = staged.body.data as BulkReport;
    expect(staged.body.message).toBe(M.checked(3, 6));
    expect(report).toMatchObject({ rows: 6, good: 3, indexed: [], finished: false });
    expect(report.problems).toEqual(
      expect.arrayContaining([
        { row: 3, field: 'photo', message: M.fileMissing('nowhere.png') },
        { row: 3, field: 'date_of_birth', message: CANDIDATE_MESSAGES.dateOfBirthInvalid },
        { row: 4, field: 'first_name', message: CANDIDATE_MESSAGES.firstNameShort },
        { row: 5, field: 'first_name', message: M.duplicateInFile },
      ]),
    );
    expect(report.problems.some((problem) => [1, 2, 6].includes(problem.row))).toBe(false);
    expect(await db().select().from(candidates).where(like(candidates.last_name, 'Bulk%'))).toEqual([]);

    // Two chunks; the second sent twice indexes nobody twice.
    const first = await importRows(report.id, 1, 3);
    expect(first.status).toBe(200);
    expect(first.body.message).toBe(M.imported(2));
    const second = await importRows(report.id, 4, 3);
    expect(second.body.message).toBe(M.imported(1));
    const again = await importRows(report.id, 4, 3);
    expect(again.body.message).toBe(M.imported(0));
    const done = again.body.data as BulkReport;
    expect(done.finished).toBe(true);
    expect(done.indexed.map((entry) => entry.row)).toEqual([1, 2, 6]);
    for (const entry of done.indexed) expect(entry.candidate_index).toMatch(/^WHB\/\d{2}\/A1\/\d{6}$/);

    const indexed = await db().select().from(candidates).where(like(candidates.last_name, 'Bulk%'));
    expect(indexed.map((row) => row.last_name).sort()).toEqual(['Bulkfive', 'Bulkone', 'Bulktwo']);
    // Each with its photo, as the form stores it; the zip itself is gone once the batch is finished.
    for (const row of indexed) {
      const stored = await db().select().from(files).where(eq(files.candidateId, row.id));
      expect(stored.find((file) => file.field === 'photo')).toMatchObject({ contentType: 'image/png' });
      expect(stored.find((file) => file.field === 'photo_print')).toMatchObject({ contentType: 'image/jpeg' });
    }
    expect(await db().select().from(files).where(eq(files.kind, 'bulk_batch'))).toEqual([]);

    // A second file with the same people: the duplicate rule refuses them, in the form's words.
    const repeat = await stage(csvOf([person('Bisi', 'Bulktwo')]), { '1-photo.png': PNG });
    expect(repeat.body.data.problems).toEqual([{ row: 1, field: 'first_name', message: R.duplicate }]);

    const csvReport = await fetch(t.url + fillPath(BULK_INDEXING_ENDPOINTS.report.path, { id: report.id }), {
      headers: { authorization: `Bearer ${tokens.admin}` },
    });
    const text = await csvReport.text();
    expect(text.split(/\r?\n/)[0]).toBe('Row,Field,Message,Index number');
    expect(text).toContain(`3,date_of_birth,${CANDIDATE_MESSAGES.dateOfBirthInvalid}`);
    expect(text).toContain(`1,,Indexed,${done.indexed[0].candidate_index}`);
  });

  it('refuses what is not a CSV of the template, and a school admin', async () => {
    expect((await stage(null, null)).body.message).toEqual({ csv: [M.csvRequired] });
    expect((await stage('first_name,shoe_size\nAda,9\n', null)).body.message).toEqual({
      csv: [M.unknownColumns(['shoe_size'])],
    });
    expect((await stage(csvOf([]), null)).body.message).toEqual({ csv: [M.csvEmpty] });
    const notZip = new FormData();
    notZip.set('csv', new File([csvOf([person('Ngozi', 'Zipless')])], 'c.csv'));
    notZip.set('files', new File(['not a zip'], 'f.zip'));
    expect(
      (await t.request('POST', BULK_INDEXING_ENDPOINTS.start.path, { token: tokens.admin, form: notZip }))
        .body.message,
    ).toEqual({
      files: [M.zipNotZip],
    });
    expect((await stage(csvOf([person('Ngozi', 'School')]), null, tokens.school1)).status).toBe(403);
    expect((await importRows(999_999, 1, 10)).status).toBe(404);
    for (const json of [{}, { from: 0, count: 10 }, { from: 1, count: 201 }, { from: '1', count: 5 }]) {
      const response = await t.request('POST', fillPath(BULK_INDEXING_ENDPOINTS.import.path, { id: 1 }), {
        token: tokens.admin,
        json,
      });
      expect(response.status, JSON.stringify(json)).toBe(422);
    }
  });
});

const db = () => t.portal.database.db;
