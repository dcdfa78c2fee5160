import type { DocumentBlock } from '../../../contract/documents';

type Of<K extends DocumentBlock['kind']> = Extract<DocumentBlock, { kind: K }>;

/** A record's fields, label beside value, two pairs to a line where the paper is wide enough. */
export function FieldsBlock({ block }: { block: Of<'fields'> }) {
  return (
    <section className="keep-together mt-4">
      <h2 className="mb-1 font-semibold">{block.title}</h2>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5 text-sm sm:grid-cols-[max-content_1fr_max-content_1fr] print:grid-cols-[max-content_1fr_max-content_1fr] print:text-[9pt]">
        {block.fields.map((field, i) => (
          <div key={i} className="contents">
            <dt className="text-slate-600">{field.label}</dt>
            <dd className="break-words">{field.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** What the portal does not hold, said plainly on the paper. */
export function NoticeBlock({ block }: { block: Of<'notice'> }) {
  return (
    <p className="keep-together mt-4 border-l-4 border-amber-500 bg-amber-50 px-3 py-2 text-sm print:bg-transparent">
      {block.text}
    </p>
  );
}

export function TextBlock({ block }: { block: Of<'text'> }) {
  return <p className="mt-3 text-sm print:text-[9.5pt]">{block.text}</p>;
}

/** Lines for the signatures a paper needs (the examiners', the head of school's), with the date. */
export function SignaturesBlock({ block }: { block: Of<'signatures'> }) {
  return (
    <section
      className="keep-together mt-8 grid gap-6 sm:grid-cols-2 print:grid-cols-2"
      aria-label="Signatures"
    >
      {block.labels.map((label) => (
        <div key={label}>
          <div className="h-10 border-b border-slate-700" aria-hidden="true" />
          <p className="mt-1 text-xs">{label}</p>
          <p className="mt-3 text-xs text-slate-600">Date: ____________________</p>
        </div>
      ))}
    </section>
  );
}
