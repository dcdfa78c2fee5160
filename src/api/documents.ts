import { fromPromise } from 'xstate';
import type { DocumentJob } from '../../contract/documents';
import { DOCUMENT_ENDPOINTS as E } from '../../contract/documents.endpoints';
import { fillPath } from '../../contract/endpoint';
import type { Role } from '../../contract/roles';
import type { DocumentJobInput } from '../../machines/documentJob.machine';
import { downloadFile } from './download';
import { send } from './send';
import { inOneSentence } from './session';

/** The printable documents' I/O: the catalogue, a document for its print page, its PDF and job. */

export const loadDocumentCatalogue = async (role: Role) => (await send(E.catalogue[role])).data;

/** A document for its print page; a refused parameter is said in its own sentence ('Choose the diet first.'). */
export const loadPrintedDocument = async (role: Role, ending: string, query: Record<string, string>) =>
  (
    await send(E.print[role], { params: { ending }, query }).catch((failure: unknown) => {
      throw inOneSentence(failure);
    })
  ).data;

/** The board's choice of whether training schools may print a document (a status toggle's save). */
export async function saveSchoolPrinting(input: { id: number | string; value: string }) {
  const allowed = input.value === 'yes';
  const { message } = await send(E.schoolPrinting, { params: { ending: input.id }, body: { allowed } });
  return { value: allowed ? 'yes' : 'no', message };
}

/**
 * A document's PDF fetched with the bearer token (src/api/download.ts), and its job: started and read.
 * A finished job's file is no script's: the page links to it (its signed link), and the browser downloads it.
 */
export function documentPdfActors(role: Role) {
  return {
    downloadPdf: fromPromise<void, DocumentJobInput>(async ({ input }) => {
      const path = fillPath(E.pdf[role].path, { ending: input.ending });
      await downloadFile(`${path}?${new URLSearchParams(input.query)}`, `${input.ending}.pdf`);
    }),
    startJob: fromPromise<DocumentJob, DocumentJobInput>(
      async ({ input }) =>
        (await send(E.startJob[role], { params: { ending: input.ending }, query: input.query })).data,
    ),
    loadJob: fromPromise<DocumentJob, { id: number }>(
      async ({ input }) => (await send(E.job[role], { params: { id: input.id } })).data,
    ),
  };
}
