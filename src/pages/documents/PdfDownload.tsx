import { useActorRef, useSelector } from '@xstate/react';
import type { Role } from '../../../contract/roles';
import { documentJobMachine } from '../../../machines/documentJob.machine';
import { documentPdfActors } from '../../api/documents';
import { Alert, Button } from '../../ui/controls';

const count = (n: number) => n.toLocaleString('en-GB');
const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 1 : 0)} MB`;

/**
 * Each step replaces the control that was pressed, which would leave the keyboard's focus on <body>:
 * the step's first element takes it, unless the user has gone on elsewhere meanwhile (a build takes a
 * minute). A stable function, so React calls it once, on mount.
 */
const takeLostFocus = (element: HTMLElement | null) => {
  if (element && (!document.activeElement || document.activeElement === document.body)) element.focus();
};

/**
 * Download PDF over the document job machine: the PDF streamed at once, or, when the server says it
 * is too large for that, built on the job queue with its progress shown until it can be downloaded
 * through the job's link, which the browser downloads (and resumes) by itself.
 * Give it a `key` of the document and its query: another choice is another PDF.
 */
export function PdfDownload({
  role,
  ending,
  query,
}: {
  role: Role;
  ending: string;
  query: Record<string, string>;
}) {
  const pdf = useActorRef(documentJobMachine.provide({ actors: documentPdfActors(role) }), {
    input: { ending, query },
  });
  const view = useSelector(pdf, (s) => ({
    busy: s.hasTag('busy'),
    tooLarge: s.hasTag('tooLarge'),
    building: s.hasTag('building'),
    ready: s.hasTag('ready'),
    failed: s.hasTag('failed'),
    job: s.context.job,
    failure: s.context.failure,
  }));

  if (view.building) {
    const job = view.job;
    const label = job
      ? `Building the PDF: ${count(job.done)} of ${count(job.total)}`
      : 'Starting to build the PDF…';
    return (
      <div role="status" className="space-y-1 text-sm outline-none" tabIndex={-1} ref={takeLostFocus}>
        <p>{label}</p>
        <progress
          className="h-2 w-full max-w-sm"
          max={job?.total || 1}
          value={job?.done ?? 0}
          aria-label="Progress of the PDF"
        />
        <p className="text-xs text-slate-600">
          You may leave this page open and go on; it takes a minute or so.
        </p>
      </div>
    );
  }
  if (view.failed) {
    return (
      <div className="space-y-2">
        <Alert tone="error">{view.failure?.message}</Alert>
        <Button variant="secondary" ref={takeLostFocus} onClick={() => pdf.send({ type: 'pdf.retry' })}>
          Try again
        </Button>
      </div>
    );
  }
  if (view.ready && view.job?.download) {
    // A plain link: the browser's own download manager fetches the file (signed for this job and this
    // user for a while), so a download broken by a slow or lost connection resumes where it stopped.
    return (
      <div className="space-y-2" role="status">
        <p className="text-sm">The PDF is ready{view.job.bytes ? ` (${megabytes(view.job.bytes)})` : ''}.</p>
        <a
          ref={takeLostFocus}
          href={view.job.download.url}
          download={`${view.job.ending}.pdf`}
          className="inline-flex items-center justify-center rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
        >
          Download the PDF
        </a>
        <p className="text-xs text-slate-600">
          If the download stops, resume it from your browser&apos;s downloads.
        </p>
      </div>
    );
  }
  if (view.tooLarge) {
    return (
      <div className="space-y-2">
        <Alert tone="info">{view.failure?.message}</Alert>
        <Button ref={takeLostFocus} onClick={() => pdf.send({ type: 'pdf.build' })}>
          Build the PDF
        </Button>
      </div>
    );
  }
  return (
    <div className="space-y-2">
      {/* aria-disabled, not disabled, while busy: a disabled button drops the keyboard's focus. The
          machine ignores a second press while it is making the PDF. */}
      <Button
        variant="secondary"
        aria-disabled={view.busy || undefined}
        aria-busy={view.busy || undefined}
        onClick={() => pdf.send({ type: 'pdf.download' })}
      >
        {view.busy ? 'Making the PDF…' : 'Download PDF'}
      </Button>
      {view.failure && <Alert tone="error">{view.failure.message}</Alert>}
    </div>
  );
}
