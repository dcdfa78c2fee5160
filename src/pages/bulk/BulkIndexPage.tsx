import { useActorRef, useSelector } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import { BULK_LIMITS, type BulkReport } from '../../../contract/bulkIndexing';
import { bulkImportMachine } from '../../../machines/bulkImport.machine';
import { checkFiles, downloadReport, downloadTemplate, importChunk } from '../../api/bulkIndexing';
import { useNotify } from '../../app/notify';
import { showToast } from '../../app/toasts';
import { Alert, Button } from '../../ui/controls';

/**
 * Bulk indexing (admin, /candidate/index-a-candidate/bulk): the template, the two files, the dry run's
 * report, then the import with its progress. The bulk import machine holds every step; this page
 * renders it.
 */

/** A download from a click: its failure is said in a toast. */
const download = (file: Promise<void>) =>
  file.catch((failure: { message?: string }) =>
    showToast({
      type: 'notify',
      tone: 'error',
      message: failure.message ?? 'The file could not be downloaded.',
    }),
  );

export default function BulkIndexPage() {
  const [machine] = useState(() => bulkImportMachine.provide({ actors: { checkFiles, importChunk } }));
  const actor = useActorRef(machine);
  useNotify(actor);
  const state = useSelector(actor, (s) => s);
  const { report, failure } = state.context;
  const busy = state.hasTag('busy');
  const fieldError = (name: string) => failure?.fields?.[name]?.[0];

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    actor.send({ type: 'bulk.check', files: new FormData(event.currentTarget) });
  };

  return (
    <section className="max-w-3xl">
      <h1 className="mb-2 text-2xl font-semibold">Index candidates in bulk</h1>
      <ol className="mb-4 list-decimal space-y-1 pl-5 text-slate-700">
        <li>
          Fill in the{' '}
          <Button variant="link" onClick={() => download(downloadTemplate())}>
            CSV template
          </Button>
          : one row a candidate, the form&apos;s fields as its columns, dates as DD/MM/YYYY (up to{' '}
          {BULK_LIMITS.rows.toLocaleString('en')} rows).
        </li>
        <li>
          Put the photos and certificates in one zip file. Name each file in its row&apos;s column (photo:
          ada.jpg), or name it by row and field: <code>3-photo.jpg</code> is row 3&apos;s photo.
        </li>
        <li>Check the files: every row is checked as the form checks it, and nothing is indexed yet.</li>
        <li>Import the rows that passed. Each gets its index number, as the form gives it.</li>
      </ol>

      <form onSubmit={submit} className="space-y-3 rounded-md bg-white p-4 ring-1 ring-slate-200" noValidate>
        <FileInput
          label="Candidates (CSV file)"
          name="csv"
          accept=".csv,text/csv"
          error={fieldError('csv')}
        />
        <FileInput
          label="Photos and certificates (zip file, optional)"
          name="files"
          accept=".zip,application/zip"
          error={fieldError('files')}
        />
        <Button type="submit" disabled={busy}>
          {state.matches('checking') ? 'Checking…' : 'Check the files'}
        </Button>
      </form>

      {report && <Report report={report} />}

      {report && (
        <div className="mt-4 space-y-3">
          {(state.matches('importing') || state.matches('paused') || state.matches('done')) && (
            <Progress report={report} />
          )}
          {state.matches('paused') && (
            <Alert tone="error">
              The import stopped: {failure?.message} What was indexed stays indexed.{' '}
              <Button variant="link" onClick={() => actor.send({ type: 'bulk.retry' })}>
                Try again
              </Button>
            </Alert>
          )}
          <div className="flex flex-wrap gap-3">
            {state.matches('reviewed') && (
              <Button disabled={report.good === 0} onClick={() => actor.send({ type: 'bulk.import' })}>
                Import {report.good} candidate{report.good === 1 ? '' : 's'}
              </Button>
            )}
            <Button variant="secondary" onClick={() => download(downloadReport(report.id))}>
              Download the report (CSV)
            </Button>
            {!busy && (
              <Button variant="secondary" onClick={() => actor.send({ type: 'bulk.restart' })}>
                Start again
              </Button>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

function FileInput({
  label,
  name,
  accept,
  error,
}: {
  label: string;
  name: string;
  accept: string;
  error?: string;
}) {
  const id = `field-${name}`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="file"
        accept={accept}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="mt-1 block w-full text-sm"
      />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

function Report({ report }: { report: BulkReport }) {
  return (
    <section aria-labelledby="bulk-report" className="mt-4 rounded-md bg-white p-4 ring-1 ring-slate-200">
      <h2 id="bulk-report" className="font-semibold">
        The check: {report.good} of {report.rows} rows can be indexed
      </h2>
      {report.problems.length > 0 && (
        <div className="mt-2 max-h-96 overflow-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Rows that need fixing</caption>
            <thead>
              <tr>
                <th scope="col" className="px-2 py-1">
                  Row
                </th>
                <th scope="col" className="px-2 py-1">
                  Field
                </th>
                <th scope="col" className="px-2 py-1">
                  Message
                </th>
              </tr>
            </thead>
            <tbody>
              {report.problems.map((problem, i) => (
                <tr key={i} className="border-t border-slate-100">
                  <td className="px-2 py-1">{problem.row}</td>
                  <td className="px-2 py-1 font-mono">{problem.field}</td>
                  <td className="px-2 py-1">{problem.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Progress({ report }: { report: BulkReport }) {
  const through = Math.min(report.imported_through, report.rows);
  return (
    <div>
      <label htmlFor="bulk-progress" className="block text-sm font-medium text-slate-700">
        Import progress
      </label>
      <progress id="bulk-progress" max={report.rows} value={through} className="w-full" />
      <p role="status" aria-live="polite" className="text-sm text-slate-700">
        {report.finished
          ? `Done: ${report.indexed.length} candidates indexed.`
          : `${report.indexed.length} indexed so far (rows 1 to ${through} of ${report.rows} gone through).`}
      </p>
    </div>
  );
}
