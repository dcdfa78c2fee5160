import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_COLUMNS, type BulkReport } from '../../contract/bulkIndexing';
import { UPLOAD_FIELDS } from '../../contract/candidates';
import { BULK_INDEXING_ENDPOINTS } from '../../contract/bulkIndexing.endpoints';
import { demoSignIns, PNG, VALID_CANDIDATE } from './fixtures';
import { answeredMeanwhile } from './answering';
import { startTestPortal, type TestPortal } from './portal';
import { deflated, padded, rawZip } from './zips';

/**
 * One upload cannot stop the portal (issue 22): while a dry run checks an archive that unpacks to
 * 912 MB (48 rows, each with all ten uploads of 1.9 MB), other users' requests (the health check, a
 * list) keep answering within a second, because the zip is inflated in a worker thread, not on the
 * thread that answers requests.
 */

let t: TestPortal;
let tokens: Awaited<ReturnType<typeof demoSignIns>>;
beforeAll(async () => {
  t = await startTestPortal();
  tokens = await demoSignIns(t);
});
afterAll(() => t?.close());

// Enough that the check takes well over a second on a fast run too (24 rows once took 0.99 s in CI).
const ROWS = 48;

describe('bulk indexing under load', () => {
  it('other requests answer within a second while a large archive is checked', async () => {
    // One file's deflated bytes (a PNG padded with zeros to 1.9 MB) under 400 names: built in milliseconds.
    const file = deflated('file.png', padded(PNG, 1_900_000));
    const entries = Array.from({ length: ROWS }, (_, i) =>
      UPLOAD_FIELDS.map((field) => ({ ...file, name: `${i + 1}-${field}.png` })),
    ).flat();
    const zip = rawZip(entries);
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      ...VALID_CANDIDATE,
      first_name: 'Loaded',
      last_name: `Archive${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
      middle_name: '',
      date_of_birth: VALID_CANDIDATE.date_of_birth.split('-').reverse().join('/'),
    }));
    const csv = stringify([
      [...BULK_COLUMNS],
      ...rows.map((row) => BULK_COLUMNS.map((column) => (row as Record<string, string>)[column] ?? '')),
    ]);
    const form = new FormData();
    form.set('csv', new File([csv], 'candidates.csv', { type: 'text/csv' }));
    form.set('files', new File([zip as BlobPart], 'files.zip', { type: 'application/zip' }));

    const { response, took, timings } = await answeredMeanwhile(t, tokens.admin, () =>
      t.request('POST', BULK_INDEXING_ENDPOINTS.start.path, { token: tokens.admin, form }),
    );

    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const report = response.body.data as BulkReport;
    expect(report.problems).toEqual([]);
    expect(report.good).toBe(ROWS);
    // The check took a while (not a test that passes by answering at once) ...
    expect(took).toBeGreaterThan(1000);
    expect(timings.length).toBeGreaterThanOrEqual(4);
    // ... and meanwhile everyone else was answered within a second.
    for (const timing of timings) expect(timing.status, timing.path).toBe(200);
    const slowest = Math.max(...timings.map((timing) => timing.ms));
    expect(slowest, JSON.stringify(timings.map((timing) => Math.round(timing.ms)))).toBeLessThan(1000);
  }, 180_000);
});
