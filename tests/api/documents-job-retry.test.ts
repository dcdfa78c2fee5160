import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_MESSAGES as M, type DocumentJob } from '../../contract/documents';
import { DOCUMENT_ENDPOINTS as E } from '../../contract/documents.endpoints';
import { fillPath } from '../../contract/endpoint';
import { issueToken } from '../../server/auth/tokens';
import { auditLog, documentJobs, documentPrints } from '../../server/db/schema';
import { until, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * A PDF job that fails part-way and is retried by the queue (issue 25 item 4): the first run's file
 * cannot be stored (a real fault of the disk: a file stands where the jobs' folder should be, so the
 * folder cannot be made), the job says it failed, pg-boss runs it again once the fault is gone, and it
 * ends ready with one print, finished, and one audit line: the retry printed into the print the first
 * run recorded, rather than leaving it behind unfinished beside a second.
 */

let t: TestPortal;
let token: string;
const errors: string[] = [];

beforeAll(async () => {
  t = await startTestPortal(
    {},
    {
      jobs: { pollingIntervalSeconds: 0.5, schedule: false },
      log: { info: () => {}, error: (event) => errors.push(event) },
    },
  );
  token = (await issueToken(t.portal.database.db, await userIdOf(t, 'admin@example.org'), 60)).token;
}, 120_000);
afterAll(() => t?.close());

const db = () => t.portal.database.db;

describe('a document-pdf job retried after a failure', () => {
  it('ends ready with one finished print, the one its first run recorded', async () => {
    const folder = path.join(t.dataDir, 'uploads', 'document-jobs');
    fs.rmSync(folder, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(folder), { recursive: true });
    fs.writeFileSync(folder, 'not a folder');

    const started = await t.request(
      'POST',
      `${fillPath(E.startJob.admin.path, { ending: 'indexed-candidate-list' })}?school=SHT-IB`,
      { token },
    );
    expect(started.status).toBe(200);
    const id = (started.body.data as DocumentJob).id;
    const read = async () =>
      (await t.request('GET', fillPath(E.job.admin.path, { id }), { token })).body.data as DocumentJob;

    // The first run draws the PDF, records its print, and fails storing the file.
    const failed = await until(read, (job) => job.state === 'failed', 30_000);
    expect(failed.message).toBe(M.jobFailed);
    expect(errors).toContain('document_job.failed');
    const [first] = await db().select().from(documentJobs).where(eq(documentJobs.id, id));
    expect(first.printId).not.toBeNull();

    // The fault is gone; the queue's retry (5-10 s later) builds it.
    fs.rmSync(folder);
    const ready = await until(read, (job) => job.state === 'ready', 60_000);
    expect(ready.download).not.toBeNull();
    const file = await fetch(t.url + ready.download!.url);
    expect(file.status).toBe(200);
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    const [job] = await db().select().from(documentJobs).where(eq(documentJobs.id, id));
    expect(job.printId).toBe(first.printId);
    const prints = await db().select().from(documentPrints);
    expect(prints).toHaveLength(1);
    expect(prints[0]).toMatchObject({ id: job.printId, ending: 'indexed-candidate-list' });
    expect(prints[0].finishedAt).not.toBeNull();
    const audited = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'document.printed'), eq(auditLog.entityId, String(job.printId))));
    expect(audited).toHaveLength(1);
  }, 120_000);
});
