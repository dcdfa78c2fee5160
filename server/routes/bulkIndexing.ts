import { boardToday } from '../boardDate';
import { BULK_EXAMPLE, BULK_LIMITS as L, BULK_MESSAGES as M } from '../../contract/bulkIndexing';
import { BULK_INDEXING_ENDPOINTS as E } from '../../contract/bulkIndexing.endpoints';
import { importChunk, loadReport, reportCsv, stageBatch, templateCsv } from '../candidates/bulk';
import { Invalid } from '../errors';
import { actorOf, dbOf, withStorage, type AppContext } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';
import { checkedForm } from '../http/validate';
import { checkDuplicatesSoon } from '../integrity/wake';

const batchId = (c: AppContext) => idOf(c, M.notFound);

/** A CSV download (kept by no cache, as every API answer: server/http/cache.ts). */
const csvDownload = (text: string, name: string) =>
  new Response(text, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}-${boardToday()}.csv"`,
      'X-Content-Type-Options': 'nosniff',
    },
  });

/** The two files, checked for what they are before a row is read: the rows are checked by the service. */
const stagedFiles = checkedForm(
  async (body) => {
    const csv = body.csv instanceof File && body.csv.size > 0 ? body.csv : null;
    const zip = body.files instanceof File && body.files.size > 0 ? body.files : null;
    const fields: Record<string, string[]> = {};
    if (!csv) fields.csv = [M.csvRequired];
    else if (csv.size > L.csvBytes) fields.csv = [M.csvTooLarge];
    if (zip && zip.size > L.zipBytes) fields.files = [M.zipTooLarge];
    if (Object.keys(fields).length) throw new Invalid(fields);
    return { csv: csv!, zip };
  },
  {
    maxBytes: L.csvBytes + L.zipBytes + 64 * 1024,
    // Read as a stream: a file past its cap is refused there, its rest never read.
    parts: {
      csv: { bytes: L.csvBytes, tooLarge: M.csvTooLarge },
      files: { bytes: L.zipBytes, tooLarge: M.zipTooLarge },
    },
  },
);

/** Bulk indexing (board admins): the template, the dry run, the import by chunks, and the report. */
export const bulkIndexingRoutes: Route[] = [
  serve(E.template, () => csvDownload(templateCsv(BULK_EXAMPLE), 'candidates-template')),

  serve(E.start, stagedFiles, async (c) => {
    const report = await stageBatch(withStorage(c), actorOf(c), c.req.valid('form'));
    return ok(c, report, M.checked(report.good, report.rows));
  }),

  serve(E.read, async (c) => ok(c, await loadReport(dbOf(c), batchId(c)))),

  serve(E.import, async (c) => {
    const id = batchId(c);
    const { report, indexed } = await importChunk(withStorage(c), actorOf(c), id, c.req.valid('json'));
    if (indexed) await checkDuplicatesSoon(c);
    return ok(c, report, M.imported(indexed));
  }),

  serve(E.report, async (c) =>
    csvDownload(reportCsv(await loadReport(dbOf(c), batchId(c))), `bulk-indexing-${batchId(c)}`),
  ),
];
