import type { BulkReport } from './bulkIndexing';
import { bulkRangeValidator } from './bulkIndexing.validators';
import { ADMIN, download, endpoint, shape } from './endpoint';

/** Bulk indexing, the board's alone: the template, the dry run, the import by chunks, and the report. */
export const BULK_INDEXING_ENDPOINTS = {
  template: endpoint({
    method: 'GET',
    path: '/api/admin/bulk-indexing-template',
    roles: ADMIN,
    summary: 'The CSV template: the header row and an example candidate',
    answer: download('text/csv'),
  }),
  /**
   * The dry run: the CSV of candidates (`csv`) and a zip of their photos and certificates (`files`),
   * read as streams and capped by the server (server/routes/bulkIndexing.ts), every row checked.
   */
  start: endpoint({
    method: 'POST',
    path: '/api/admin/bulk-indexing',
    roles: ADMIN,
    summary: 'Check a CSV of candidates and a zip of their files, indexing none (the dry run)',
    input: { in: 'upload', fields: { csv: 'file', files: 'file' } },
    answer: shape<BulkReport>(),
  }),
  read: endpoint({
    method: 'GET',
    path: '/api/admin/bulk-indexing/:id',
    roles: ADMIN,
    summary: "A batch's report: each row's problems, and what is indexed so far",
    answer: shape<BulkReport>(),
  }),
  import: endpoint({
    method: 'POST',
    path: '/api/admin/bulk-indexing/:id/import',
    roles: ADMIN,
    summary: "Index the batch's good rows from row `from`, `count` of them (a chunk)",
    input: { in: 'json', validator: bulkRangeValidator },
    answer: shape<BulkReport>(),
  }),
  report: endpoint({
    method: 'GET',
    path: '/api/admin/bulk-indexing/:id/report.csv',
    roles: ADMIN,
    summary: "The batch's report as CSV: row, field, message, and each indexed row's index number",
    answer: download('text/csv'),
  }),
} as const;
