import { Link } from 'wouter';
import {
  PRINT_DOCUMENT_ENDINGS,
  PRINT_DOCUMENT_TITLES,
  type PrintDocumentEnding,
} from '../../contract/navigation';
import { NotFound } from './NotFound';

/** A printable page: no shell. The content of each document comes with its own issue. */
export default function PrintDocumentPage({ ending }: { ending: string }) {
  if (!(PRINT_DOCUMENT_ENDINGS as readonly string[]).includes(ending)) return <NotFound />;
  return (
    <main className="mx-auto max-w-3xl p-8">
      <p className="text-sm uppercase tracking-wide text-slate-500">
        Printable document · {PRINT_DOCUMENT_TITLES[ending as PrintDocumentEnding]}
      </p>
      <h1 className="mt-2 text-2xl font-semibold">This area is being built</h1>
      <p className="mt-2 text-slate-600">This document cannot be printed from the portal yet.</p>
      <Link href="/print-document" className="mt-6 inline-block text-brand-700 underline print:hidden">
        Back to Print Documents
      </Link>
    </main>
  );
}
