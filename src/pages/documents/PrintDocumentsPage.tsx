import { Suspense, useEffect, useRef, type ReactNode } from 'react';
import { Link, useSearch } from 'wouter';
import { DOCUMENT_GROUPS, type DocumentCatalogue } from '../../../contract/documents';
import type { Role } from '../../../contract/roles';
import { loadDocumentCatalogue } from '../../api/documents';
import { useRole } from '../../app/actors';
import { LoadBoundary, useReloadable } from '../../app/resource';
import { DocumentForm } from './DocumentForm';
import { SchoolPrintingSwitch } from './SchoolPrintingSwitch';

/**
 * Print Documents: the documents the caller may print, by group, each with what it is for; the chosen
 * one (`?document=<ending>`, so Back and a bookmark keep it) with its parameters and its actions. The
 * board admin also says, per document, whether training schools may print it.
 */
export default function PrintDocumentsPage() {
  const role = useRole() ?? 'school_admin';
  return (
    <section>
      <h1 className="text-2xl font-semibold">Print Documents</h1>
      <LoadBoundary>
        <Suspense fallback={<p className="mt-4 text-slate-500">Loading the documents…</p>}>
          <Chooser role={role} />
        </Suspense>
      </LoadBoundary>
    </section>
  );
}

function Chooser({ role }: { role: Role }) {
  const [catalogue] = useReloadable(`documents-catalogue:${role}`, () => loadDocumentCatalogue(role));
  const chosenEnding = new URLSearchParams(useSearch()).get('document');
  const chosen = catalogue.documents.find((doc) => doc.ending === chosenEnding) ?? null;
  return (
    <div className="mt-4 grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)]">
      <div className="lg:order-2">
        {chosen ? (
          <Chosen key={chosen.ending}>
            <DocumentForm document={chosen} options={catalogue.options} role={role} />
          </Chosen>
        ) : (
          <p className="rounded-md bg-white p-4 text-slate-600 ring-1 ring-slate-200">
            {chosenEnding
              ? 'That document is not among those you may print. Choose one from the list.'
              : 'Choose a document to print from the list.'}
          </p>
        )}
      </div>
      <DocumentList catalogue={catalogue} chosen={chosen?.ending ?? null} role={role} />
    </div>
  );
}

/** Moves the focus to a newly chosen document's heading, so a keyboard or screen reader follows. */
function Chosen({ children }: { children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.querySelector<HTMLElement>('#chosen-document')?.focus();
  }, []);
  return <div ref={box}>{children}</div>;
}

function DocumentList({
  catalogue,
  chosen,
  role,
}: {
  catalogue: DocumentCatalogue;
  chosen: string | null;
  role: Role;
}) {
  return (
    <nav aria-label="Documents" className="space-y-5 lg:order-1">
      {DOCUMENT_GROUPS.map((group) => {
        const documents = catalogue.documents.filter((doc) => doc.group === group);
        if (documents.length === 0) return null;
        return (
          <section key={group} aria-labelledby={`group-${group}`}>
            <h2 id={`group-${group}`} className="mb-2 font-semibold text-slate-700">
              {group}
            </h2>
            <ul className="space-y-2">
              {documents.map((doc) => (
                <li
                  key={doc.ending}
                  className={`rounded-md bg-white px-4 py-3 ring-1 ${doc.ending === chosen ? 'ring-2 ring-brand-600' : 'ring-slate-200'}`}
                >
                  <Link
                    href={`/print-document?document=${doc.ending}`}
                    aria-current={doc.ending === chosen ? 'true' : undefined}
                    className="block font-medium text-brand-800 hover:underline"
                  >
                    {doc.title}
                  </Link>
                  <p className="text-sm text-slate-600">{doc.purpose}</p>
                  {role === 'admin' && (
                    <SchoolPrintingSwitch
                      ending={doc.ending}
                      title={doc.title}
                      allowed={doc.schoolsMayPrint}
                    />
                  )}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </nav>
  );
}
