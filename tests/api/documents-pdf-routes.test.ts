import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOCUMENT_DOWNLOAD_MINUTES,
  DOCUMENT_INLINE_LIMIT,
  DOCUMENT_MESSAGES as M,
  type DocumentJob,
} from '../../contract/documents';
import { DOCUMENT_ENDPOINTS as E } from '../../contract/documents.endpoints';
import { fillPath } from '../../contract/endpoint';
import { issueToken } from '../../server/auth/tokens';
import { candidates, documentJobs, files } from '../../server/db/schema';
import { downloadLink } from '../../server/documents/downloads';
import { PAGE, HEAD } from '../../server/documents/pdfLayout';
import { schoolIdOf, until, userIdOf } from './fixtures';
import { decodeQr, pdfPages } from './pdfs';
import { startTestPortal, type TestPortal } from './portal';

/**
 * The PDF routes over real HTTP on the living demo (issue 25): a list streamed as a PDF with its head,
 * pages and QR code, the code checked at /api/verify ('genuine', then 'changed' once a name on it
 * changes); beyond DOCUMENT_INLINE_LIMIT a 413 that says to build it as a job; the job built on the
 * queue with its progress, its file downloaded through the job's signed link (no bearer token, as a
 * browser's download manager asks) in two parts (Range, If-Range) and whole; the link refused when
 * tampered with, another user's, another job's or expired, and never in a log line; and nobody else's
 * job readable: not another school's, not another board admin's.
 */

let t: TestPortal;
const tokens: Record<string, string> = {};
/** Every log line the portal writes (request lines on): no download link's token may be among them. */
const lines: string[] = [];
const log = {
  info: (event: string, fields?: Record<string, unknown>) => lines.push(JSON.stringify({ event, ...fields })),
  error: (event: string, fields?: Record<string, unknown>) =>
    lines.push(JSON.stringify({ event, ...fields })),
};

beforeAll(async () => {
  t = await startTestPortal(
    { QUIET: '0' },
    { livingDemo: true, log, jobs: { pollingIntervalSeconds: 0.5, schedule: false } },
  );
  for (const email of [
    'admin@example.org',
    'marker1@example.org',
    'school1@example.org',
    'school2@example.org',
  ]) {
    tokens[email] = (await issueToken(t.portal.database.db, await userIdOf(t, email), 60)).token;
  }
}, 120_000);
afterAll(() => t?.close());

const db = () => t.portal.database.db;

/** A GET, with the caller's token if given (a download link is opened without one), its body as bytes. */
async function fetchBytes(path: string, token: string | null, headers: Record<string, string> = {}) {
  const response = await fetch(t.url + path, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}

const pdfPath = (role: 'admin' | 'school_admin', ending: string, query: string) =>
  `${fillPath(E.pdf[role].path, { ending })}?${query}`;

const verifyCode = async (code: string) => t.request('GET', fillPath(E.verify.path, { code }));

describe('a PDF streamed as the caller waits', () => {
  it("the indexed list of a school: its head, page X of Y, the candidates, and a QR the phone reads as 'genuine'", async () => {
    const { status, headers, bytes } = await fetchBytes(
      pdfPath('admin', 'indexed-candidate-list', 'school=SHT-IB'),
      tokens['admin@example.org'],
    );
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/pdf');
    expect(headers.get('content-disposition')).toMatch(
      /^attachment; filename="indexed-candidate-list-[\w-]+\.pdf"$/,
    );
    const pages = pdfPages(bytes);
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((text, i) => {
      expect(text).toContain('West African Health Examinations Board');
      expect(text).toContain('SHT-IB');
      expect(text).toContain(`Page ${i + 1} of ${pages.length}`);
    });
    // A candidate of the school, by index number, as the database holds them.
    const [someone] = await db()
      .select({ index: candidates.candidateIndex, last: candidates.last_name })
      .from(candidates)
      .where(eq(candidates.trainingSchoolId, await schoolIdOf(t, 'SHT-IB')))
      .limit(1);
    expect(pages.join('\n')).toContain(someone.index);

    const url = decodeQr(bytes, 0, {
      x: PAGE.width - PAGE.margin - HEAD.qr - 8,
      y: PAGE.margin - 8,
      width: HEAD.qr + 16,
      height: HEAD.qr + 11,
    });
    expect(url).toMatch(/\/verify\/[\w-]+$/);
    const code = url!.split('/verify/')[1];
    expect(pages[0]).toContain(code);
    const genuine = await verifyCode(code);
    expect(genuine.status).toBe(200);
    expect(genuine.body.data.status).toBe('genuine');

    // A name on the paper changes: the same code now says so.
    await db()
      .update(candidates)
      .set({ last_name: `${someone.last}-Changed` })
      .where(eq(candidates.candidateIndex, someone.index));
    const changed = await verifyCode(code);
    expect(changed.body.data.status).toBe('changed');
    expect(changed.body.data.changes.length).toBeGreaterThan(0);
  });
});

describe(`beyond ${DOCUMENT_INLINE_LIMIT} rows: a job`, () => {
  let jobId: number;
  let downloadUrl: string;

  beforeAll(async () => {
    // A school with more candidates than a PDF is streamed for: written straight to the database.
    const school = await schoolIdOf(t, 'CHT-CA');
    const createdBy = await userIdOf(t, 'admin@example.org');
    await db().execute(sql`
      insert into candidates (candidate_index, training_school_id, course_header_id, year, first_name, last_name,
        date_of_birth, candidate_category, marital_status, gender, nationality, created_by)
      select 'WHB/26/A1/' || lpad((900000 + n)::text, 6, '0'), ${school},
        (select id from course_headers where code = 'A1'), 2026, 'Ngọzị', 'Ụchẹ' || n,
        '2001-01-01', 'fresh', 'S', 'female', 'NG', ${createdBy}
      from generate_series(1, ${DOCUMENT_INLINE_LIMIT + 1}) as n`);
  }, 60_000);

  it('the PDF route answers 413 with a sentence saying to build it as a job', async () => {
    const response = await t.request('GET', pdfPath('admin', 'indexed-candidate-list', 'school=CHT-CA'), {
      token: tokens['admin@example.org'],
    });
    expect(response.status).toBe(413);
    expect(response.body.message).toMatch(/Build it as a job/);
  });

  it('a job builds it, counting its progress, and the file downloads in two parts and whole', async () => {
    const started = await t.request(
      'POST',
      `${fillPath(E.startJob.admin.path, { ending: 'indexed-candidate-list' })}?school=CHT-CA`,
      { token: tokens['admin@example.org'] },
    );
    expect(started.status).toBe(200);
    const job = started.body.data as DocumentJob;
    expect(job).toMatchObject({ ending: 'indexed-candidate-list', state: 'queued', done: 0 });
    expect(job.total).toBeGreaterThan(DOCUMENT_INLINE_LIMIT);
    jobId = job.id;

    const seen: DocumentJob[] = [];
    const ready = await until(
      async () => {
        const read = await t.request('GET', fillPath(E.job.admin.path, { id: jobId }), {
          token: tokens['admin@example.org'],
        });
        seen.push(read.body.data);
        return read.body.data as DocumentJob;
      },
      (read) => read.state === 'ready' || read.state === 'failed',
      60_000,
    );
    expect(ready).toMatchObject({ state: 'ready', done: job.total, total: job.total, message: null });
    for (const read of seen) {
      expect(read.done).toBeLessThanOrEqual(read.total);
      // A link only once there is a file.
      expect(read.download === null).toBe(read.state !== 'ready');
    }

    // The job's link, opened as the browser's download manager opens it: no bearer token.
    expect(ready.download!.url).toMatch(new RegExp(`^/api/document-downloads/${jobId}/[\\w.-]+$`));
    const expiresIn = Date.parse(ready.download!.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan((DOCUMENT_DOWNLOAD_MINUTES - 1) * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(DOCUMENT_DOWNLOAD_MINUTES * 60_000);
    downloadUrl = ready.download!.url;
    const filePath = downloadUrl;
    const whole = await fetchBytes(filePath, null);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-disposition')).toMatch(
      /^attachment; filename="indexed-candidate-list-\d{4}-\d{2}-\d{2}\.pdf"$/,
    );
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-type')).toBe('application/pdf');
    expect(Number(whole.headers.get('content-length'))).toBe(whole.bytes.byteLength);
    expect(whole.bytes.byteLength).toBe(ready.bytes);
    const etag = whole.headers.get('etag')!;
    expect(etag).toBeTruthy();

    // The download breaks after the first 100,000 bytes and resumes where it stopped.
    const first = await fetchBytes(filePath, null, { range: 'bytes=0-99999' });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-99999/${whole.bytes.byteLength}`);
    const rest = await fetchBytes(filePath, null, {
      range: 'bytes=100000-',
      'if-range': etag,
    });
    expect(rest.status).toBe(206);
    const joined = new Uint8Array(first.bytes.byteLength + rest.bytes.byteLength);
    joined.set(first.bytes);
    joined.set(rest.bytes, first.bytes.byteLength);
    expect(Buffer.from(joined).equals(Buffer.from(whole.bytes))).toBe(true);
    // Another file's tag: the whole file, not a part of a different one.
    const changed = await fetchBytes(filePath, null, {
      range: 'bytes=100000-',
      'if-range': '"other"',
    });
    expect(changed.status).toBe(200);
    expect(changed.bytes.byteLength).toBe(whole.bytes.byteLength);
    const past = await fetchBytes(filePath, null, {
      range: `bytes=${whole.bytes.byteLength}-`,
    });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${whole.bytes.byteLength}`);
    // A fresh read of the job gives a fresh link to the same file, bytes for bytes.
    const again = await t.request('GET', fillPath(E.job.admin.path, { id: jobId }), {
      token: tokens['admin@example.org'],
    });
    const second = await fetchBytes((again.body.data as DocumentJob).download!.url, null, {
      range: 'bytes=100000-',
      'if-range': etag,
    });
    expect(Buffer.from(second.bytes).equals(Buffer.from(rest.bytes))).toBe(true);

    const pages = pdfPages(whole.bytes);
    expect(pages[0]).toContain(`Page 1 of ${pages.length}`);
    expect(pages[pages.length - 1]).toContain(`Page ${pages.length} of ${pages.length}`);
    expect(pages.join('\n')).toContain('ỤCHẸ5001, Ngọzị');

    // One stored file, recorded so the sweep keeps it.
    const [row] = await db().select().from(documentJobs).where(eq(documentJobs.id, jobId));
    expect(await db().select().from(files).where(eq(files.key, row.fileKey))).toHaveLength(1);
  }, 120_000);

  it("nobody else reads the job: not another board admin, not a school's admin", async () => {
    for (const [email, role] of [
      ['marker1@example.org', 'admin'],
      ['school2@example.org', 'school_admin'],
    ] as const) {
      const read = await t.request('GET', fillPath(E.job[role].path, { id: jobId }), {
        token: tokens[email],
      });
      expect(read.status).toBe(404);
      expect(read.body.message).toBe(M.jobNotFound);
      // Even a link the portal signed for them names a job they may not see.
      const signed = await downloadLink(db(), jobId, await userIdOf(t, email), new Date());
      const file = await fetchBytes(signed.url, null);
      expect(file.status).toBe(404);
    }
  });

  it('a link is refused when it is tampered with, another user’s, another job’s, or past its time', async () => {
    const [, , , id, token] = downloadUrl.split('/');
    const [user, expires, tag] = token.split('.');
    const refusedWith = async (path: string, status: number, message: string) => {
      const response = await t.request('GET', path);
      expect(response.status, path).toBe(status);
      expect(response.body.message, path).toBe(message);
      expect(response.headers.get('content-type'), path).toMatch(/application\/json/);
    };
    const at = (jobPart: string | number, tokenPart: string) =>
      fillPath(E.jobDownload.path, { id: jobPart, token: tokenPart });
    const otherTag = `${tag[0] === 'A' ? 'B' : 'A'}${tag.slice(1)}`;
    const marker = await userIdOf(t, 'marker1@example.org');
    const school1 = await userIdOf(t, 'school1@example.org');
    // The tag changed, the user changed (another board admin), the expiry moved later.
    await refusedWith(at(id, `${user}.${expires}.${otherTag}`), 404, M.downloadInvalid);
    await refusedWith(at(id, `${marker}.${expires}.${tag}`), 404, M.downloadInvalid);
    await refusedWith(at(id, `${user}.${Number(expires) + 3600}.${tag}`), 404, M.downloadInvalid);
    // This job's token on another job's path: one of school1's, and one that does not exist.
    const schoolJob = await t.request(
      'POST',
      fillPath(E.startJob.school_admin.path, { ending: 'indexed-candidate-list' }),
      { token: tokens['school1@example.org'] },
    );
    await refusedWith(at((schoolJob.body.data as DocumentJob).id, token), 404, M.downloadInvalid);
    await refusedWith(at(Number(id) + 1000, token), 404, M.downloadInvalid);
    // school1's user id with this tag: still another user's.
    await refusedWith(at(id, `${school1}.${expires}.${tag}`), 404, M.downloadInvalid);
    // Not a token at all, and no id.
    await refusedWith(at(id, 'x'), 404, M.downloadInvalid);
    await refusedWith(at('x', token), 404, M.jobNotFound);
    // Signed by the portal, but expired a second ago.
    const expired = await downloadLink(
      db(),
      Number(id),
      Number(user),
      new Date(Date.now() - DOCUMENT_DOWNLOAD_MINUTES * 60_000 - 1000),
    );
    await refusedWith(expired.url, 410, M.downloadExpired);
    // Still good as given.
    expect((await fetchBytes(downloadUrl, null, { range: 'bytes=0-9' })).bytes).toHaveLength(10);
  });

  it('no log line holds a link’s token, however the request ended', () => {
    const token = downloadUrl.split('/').pop()!;
    const [, , tag] = token.split('.');
    const downloads = lines.filter((line) => line.includes('/api/document-downloads/'));
    expect(downloads.length).toBeGreaterThan(5);
    for (const line of lines) expect(line).not.toContain(tag);
    expect(downloads.some((line) => line.includes('"status":206'))).toBe(true);
    expect(downloads.some((line) => line.includes('"status":404'))).toBe(true);
    expect(downloads.some((line) => line.includes('"status":410'))).toBe(true);
  });
});

describe("a school's jobs", () => {
  it("are its admins' alone: another school's admin reads a 404", async () => {
    const started = await t.request(
      'POST',
      fillPath(E.startJob.school_admin.path, { ending: 'indexed-candidate-list' }),
      { token: tokens['school1@example.org'] },
    );
    expect(started.status).toBe(200);
    const id = (started.body.data as DocumentJob).id;
    const own = await t.request('GET', fillPath(E.job.school_admin.path, { id }), {
      token: tokens['school1@example.org'],
    });
    expect(own.status).toBe(200);
    const other = await t.request('GET', fillPath(E.job.school_admin.path, { id }), {
      token: tokens['school2@example.org'],
    });
    expect(other.status).toBe(404);
    const admin = await t.request('GET', fillPath(E.job.admin.path, { id }), {
      token: tokens['admin@example.org'],
    });
    expect(admin.status).toBe(404);
    await until(
      async () =>
        (
          await t.request('GET', fillPath(E.job.school_admin.path, { id }), {
            token: tokens['school1@example.org'],
          })
        ).body.data as DocumentJob,
      (job) => job.state === 'ready' || job.state === 'failed',
      60_000,
    );
  });
});
