import type { DocumentCatalogue, DocumentJob, PrintedDocument } from './documents';
import { documentQueryValidator, schoolPrintingValidator } from './documents.validators';
import { ADMIN, PUBLIC, SCHOOL_ADMIN, download, endpoint, shape } from './endpoint';
import { VERIFY_ENDPOINT } from './verification.endpoint';

/**
 * Everything the browser may ask of printable documents: what the caller may print and choose it by;
 * a document built for the HTML print page, or as a PDF (streamed up to DOCUMENT_INLINE_LIMIT rows or
 * cards, built by a job on the queue beyond, with its progress and a download that resumes); the
 * board's choice of which documents schools may print; and the public check of a printed code. Both
 * roles' calls are pairs by role: a school admin's are scoped to their school by the server.
 */
export const DOCUMENT_ENDPOINTS = {
  catalogue: {
    admin: endpoint({
      method: 'GET',
      path: '/api/admin/documents',
      roles: ADMIN,
      summary:
        'The printable documents, whether schools may print each, and the diets, schools, course headers and papers to choose from',
      answer: shape<DocumentCatalogue>(),
    }),
    school_admin: endpoint({
      method: 'GET',
      path: '/api/training-school-admin/documents',
      roles: SCHOOL_ADMIN,
      summary: 'The documents the board lets schools print, and what to choose them by',
      answer: shape<DocumentCatalogue>(),
    }),
  },
  print: {
    admin: endpoint({
      method: 'GET',
      path: '/api/admin/documents/:ending',
      roles: ADMIN,
      summary:
        'A document built for its print page, with its verification code (printing one that names candidates is audited)',
      input: { in: 'query', validator: documentQueryValidator },
      answer: shape<PrintedDocument>(),
    }),
    school_admin: endpoint({
      method: 'GET',
      path: '/api/training-school-admin/documents/:ending',
      roles: SCHOOL_ADMIN,
      summary: "A document about the caller's school, built for its print page",
      input: { in: 'query', validator: documentQueryValidator },
      answer: shape<PrintedDocument>(),
    }),
  },
  pdf: {
    admin: endpoint({
      method: 'GET',
      path: '/api/admin/documents/:ending/pdf',
      roles: ADMIN,
      summary: 'A document as an A4 PDF, streamed (too many rows or cards: 413, start a job instead)',
      input: { in: 'query', validator: documentQueryValidator },
      answer: download('application/pdf'),
    }),
    school_admin: endpoint({
      method: 'GET',
      path: '/api/training-school-admin/documents/:ending/pdf',
      roles: SCHOOL_ADMIN,
      summary: "A document about the caller's school as an A4 PDF, streamed",
      input: { in: 'query', validator: documentQueryValidator },
      answer: download('application/pdf'),
    }),
  },
  startJob: {
    admin: endpoint({
      method: 'POST',
      path: '/api/admin/documents/:ending/jobs',
      roles: ADMIN,
      summary: 'Build a large PDF on the job queue (the query as for the PDF)',
      input: { in: 'query', validator: documentQueryValidator },
      answer: shape<DocumentJob>(),
    }),
    school_admin: endpoint({
      method: 'POST',
      path: '/api/training-school-admin/documents/:ending/jobs',
      roles: SCHOOL_ADMIN,
      summary: "Build a large PDF about the caller's school on the job queue",
      input: { in: 'query', validator: documentQueryValidator },
      answer: shape<DocumentJob>(),
    }),
  },
  job: {
    admin: endpoint({
      method: 'GET',
      path: '/api/admin/document-jobs/:id',
      roles: ADMIN,
      summary: "A PDF job's progress (the caller's own jobs)",
      answer: shape<DocumentJob>(),
    }),
    school_admin: endpoint({
      method: 'GET',
      path: '/api/training-school-admin/document-jobs/:id',
      roles: SCHOOL_ADMIN,
      summary: "A PDF job's progress (the caller's own jobs)",
      answer: shape<DocumentJob>(),
    }),
  },
  jobDownload: endpoint({
    method: 'GET',
    path: '/api/document-downloads/:id/:token',
    roles: PUBLIC,
    summary:
      "A finished job's PDF through the signed link its job answer gives (for that job and caller only, for a while); answers Range and If-Range, so the browser resumes a broken download",
    answer: download('application/pdf'),
  }),
  schoolPrinting: endpoint({
    method: 'POST',
    path: '/api/admin/documents/:ending/schools',
    roles: ADMIN,
    summary: 'Let training schools print a document, or stop them',
    input: { in: 'json', validator: schoolPrintingValidator },
    answer: shape<void>(),
  }),
  verify: VERIFY_ENDPOINT,
} as const;
