import { lazy, Suspense, useState, type ComponentProps } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { formatDateTime, formatPersonName } from '../../../contract/format';
import type { CandidateRecord, CandidateRow } from '../../../contract/candidates';
import { INTEGRITY_PAGE } from '../../../contract/integrity';
import { CANDIDATES_LIST } from '../../../contract/lists';
import { loadCandidate, updateVerification } from '../../api/candidateRows';
import { LoadBoundary, useResource } from '../../app/resource';
import { Button } from '../../ui/controls';
import { DocumentsDialog, StoredDocuments } from '../../ui/StoredDocuments';
import { RowStatusToggle } from '../../ui/StatusToggle';
import { CandidateList, useCandidateList } from './candidateList';

/** The candidate area's pages (spec section 2), each lazy-loaded with this chunk. */

function Heading({ children }: { children: string }) {
  return <h1 className="mb-4 text-2xl font-semibold">{children}</h1>;
}

const EDIT_PATH = '/candidate/edit-candidate';

// The form and VineJS are a chunk of their own: the lists and the search open without them.
const loadForm = () => import('./CandidateForm').then((m) => ({ default: m.CandidateForm }));

function CandidateFormLoader(props: ComponentProps<Awaited<ReturnType<typeof loadForm>>['default']>) {
  // One lazy a mount: React.lazy keeps a failed import for good, and the boundary's "Try again"
  // mounts this again, so a chunk lost on a slow link is asked for again.
  const [CandidateForm] = useState(() => lazy(loadForm));
  return (
    <Suspense fallback={<p className="text-slate-500">Loading the form…</p>}>
      <CandidateForm {...props} />
    </Suspense>
  );
}

export function IndexFormPage() {
  const [, navigate] = useLocation();
  return (
    <section>
      <Heading>Candidate Index Form</Heading>
      <p className="mb-4 text-slate-600">
        Many candidates at once?{' '}
        <Link href="/candidate/index-a-candidate/bulk" className="text-brand-700 underline">
          Index candidates from a CSV file
        </Link>
        .
      </p>
      <LoadBoundary>
        <CandidateFormLoader onIndexed={(record) => navigate(`${EDIT_PATH}?id=${record.id}`)} />
      </LoadBoundary>
    </section>
  );
}

/** Opens a found candidate's record in the edit page. */
const EDIT_ACTION = {
  label: 'Record',
  cell: (row: CandidateRow) => (
    <Link href={`${EDIT_PATH}?id=${row.id}`} className="text-brand-700 underline">
      Edit
    </Link>
  ),
};

export function SearchPage() {
  const list = useCandidateList(CANDIDATES_LIST);
  return (
    <section>
      <Heading>Candidate Search</Heading>
      <CandidateList
        list={list}
        definition={CANDIDATES_LIST}
        show={['search', 'school', 'course_header', 'year', 'reg_status']}
        action={EDIT_ACTION}
      />
    </section>
  );
}

/**
 * "Documents": opens a candidate's stored uploads in a dialog. Given the record (the edit page), it shows
 * them; given only the row (Indexed Candidates), it loads the record when opened, so the list's rows
 * stay small.
 */
function ViewDocuments({ row, record }: { row: CandidateRow; record?: CandidateRecord }) {
  // Whether the dialog is open is this button's own; the candidate it is about is its row.
  const [open, setOpen] = useState(false);
  const owner = formatPersonName(row);
  return (
    <>
      <Button
        variant="link"
        className="whitespace-nowrap"
        aria-label={record ? undefined : `View ${owner}'s documents`}
        onClick={() => setOpen(true)}
      >
        {record ? 'View the stored documents' : 'View'}
      </Button>
      <DocumentsDialog open={open} onClose={() => setOpen(false)} owner={owner}>
        {record ? (
          <StoredDocuments uploads={record.uploads} owner={owner} />
        ) : (
          <LoadBoundary>
            <Suspense fallback={<p className="text-slate-500">Loading the documents…</p>}>
              <LoadedDocuments id={row.id} owner={owner} />
            </Suspense>
          </LoadBoundary>
        )}
      </DocumentsDialog>
    </>
  );
}

function LoadedDocuments({ id, owner }: { id: number; owner: string }) {
  const record = useResource(`candidate-${id}`, () => loadCandidate(id));
  return <StoredDocuments uploads={record.uploads} owner={owner} />;
}

function EditRecord({ id }: { id: number }) {
  const record = useResource(`candidate-${id}`, () => loadCandidate(id));
  return (
    <>
      <p className="mb-4 text-slate-700">
        <strong className="font-mono">{record.candidate_index}</strong> · {formatPersonName(record)} ·{' '}
        {record.school.name} · indexed {formatDateTime(record.created_at)} ·{' '}
        <ViewDocuments row={record} record={record} />
      </p>
      <CandidateFormLoader key={record.id} record={record} />
    </>
  );
}

export function EditPage() {
  const id = Number(new URLSearchParams(useSearch()).get('id'));
  return (
    <section>
      <Heading>Edit Candidates</Heading>
      {id > 0 ? (
        <LoadBoundary>
          <EditRecord id={id} />
        </LoadBoundary>
      ) : (
        <SearchToEdit />
      )}
    </section>
  );
}

function SearchToEdit() {
  const list = useCandidateList(CANDIDATES_LIST);
  return (
    <>
      <p className="mb-3 text-slate-600">Find the candidate to edit.</p>
      <CandidateList
        list={list}
        definition={CANDIDATES_LIST}
        show={['search', 'school', 'course_header']}
        action={EDIT_ACTION}
      />
    </>
  );
}

const VERIFIED_CHOICES = [
  { value: 'false', label: 'unverified' },
  { value: 'true', label: 'verified' },
];

export function IndexedPage() {
  const list = useCandidateList(CANDIDATES_LIST, {
    field: 'verified',
    updateStatus: updateVerification,
  });
  return (
    <section>
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <Heading>Indexed Candidates</Heading>
        {/* The integrity reports (issue 27) have their page here, not in the spec's sidebar. */}
        <Link href={INTEGRITY_PAGE} className="text-brand-700 mb-4 underline-offset-2 hover:underline">
          Possible duplicates
        </Link>
      </div>
      <CandidateList
        list={list}
        definition={CANDIDATES_LIST}
        show={['search', 'school', 'course_header', 'year', 'verified']}
        action={{
          label: 'Documents',
          cell: (row) => (
            <div className="flex items-center gap-3">
              <RowStatusToggle
                list={list}
                row={row}
                choices={VERIFIED_CHOICES}
                label={`Documents of ${formatPersonName(row)}`}
              />
              <ViewDocuments row={row} />
            </div>
          ),
        }}
      />
    </section>
  );
}

// Registered Candidates and a candidate's record are pages of their own files, in this chunk.
export { RegisteredPage } from './RegisteredPage';
export { CandidateRecordPage } from './CandidateRecordPage';
