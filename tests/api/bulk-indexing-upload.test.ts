import { stringify } from 'csv-stringify/sync';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_COLUMNS, BULK_LIMITS, BULK_MESSAGES as M, type BulkReport } from '../../contract/bulkIndexing';
import { UPLOAD_FIELDS } from '../../contract/candidates';
import { IMPORT_MAX_BYTES, SCORE_MESSAGES } from '../../contract/scores';
import { BULK_INDEXING_ENDPOINTS } from '../../contract/bulkIndexing.endpoints';
import { demoSignIns, PNG, VALID_CANDIDATE } from './fixtures';
import { answeredMeanwhile } from './answering';
import { startTestPortal, type TestPortal } from './portal';
import { deflated, padded, rawZip } from './zips';

/**
 * One upload cannot stop the portal (issue 22), its body this time: a large form (bulk indexing's CSV
 * and zip, marks from paper) is read by busboy as a stream (server/http/validate.ts), never parsed in
 * one go on the event loop, and its caps stop the reading where they are passed, in the same words.
 */

let t: TestPortal;
let tokens: Awaited<ReturnType<typeof demoSignIns>>;
beforeAll(async () => {
  t = await startTestPortal();
  tokens = await demoSignIns(t);
});
afterAll(() => t?.close());

const ROWS = 24;
/** The upload's size: an entry no row asks for (never inflated) makes the body this large. */
const UPLOAD_BYTES = 380_000_000;

const bulkCsv = (rows: number) =>
  stringify([
    [...BULK_COLUMNS],
    ...Array.from({ length: rows }, (_, i) => {
      const row: Record<string, string> = {
        ...VALID_CANDIDATE,
        first_name: 'Uploaded',
        last_name: `Body${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
        middle_name: '',
        date_of_birth: VALID_CANDIDATE.date_of_birth.split('-').reverse().join('/'),
      };
      return BULK_COLUMNS.map((column) => row[column] ?? '');
    }),
  ]);

/** A multipart body sent without a Content-Length (chunked), as a client streaming it would. */
async function chunked(path: string, parts: { name: string; filename?: string; bytes: Uint8Array }[]) {
  const boundary = 'streamed-form-boundary';
  const pieces: Uint8Array[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`), part.bytes);
    pieces.push(Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = pieces.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
  const response = await fetch(t.url + path, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${tokens.admin}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body,
    duplex: 'half',
  } as RequestInit);
  return { status: response.status, body: (await response.json()) as { success: boolean; message: unknown } };
}

/**
 * A multipart body written to the socket in 1 MB slices of the bytes as they are, with a Content-Length,
 * each slice after the last drained. Not fetch: undici's FormData (and a Blob's stream) holds this
 * process's event loop for seconds over 380 MB (measured: 5.8 s), and the portal runs in this process,
 * so it would time the test's client, not the portal.
 */
function sentBySlices(
  path: string,
  parts: { name: string; filename: string; type: string; bytes: Uint8Array }[],
) {
  const boundary = 'sliced-form-boundary';
  const pieces: Uint8Array[] = [];
  for (const part of parts) {
    pieces.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
          `Content-Type: ${part.type}\r\n\r\n`,
      ),
    );
    for (let at = 0; at < part.bytes.byteLength; at += 1024 * 1024)
      pieces.push(part.bytes.subarray(at, at + 1024 * 1024));
    pieces.push(Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  const length = pieces.reduce((sum, piece) => sum + piece.byteLength, 0);
  return new Promise<{ status: number; body: { data?: unknown; message?: unknown } }>((resolve, reject) => {
    const request = httpRequest(
      t.url + path,
      {
        method: 'POST',
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${tokens.admin}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(length),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    const write = () => {
      while (pieces.length) if (!request.write(pieces.shift())) return void request.once('drain', write);
      request.end();
    };
    write();
  });
}

describe('a large form is read as a stream', () => {
  it(`other requests answer within a second while a ${UPLOAD_BYTES / 1e6} MB upload is read and checked`, async () => {
    const file = deflated('file.png', padded(PNG, 1_900_000));
    const entries = Array.from({ length: ROWS }, (_, i) =>
      UPLOAD_FIELDS.map((field) => ({ ...file, name: `${i + 1}-${field}.png` })),
    ).flat();
    // Bytes no row asks for: never inflated (the zip reader reads only the rows' entries), so what is
    // timed is the reading of the body itself, then the rows' 456 MB unpacked in the worker.
    const unused = Buffer.alloc(UPLOAD_BYTES, 'scanned pages ');
    const zip = rawZip([...entries, { name: 'unused-scans.pdf', data: unused, size: 1000, crc: 0 }]);
    expect(zip.byteLength).toBeLessThan(BULK_LIMITS.zipBytes);
    const { response, took, timings } = await answeredMeanwhile(t, tokens.admin, () =>
      sentBySlices(BULK_INDEXING_ENDPOINTS.start.path, [
        { name: 'csv', filename: 'candidates.csv', type: 'text/csv', bytes: Buffer.from(bulkCsv(ROWS)) },
        { name: 'files', filename: 'files.zip', type: 'application/zip', bytes: zip },
      ]),
    );

    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const report = response.body.data as BulkReport;
    expect(report.problems).toEqual([]);
    expect(report.good).toBe(ROWS);
    expect(took).toBeGreaterThan(1000);
    expect(timings.length).toBeGreaterThanOrEqual(4);
    for (const timing of timings) expect(timing.status, timing.path).toBe(200);
    const slowest = Math.max(...timings.map((timing) => timing.ms));
    expect(slowest, JSON.stringify(timings.map((timing) => Math.round(timing.ms)))).toBeLessThan(1000);
  }, 180_000);

  it('a CSV past its cap is refused in the form words, sent with or without a Content-Length', async () => {
    const large = new Uint8Array(BULK_LIMITS.csvBytes + 1).fill(0x61);
    const form = new FormData();
    form.set('csv', new File([large], 'candidates.csv', { type: 'text/csv' }));
    const sized = await t.request('POST', BULK_INDEXING_ENDPOINTS.start.path, { token: tokens.admin, form });
    expect(sized.status).toBe(422);
    expect(sized.body).toEqual({ success: false, message: { csv: [M.csvTooLarge] } });
    const streamed = await chunked(BULK_INDEXING_ENDPOINTS.start.path, [
      { name: 'csv', filename: 'c.csv', bytes: large },
    ]);
    expect(streamed).toEqual({ status: 422, body: { success: false, message: { csv: [M.csvTooLarge] } } });
    // The portal still answers on its next request.
    expect((await t.request('GET', '/api/health')).status).toBe(200);
  });

  it('a body past the limit is a 413 in words: by its Content-Length, or counted when it has none', async () => {
    const path = '/api/admin/score/sheets/1/grids/one/import';
    // A text field is cut at 64 KB, so only the body's count can stop this one.
    const big = new Uint8Array(IMPORT_MAX_BYTES + 64 * 1024).fill(0x62);
    const streamed = await chunked(path, [{ name: 'reason', bytes: big }]);
    expect(streamed).toEqual({ status: 413, body: { success: false, message: 'The request is too large.' } });
    const form = new FormData();
    form.set('reason', new File([big], 'r.txt'));
    const sized = await t.request('POST', path, { token: tokens.admin, form });
    expect(sized.status).toBe(413);
    expect(sized.body).toEqual({ success: false, message: 'The request is too large.' });
    // A marks CSV past its own cap, within the body limit: the form's 422.
    const csvForm = new FormData();
    csvForm.set('csv', new File([new Uint8Array(IMPORT_MAX_BYTES + 1).fill(0x31)], 'marks.csv'));
    const csv = await t.request('POST', path, { token: tokens.admin, form: csvForm });
    expect(csv.status).toBe(422);
    expect(csv.body).toEqual({ success: false, message: { csv: [SCORE_MESSAGES.importTooLarge] } });
  });

  it('a body that is not well-formed multipart is checked as an empty form (422), never a 500', async () => {
    const broken = await chunked(BULK_INDEXING_ENDPOINTS.start.path, []);
    expect(broken.status).toBe(422);
    const response = await fetch(t.url + BULK_INDEXING_ENDPOINTS.start.path, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.admin}`,
        'content-type': 'multipart/form-data; boundary=x',
      },
      body: '--x\r\nContent-Disposition: form-data; name="csv"; filename="a.csv"\r\n\r\nname\r\n',
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ success: false, message: { csv: [M.csvRequired] } });
  });
});
