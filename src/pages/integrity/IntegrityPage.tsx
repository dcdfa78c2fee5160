import { Suspense } from 'react';
import { Link, useSearch } from 'wouter';
import { formatDate, formatDateTime, formatPersonName } from '../../../contract/format';
import {
  INTEGRITY_MESSAGES,
  INTEGRITY_PAGE,
  type DuplicatePair,
  type DuplicateSide,
} from '../../../contract/integrity';
import { candidateRecordPath } from '../../../contract/navigation';
import { loadDuplicates, markNotSame, scanEveryone } from '../../api/integrity';
import { reloadResource, useReloadable } from '../../app/resource';
import { Button } from '../../ui/controls';
import { PageFormDialog, useDialogSubject, type FormDialogRef } from '../../ui/PageFormDialog';
import { useSavingDialog } from '../pagedList';

/**
 * /integrity (admin): candidates who may be one person indexed twice, both records side by side, each
 * pair with 'Not the same person' (docs/decisions.md "Issue 27: integrity reports"). Reached from
 * Indexed Candidates; a plain fetch-and-show page, read again after each dialog saves.
 */

const keyOf = (page: number) => `integrity-duplicates-${page}`;

function pageFrom(search: string): number {
  const page = Number(new URLSearchParams(search).get('page') ?? '1');
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

export default function IntegrityPage() {
  const page = pageFrom(useSearch());
  const reload = () => reloadResource(keyOf(page));
  const notSame = useSavingDialog(markNotSame, INTEGRITY_MESSAGES.notSame, reload);
  const scan = useSavingDialog(scanEveryone, INTEGRITY_MESSAGES.scanQueued, reload);
  return (
    <section className="max-w-full">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Possible duplicates</h1>
        <Button onClick={() => scan.send({ type: 'form.open', subject: null })}>Check everyone again</Button>
      </div>
      <p className="mt-2 text-slate-600">
        Candidates who may be one person indexed twice: the same photo, or the same name and date of birth, at
        any school in any year.{' '}
        <Link
          href="/candidate/candidate-indexed"
          className="text-brand-700 underline-offset-2 hover:underline"
        >
          Indexed Candidates
        </Link>
      </p>
      <Suspense fallback={<p className="mt-4 text-slate-600">Loading the report…</p>}>
        <Report page={page} notSame={notSame} />
      </Suspense>
      <NotSameDialog actor={notSame} />
      <ScanDialog actor={scan} />
    </section>
  );
}

function Report({ page, notSame }: { page: number; notSame: FormDialogRef }) {
  const [report] = useReloadable(keyOf(page), () => loadDuplicates(page));
  const pages = Math.max(1, Math.ceil(report.total / report.per_page));
  return (
    <div className="mt-4 space-y-4">
      <p className="text-sm text-slate-600">
        {report.total === 1 ? '1 pair' : `${report.total} pairs`} to examine.{' '}
        {report.last_scan
          ? `Everyone was last checked ${formatDateTime(report.last_scan.finished_at)} (${report.last_scan.candidates} candidates).`
          : 'Each new candidate is checked when indexed.'}
        {report.waiting > 0 && ` ${report.waiting} newly indexed still to check.`}
      </p>
      {report.pairs.length === 0 ? (
        <p className="rounded border border-slate-200 bg-white p-4 text-slate-700">No possible duplicate.</p>
      ) : (
        <ul className="space-y-4" aria-label="Possible duplicates">
          {report.pairs.map((pair) => (
            <PairCard key={pair.id} pair={pair} notSame={notSame} />
          ))}
        </ul>
      )}
      {pages > 1 && (
        <nav aria-label="Pages of the report" className="flex flex-wrap items-center gap-4">
          {page > 1 && (
            <Link href={`${INTEGRITY_PAGE}?page=${page - 1}`} className="text-brand-700 underline">
              Previous page
            </Link>
          )}
          <span>
            Page {page} of {pages}
          </span>
          {page < pages && (
            <Link href={`${INTEGRITY_PAGE}?page=${page + 1}`} className="text-brand-700 underline">
              Next page
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}

function why(pair: DuplicatePair): string {
  const reasons = [
    pair.same_photo &&
      `the same photo${pair.photo_likeness !== null ? ` (${Math.round(pair.photo_likeness * 100)}% alike)` : ''}`,
    pair.same_identity && 'the same name and date of birth',
  ].filter(Boolean);
  const text = reasons.join(' and ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const nameOf = (side: DuplicateSide) => formatPersonName(side);

function PairCard({ pair, notSame }: { pair: DuplicatePair; notSame: FormDialogRef }) {
  const [a, b] = pair.candidates;
  const title = `${nameOf(a)} and ${nameOf(b)}`;
  return (
    <li className="rounded border border-slate-200 bg-white p-4" aria-label={title}>
      <p className="font-medium">
        {pair.offender && (
          <span className="mr-2 rounded bg-red-100 px-2 py-0.5 text-sm text-red-800">Exam offender</span>
        )}
        {why(pair)}
      </p>
      <div className="mt-3 grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Side side={a} />
        <Side side={b} />
      </div>
      <div className="mt-3">
        <Button variant="link" onClick={() => notSame.send({ type: 'form.open', subject: pair })}>
          Not the same person<span className="sr-only">: {title}</span>
        </Button>
      </div>
    </li>
  );
}

function Side({ side }: { side: DuplicateSide }) {
  return (
    <div className="flex min-w-0 gap-3">
      {side.photo ? (
        <img
          src={`/files/${side.photo}`}
          alt={`Photo of ${nameOf(side)}`}
          className="h-28 w-24 shrink-0 rounded border border-slate-200 object-cover"
        />
      ) : (
        <div className="flex h-28 w-24 shrink-0 items-center justify-center rounded border text-sm text-slate-500">
          No photo
        </div>
      )}
      <dl className="min-w-0 text-sm break-words">
        <dt className="sr-only">Name</dt>
        <dd>
          <Link href={candidateRecordPath(side.id)} className="text-brand-700 font-medium underline">
            {nameOf(side)}
          </Link>
          {side.offender && <span className="text-red-800"> (exam offender)</span>}
        </dd>
        <dt className="sr-only">Index number</dt>
        <dd>{side.candidate_index}</dd>
        <dt className="sr-only">Date of birth</dt>
        <dd>Born {formatDate(side.date_of_birth)}</dd>
        <dt className="sr-only">School</dt>
        <dd>
          {side.school.name} ({side.school.code})
        </dd>
        <dt className="sr-only">Year and course header</dt>
        <dd>
          Indexed in {side.year}, {side.course_header}
        </dd>
      </dl>
    </div>
  );
}

function NotSameDialog({ actor }: { actor: FormDialogRef }) {
  const pair = useDialogSubject<DuplicatePair>(actor);
  return (
    <PageFormDialog
      actor={actor}
      title="Not the same person"
      submitLabel="Not the same person"
      busyLabel="Saving…"
      closeLabel="Cancel"
      role="alertdialog"
    >
      {() => (
        <>
          <input type="hidden" name="id" value={pair?.id ?? ''} />
          <p className="text-slate-700">
            {pair
              ? `Are ${nameOf(pair.candidates[0])} (${pair.candidates[0].candidate_index}) and ${nameOf(pair.candidates[1])} (${pair.candidates[1].candidate_index}) two people? `
              : ''}
            The pair leaves the report and is not shown again. This is recorded.
          </p>
        </>
      )}
    </PageFormDialog>
  );
}

function ScanDialog({ actor }: { actor: FormDialogRef }) {
  return (
    <PageFormDialog
      actor={actor}
      title="Check everyone again"
      submitLabel="Check everyone"
      busyLabel="Asking…"
      closeLabel="Cancel"
      role="alertdialog"
    >
      {() => (
        <p className="text-slate-700">
          Every candidate is compared with every other in the background. New candidates are already checked
          when they are indexed.
        </p>
      )}
    </PageFormDialog>
  );
}
