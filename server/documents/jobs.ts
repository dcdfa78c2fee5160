import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq, inArray, lt, type SQL } from 'drizzle-orm';
import { DOCUMENT_MESSAGES as M, type DocumentJob } from '../../contract/documents';
import type { DocumentQuery } from '../../contract/documents.validators';
import type { PrintDocumentEnding } from '../../contract/navigation';
import type { Database } from '../db/client';
import { documentJobs, files, users } from '../db/schema';
import { DomainError } from '../errors';
import type { Caller } from '../http/context';
import type { Jobs } from '../jobs/handle';
import type { Logger } from '../log';
import { randomSecret } from '../secrets';
import { newKey, type Storage, type WithStorage } from '../storage/storage';
import { isRole } from '../../contract/roles';
import { downloadLink } from './downloads';
import { printPdf } from './pdfThread';
import { startPrinting, type PrintRequest } from './print';

/**
 * Large PDFs on the job queue (docs/decisions.md "Printed documents: PDFs"). The route checks the
 * query and counts (server/routes/documentFiles.ts), then `queueDocumentJob` records the job and sends
 * 'document-pdf'; the worker (`buildDocumentJob`) prints it as its caller, draws it into a temporary
 * file, counting its progress into the row, stores it under the key the row was given, and records the
 * file. Run twice (a retry, a crash, two processes), it rebuilds into the same key, never two files, and
 * reprints into the same print (document_jobs.print_id), never a second, unfinished one.
 * The caller's own jobs only: a board admin's are theirs, a school admin's are their school's.
 */

/** Days a job and its PDF are kept after it was asked; then the upkeep removes both. */
const DOCUMENT_JOB_DAYS = 3;
/** The files row's kind: only the job's own callers may read it (through the job's route). */
const DOCUMENT_FILE_KIND = 'document_pdf';
/** How often a building job writes its progress, at most. */
const PROGRESS_EVERY_MS = 500;

type JobRow = typeof documentJobs.$inferSelect;

const describe = (row: JobRow, download: DocumentJob['download']): DocumentJob => ({
  id: row.id,
  ending: row.ending as PrintDocumentEnding,
  title: row.title,
  state: row.state,
  done: row.done,
  total: row.total,
  bytes: row.bytes,
  createdAt: row.createdAt.toISOString(),
  message: row.message,
  download,
});

/** The job as its caller reads it: once ready, with a fresh download link for them. */
const toJob = async (db: Database, caller: Caller, row: JobRow, now: Date): Promise<DocumentJob> =>
  describe(row, row.state === 'ready' ? await downloadLink(db, row.id, caller.userId, now) : null);

/** Whose jobs a caller sees. */
const visibleTo = (caller: Pick<Caller, 'role' | 'userId' | 'trainingSchoolId'>): SQL | undefined =>
  caller.role === 'admin'
    ? eq(documentJobs.createdBy, caller.userId)
    : caller.trainingSchoolId === null
      ? eq(documentJobs.id, -1)
      : eq(documentJobs.trainingSchoolId, caller.trainingSchoolId);

export async function queueDocumentJob(
  { db, jobs }: { db: Database; jobs: Jobs | undefined },
  caller: Caller,
  asked: { ending: PrintDocumentEnding; title: string; query: DocumentQuery; total: number },
): Promise<DocumentJob> {
  const [row] = await db
    .insert(documentJobs)
    .values({
      ending: asked.ending,
      title: asked.title,
      query: asked.query,
      createdBy: caller.userId,
      trainingSchoolId: caller.role === 'admin' ? null : caller.trainingSchoolId,
      total: asked.total,
      fileKey: newKey('document-jobs', 'pdf'),
    })
    .returning();
  if (!jobs) throw new Error('The job queue is not running');
  await jobs.send('document-pdf', { id: row.id });
  return describe(row, null);
}

async function visibleJob(
  db: Database,
  caller: Parameters<typeof visibleTo>[0],
  id: number,
): Promise<JobRow | null> {
  const [row] = await db
    .select()
    .from(documentJobs)
    .where(and(eq(documentJobs.id, id), visibleTo(caller)));
  return row ?? null;
}

export async function readDocumentJob(
  db: Database,
  caller: Caller,
  id: number,
  now: Date,
): Promise<DocumentJob | null> {
  const row = await visibleJob(db, caller, id);
  return row ? toJob(db, caller, row, now) : null;
}

/**
 * A job's stored PDF for the user a download link was given to: its key and name; null when that user
 * may no longer see the job (the account closed, moved to another school) or the job is gone. Their
 * rights are read now, not taken from the link.
 */
export async function downloadableJobFile(
  db: Database,
  userId: number,
  id: number,
): Promise<{ key: string; ending: string; createdAt: Date; ready: boolean } | null> {
  const [user] = await db
    .select({ role: users.role, trainingSchoolId: users.trainingSchoolId, active: users.active })
    .from(users)
    .where(eq(users.id, userId));
  if (!user?.active || !isRole(user.role)) return null;
  const row = await visibleJob(db, { userId, role: user.role, trainingSchoolId: user.trainingSchoolId }, id);
  if (!row) return null;
  return { key: row.fileKey, ending: row.ending, createdAt: row.createdAt, ready: row.state === 'ready' };
}

/**
 * The 'document-pdf' job. A job already ready is done; one whose caller can no longer print it (the
 * account closed, the school's rights taken back, the diet gone) fails with the refusal's sentence and
 * is not tried again; any other failure is marked and thrown, so pg-boss tries again.
 */
export async function buildDocumentJob(
  { db, storage, log, publicUrl }: WithStorage & { publicUrl: string },
  { id }: { id: number },
): Promise<void> {
  const [job] = await db.select().from(documentJobs).where(eq(documentJobs.id, id));
  if (!job || job.state === 'ready') return;
  const [user] = await db
    .select({ role: users.role, trainingSchoolId: users.trainingSchoolId, active: users.active })
    .from(users)
    .where(eq(users.id, job.createdBy));
  const mark = (set: Partial<typeof documentJobs.$inferInsert>) =>
    db
      .update(documentJobs)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(documentJobs.id, id));
  if (!user?.active) {
    await mark({ state: 'failed', message: M.jobFailed, finishedAt: new Date() });
    return;
  }
  // Printed as the caller, as the route would: the query checked against them again (a school's
  // rights may have been taken back since), the print recorded and audited as theirs.
  const request: PrintRequest = {
    db,
    publicUrl,
    caller: { role: user.role as Caller['role'], trainingSchoolId: user.trainingSchoolId },
    actor: { userId: job.createdBy, impersonatorId: null, ip: null, requestId: `document-job-${id}` },
    now: new Date(),
  };
  await mark({ state: 'building', done: 0, message: null });

  const temporary = path.join(os.tmpdir(), `document-job-${id}-${randomSecret(6)}.pdf`);
  try {
    // A retry prints into the print the run before recorded: one print a job, however often it runs.
    const printing = await startPrinting(request, job.ending, job.query, {
      again: {
        reuse: job.printId,
        recorded: (tx, printId) =>
          tx
            .update(documentJobs)
            .set({ printId })
            .where(eq(documentJobs.id, id))
            .then(() => undefined),
      },
    });
    let written = Date.now();
    let saving: Promise<unknown> = Promise.resolve();
    await printPdf(printing, {
      storage,
      out: createWriteStream(temporary),
      progress: (done) => {
        if (Date.now() - written < PROGRESS_EVERY_MS) return;
        written = Date.now();
        saving = saving.then(() => mark({ done, total: printing.count }));
      },
    });
    await saving;
    await storage.putFile(job.fileKey, temporary, 'application/pdf');
    const { size } = await fs.stat(temporary);
    await db.transaction(async (tx) => {
      await tx
        .insert(files)
        .values({
          key: job.fileKey,
          kind: DOCUMENT_FILE_KIND,
          ownerId: job.createdBy,
          contentType: 'application/pdf',
          size,
        })
        .onConflictDoNothing();
      await tx
        .update(documentJobs)
        .set({
          state: 'ready',
          done: printing.count,
          total: printing.count,
          bytes: size,
          finishedAt: new Date(),
          updatedAt: new Date(),
        })
        .where(eq(documentJobs.id, id));
    });
  } catch (error) {
    const refused = error instanceof DomainError;
    await mark({
      state: 'failed',
      message: refused ? error.message : M.jobFailed,
      finishedAt: new Date(),
    }).catch(() => {});
    if (refused) return;
    log.error('document_job.failed', { id, error: String(error) });
    throw error;
  } finally {
    await fs.rm(temporary, { force: true });
  }
}

/**
 * The upkeep's part: jobs asked more than DOCUMENT_JOB_DAYS ago, their stored PDFs and `files` rows.
 * The rows go first, in one transaction; a file whose removal then fails is an orphan the storage sweep
 * takes away within the hour.
 */
export async function removeOldDocumentJobs(
  { db, storage, log }: { db: Database; storage: Storage; log: Logger },
  now = new Date(),
): Promise<number> {
  const before = new Date(now.getTime() - DOCUMENT_JOB_DAYS * 24 * 3600_000);
  const keys = await db.transaction(async (tx) => {
    const gone = await tx
      .delete(documentJobs)
      .where(lt(documentJobs.createdAt, before))
      .returning({ key: documentJobs.fileKey });
    const removed = gone.map((row) => row.key);
    if (removed.length) await tx.delete(files).where(inArray(files.key, removed));
    return removed;
  });
  for (const key of keys) {
    await storage
      .remove(key)
      .catch((error: unknown) => log.error('storage.remove_failed', { key, error: String(error) }));
  }
  return keys.length;
}
