import { Suspense, useEffect, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { PRINT_DOCUMENT_ENDINGS } from '../../contract/navigation';
import type { Role } from '../../contract/roles';
import { loadPrintedDocument } from '../api/documents';
import { useRole } from '../app/actors';
import { LoadBoundary, prefetchResource, useResource } from '../app/resource';
import { Button } from '../ui/controls';
import { queryFromSearch } from './documents/choice';
import { PdfDownload } from './documents/PdfDownload';
import { PrintedDocumentView } from './documents/PrintedDocumentView';
import { NotFound } from './NotFound';

/**
 * A printable document's page, without the shell: the document the server builds for the query string,
 * drawn for A4, with Print and Download PDF above it (neither printed). `print=1` (Print Documents'
 * Print) opens the browser's print dialog once the document and its photos are shown.
 */
export default function PrintDocumentPage({ ending }: { ending: string }) {
  const search = useSearch();
  const role = useRole() ?? 'school_admin';
  // Print is offered once the document is on the page: before, it would print 'Building the document…',
  // and a document the server refused (a parameter missing, not for schools) has nothing to print.
  const [shown, setShown] = useState<string | null>(null);
  if (!(PRINT_DOCUMENT_ENDINGS as readonly string[]).includes(ending)) return <NotFound />;
  const query = queryFromSearch(search);
  const queryText = new URLSearchParams(query).toString();
  const printAtOnce = new URLSearchParams(search).get('print') === '1';
  const back = (
    <Link href={`/print-document?document=${ending}`} className="ml-2 text-brand-700 underline">
      Back to Print Documents
    </Link>
  );
  return (
    <main className="min-h-screen bg-slate-100 print:bg-white">
      <div className="flex flex-wrap items-start gap-3 border-b border-slate-200 bg-white px-4 py-3 print:hidden">
        <Link
          href={`/print-document?document=${ending}`}
          className="self-center text-sm text-brand-700 underline"
        >
          Print Documents
        </Link>
        {shown === `${ending}?${queryText}` && <Button onClick={() => window.print()}>Print</Button>}
        <PdfDownload key={`${ending}?${queryText}`} role={role} ending={ending} query={query} />
      </div>
      <div className="mx-auto max-w-[210mm] bg-white p-4 shadow-sm sm:my-4 sm:p-[12mm] print:m-0 print:max-w-none print:p-0 print:shadow-none">
        <LoadBoundary after={back}>
          <Suspense fallback={<p className="text-slate-600">Building the document…</p>}>
            <LoadedDocument
              role={role}
              ending={ending}
              query={query}
              printAtOnce={printAtOnce}
              onShown={() => setShown(`${ending}?${queryText}`)}
            />
          </Suspense>
        </LoadBoundary>
      </div>
    </main>
  );
}

function LoadedDocument({
  role,
  ending,
  query,
  printAtOnce,
  onShown,
}: {
  role: Role;
  ending: string;
  query: Record<string, string>;
  printAtOnce: boolean;
  onShown: () => void;
}) {
  const key = documentKey(role, ending, query);
  const printed = useResource(key, () => loadPrintedDocument(role, ending, query));
  useEffect(onShown, [onShown, key]);
  return (
    <>
      <PrintedDocumentView document={printed} />
      {printAtOnce && <PrintOnce id={printed.verification.code} />}
    </>
  );
}

const documentKey = (role: Role, ending: string, query: Record<string, string>) =>
  `document:${role}:${ending}?${new URLSearchParams(query)}`;

/**
 * A print page opened cold (src/shell/pageChunks.ts): its document asked for as soon as this chunk is
 * there, beside the session's profile, instead of once the page has rendered.
 */
export function prefetchPrintedDocument(role: Role, ending: string, search: string) {
  if (!(PRINT_DOCUMENT_ENDINGS as readonly string[]).includes(ending)) return;
  const query = queryFromSearch(search);
  prefetchResource(documentKey(role, ending, query), () => loadPrintedDocument(role, ending, query));
}

// The codes already sent to the print dialog: once a document, though React may mount an effect twice.
const printed = new Set<string>();

/** Opens the print dialog once the photos on the page have arrived (a photo still loading prints blank). */
function PrintOnce({ id }: { id: string }) {
  useEffect(() => {
    if (printed.has(id)) return;
    printed.add(id);
    const pending = [...document.images]
      .filter((image) => !image.complete)
      .map(
        (image) =>
          new Promise((done) => {
            image.addEventListener('load', done, { once: true });
            image.addEventListener('error', done, { once: true });
          }),
      );
    void Promise.all(pending).then(() => window.print());
  }, [id]);
  return null;
}
