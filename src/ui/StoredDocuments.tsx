import { useState, type ReactNode } from 'react';
import {
  UPLOAD_FIELDS,
  UPLOAD_LABELS,
  type CandidateRecord,
  type UploadField,
} from '../../contract/candidates';
import { Button } from './controls';
import { Modal } from './Modal';

/**
 * A candidate's stored uploads, for the board checking them: each named as the board names it, an
 * image shown here at once, a PDF opened in a new tab (the browser's own viewer). The files come
 * from /files/*, which serves them only to those allowed to see them.
 */
export function StoredDocuments({ uploads, owner }: { uploads: CandidateRecord['uploads']; owner: string }) {
  // Which image is shown is the view's own business; nothing is sent.
  const [shown, setShown] = useState<UploadField | null>(null);
  const stored = UPLOAD_FIELDS.filter((field) => uploads[field]);
  if (stored.length === 0) return <p className="text-slate-600">No documents are stored for {owner}.</p>;

  const image = shown && uploads[shown];
  if (shown && image) {
    return (
      <figure className="space-y-3">
        <img
          src={image.url}
          alt={`${UPLOAD_LABELS[shown]} of ${owner}`}
          className="max-h-[60vh] w-full rounded-md object-contain ring-1 ring-slate-200"
        />
        <figcaption className="text-sm font-medium">{UPLOAD_LABELS[shown]}</figcaption>
        <div className="flex flex-wrap gap-3">
          <Button variant="secondary" onClick={() => setShown(null)}>
            Back to the documents
          </Button>
          <NewTabLink href={image.url}>Full size</NewTabLink>
        </div>
      </figure>
    );
  }
  return (
    <ul className="divide-y divide-slate-200">
      {stored.map((field) => {
        const upload = uploads[field]!;
        const pdf = upload.content_type === 'application/pdf';
        return (
          <li key={field} className="flex items-center justify-between gap-3 py-2">
            <span className="text-sm">
              {UPLOAD_LABELS[field]}
              <span className="ml-2 text-xs text-slate-500">{pdf ? 'PDF' : 'image'}</span>
            </span>
            {pdf ? (
              <NewTabLink href={upload.url} label={`Open ${UPLOAD_LABELS[field]} (PDF, in a new tab)`}>
                Open
              </NewTabLink>
            ) : (
              <Button
                variant="link"
                aria-label={`View ${UPLOAD_LABELS[field]}`}
                onClick={() => setShown(field)}
              >
                View
              </Button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** A stored file in a new tab; `noopener`, so the file's tab cannot reach back into the portal. */
function NewTabLink({ href, label, children }: { href: string; label?: string; children: ReactNode }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener"
      aria-label={label}
      className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline"
    >
      {children}
    </a>
  );
}

/** The dialog the documents open in (focus kept inside, Escape closes). */
export function DocumentsDialog({
  open,
  onClose,
  owner,
  children,
}: {
  open: boolean;
  onClose: () => void;
  owner: string;
  children: ReactNode;
}) {
  return (
    <Modal open={open} onClose={onClose} title={`Documents of ${owner}`}>
      {children}
      <div className="mt-4 flex justify-end">
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </Modal>
  );
}
