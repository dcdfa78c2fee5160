import { fromPromise } from 'xstate';
import type { BulkReport } from '../../contract/bulkIndexing';
import { BULK_INDEXING_ENDPOINTS as E } from '../../contract/bulkIndexing.endpoints';
import { fillPath } from '../../contract/endpoint';
import { downloadFile } from './download';
import { send } from './send';

/** Bulk indexing's I/O (machines/bulkImport.machine.ts): the dry run, each chunk's import, the two files. */

/** The two files, as the page's form holds them: the server checks them and every row. */
export const checkFiles = fromPromise<BulkReport, FormData>(
  async ({ input }) => (await send(E.start, { body: input })).data,
);

export const importChunk = fromPromise<BulkReport, { id: number; from: number; count: number }>(
  async ({ input }) =>
    (await send(E.import, { params: { id: input.id }, body: { from: input.from, count: input.count } })).data,
);

export const downloadTemplate = () => downloadFile(E.template.path, 'candidates-template.csv');

export const downloadReport = (id: number) =>
  downloadFile(fillPath(E.report.path, { id }), `bulk-indexing-${id}.csv`);
