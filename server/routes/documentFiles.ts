import { PassThrough, Readable } from 'node:stream';
import { DOCUMENT_INLINE_LIMIT, DOCUMENT_MESSAGES as M, DOCUMENTS } from '../../contract/documents';
import { DOCUMENT_ENDPOINTS as E } from '../../contract/documents.endpoints';
import type { DocumentQuery } from '../../contract/documents.validators';
import { boardDay } from '../../contract/format';
import type { PrintDocumentEnding } from '../../contract/navigation';
import { downloadableJobFile, queueDocumentJob, readDocumentJob } from '../documents/jobs';
import { readDownloadLink } from '../documents/downloads';
import { printPdf } from '../documents/pdfThread';
import { BUILDERS } from '../documents/builders';
import { resolveQuery } from '../documents/params';
import { printRequestOf, startPrinting } from '../documents/print';
import { NotFound, Refused } from '../errors';
import { callerOf, dbOf, nowOf, type AppContext } from '../http/context';
import { idOf } from '../http/params';
import { rangedDownload } from '../http/ranged';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';

/**
 * Printable documents as PDF files (server/documents/pdf.ts): streamed as the caller waits up to
 * DOCUMENT_INLINE_LIMIT rows or cards, built by a job on the queue beyond it (server/documents/jobs.ts),
 * whose file downloads with Range support. The JSON of the print pages is server/routes/documents.ts.
 * The query is checked against the caller by the print pipeline before anything is counted or drawn.
 */

function endingOf(c: AppContext): PrintDocumentEnding {
  const ending = c.req.param('ending') ?? '';
  if (!Object.hasOwn(DOCUMENTS, ending)) throw new NotFound(M.unknownDocument);
  return ending as PrintDocumentEnding;
}

const fileName = (ending: string, at: Date | string = new Date()) => `${ending}-${boardDay(at)}.pdf`;

async function streamPdf(c: AppContext, query: DocumentQuery) {
  const ending = endingOf(c);
  // Counted before anything is recorded: beyond the limit, a 413 that says to build it as a job.
  const printing = await startPrinting(printRequestOf(c), ending, query, {
    refuseOver: { max: DOCUMENT_INLINE_LIMIT, message: M.tooLargeToStream },
  });
  const { storage, log } = c.get('deps');
  const out = new PassThrough();
  // Drawn as the answer is read; a failure part-way cuts the answer off (the reader sees a broken
  // download, never a PDF that looks whole), and is logged.
  printPdf(printing, { storage, out }).catch((error: unknown) =>
    log.error('document_pdf.failed', { ending, printing: printing.id, error: String(error) }),
  );
  return new Response(Readable.toWeb(out) as ReadableStream<Uint8Array>, {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${fileName(ending)}"`,
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/** A job for a document the caller may print: its query checked now (the worker checks it again). */
async function startJob(c: AppContext, query: DocumentQuery) {
  const ending = endingOf(c);
  const db = dbOf(c);
  const caller = callerOf(c);
  const { definition, scope } = await resolveQuery(db, caller, ending, query);
  const builder = BUILDERS[definition.ending];
  if (!builder) throw new NotFound(M.unknownDocument);
  const total = await builder.count(db, scope);
  const job = await queueDocumentJob({ db, jobs: c.get('deps').jobs }, caller, {
    ending,
    title: definition.title,
    query,
    total,
  });
  return ok(c, job);
}

async function readJob(c: AppContext) {
  const job = await readDocumentJob(dbOf(c), callerOf(c), idOf(c, M.jobNotFound), nowOf(c));
  if (!job) throw new NotFound(M.jobNotFound);
  return ok(c, job);
}

/**
 * A finished job's PDF through its signed link (server/documents/downloads.ts), as the browser's
 * download manager asks for it: no bearer token, a Range and If-Range when it resumes. A link the
 * portal did not make for this job names nothing (404), one past its time is gone (410): both before
 * anything is read; one whose user may no longer see the job is the job's 404.
 */
async function jobDownload(c: AppContext) {
  const id = idOf(c, M.jobNotFound);
  const db = dbOf(c);
  const link = await readDownloadLink(db, id, c.req.param('token') ?? '', nowOf(c));
  if (link === 'invalid') throw new NotFound(M.downloadInvalid);
  if (link === 'expired') throw new Refused(410, M.downloadExpired);
  const file = await downloadableJobFile(db, link.userId, id);
  if (!file) throw new NotFound(M.jobNotFound);
  if (!file.ready) throw new Refused(409, M.jobNotReady);
  const { storage } = c.get('deps');
  const stored = await storage.stat(file.key);
  if (!stored) throw new NotFound(M.jobNotFound);
  return rangedDownload(c, {
    size: stored.size,
    // Strong: a job's file is written once and never changes.
    etag: `"document-job-${id}-${stored.size}"`,
    contentType: 'application/pdf',
    fileName: fileName(file.ending, file.createdAt),
    open: (start, end) => storage.stream(file.key, start, end),
  });
}

export const documentFileRoutes: Route[] = [
  serve(E.pdf.admin, (c) => streamPdf(c, c.req.valid('query'))),
  serve(E.pdf.school_admin, (c) => streamPdf(c, c.req.valid('query'))),
  serve(E.startJob.admin, (c) => startJob(c, c.req.valid('query'))),
  serve(E.startJob.school_admin, (c) => startJob(c, c.req.valid('query'))),
  serve(E.job.admin, readJob),
  serve(E.job.school_admin, readJob),
  serve(E.jobDownload, jobDownload),
];
