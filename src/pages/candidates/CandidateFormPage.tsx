import { useSelector } from '@xstate/react';
import { lazy, Suspense, useState, type ComponentProps, type ReactNode } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { formatDateTime, formatPersonName } from '../../../contract/format';
import { REG_STATUSES, type CandidateRecord, type CandidateRow } from '../../../contract/candidates';
import { CANDIDATES_LIST, REGISTERED_LISTS } from '../../../contract/lists';
import { statusToggleMachine, type StatusToggleInput } from '../../../machines/statusToggle.machine';
import { loadCandidate, updateRegStatus, updateVerification } from '../../api/candidateRows';
import { useSession } from '../../app/actors';
import { LoadBoundary, useResource } from '../../app/resource';
import { Button } from '../../ui/controls';
import { ListView } from '../../ui/ListView';
import { DocumentsDialog, StoredDocuments } from '../../ui/StoredDocuments';
import { RegistrationCountdown } from '../../ui/RegistrationCountdown';
import { PageTabs } from '../../ui/PageTabs';
import { SuspendedSchoolNotice } from '../../ui/SuspendedSchoolNotice';
import { prefetchDietChoices } from '../diets/DietField';
import type { Role } from '../../../contract/roles';
import { RowStatusToggle, type ListRef } from '../../ui/StatusToggle';
import { useList } from '../pagedList';
import { CandidateFilters, type FilterName } from './CandidateFilters';
import { CandidateTable } from './CandidateTable';

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

/** A status each row changes in the list: which field, how it is saved, which values are confirmed first. */
interface RowStatus {
  field: StatusToggleInput['field'];
  updateStatus: typeof updateVerification;
  confirmValues?: readonly string[];
}

/** A candidate list of `definition`; with `status`, the list spawns one status toggle actor per row shown. */
function useCandidateList(definition: typeof CANDIDATES_LIST, status?: RowStatus) {
  return useList(
    definition,
    status && {
      row: statusToggleMachine.provide({ actors: { updateStatus: status.updateStatus } }),
      rowInput: { field: status.field, confirmValues: status.confirmValues ?? [] },
    },
  );
}

/** A candidate list: its filters, then the table with the page's own column, paged. */
function CandidateList({
  list,
  definition,
  show,
  withOptions,
  role,
  action,
}: {
  list: ListRef;
  definition: typeof CANDIDATES_LIST;
  show: FilterName[];
  withOptions?: boolean;
  role?: Role;
  action: { label: string; cell: (row: CandidateRow) => ReactNode };
}) {
  const filters = useSelector(list, (s) => s.context.query.filters);
  return (
    <>
      <CandidateFilters
        filters={filters}
        show={show}
        withOptions={withOptions}
        role={role}
        onFilter={(next) => list.send({ type: 'list.filter', filters: next })}
      />
      <ListView<CandidateRow> list={list} definition={definition}>
        {(data, busy) => <CandidateTable data={data} busy={busy} action={action} />}
      </ListView>
    </>
  );
}

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
      <Heading>Indexed Candidates</Heading>
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

const REG_CHOICES = REG_STATUSES.map((status) => ({ value: status, label: status }));

export function RegisteredPage() {
  const role = useSession((s) => s.context.user?.user_role ?? 'school_admin');
  prefetchDietChoices(role);
  const list = useCandidateList(REGISTERED_LISTS[role], {
    field: 'reg_status',
    updateStatus: updateRegStatus(role),
    confirmValues: ['unregistered'],
  });
  // Registration is changed for the current diet only: a past diet's list is read-only.
  const pastDiet = useSelector(list, (s) => !!s.context.query.filters.diet);
  return (
    <section>
      {/* A school admin reads its published results beside its registered list. */}
      {role === 'school_admin' && (
        <PageTabs
          label="Registered Candidates"
          tabs={[
            { href: '/candidate/candidate-registered', label: 'Registered Candidates', current: true },
            { href: '/candidate/candidate-registered/results', label: 'Results', current: false },
          ]}
        />
      )}
      <Heading>Registered Candidates</Heading>
      {/* A suspended school's admin is told before they try; the server refuses anyway. */}
      <SuspendedSchoolNotice />
      <RegistrationCountdown role={role} />
      <CandidateList
        list={list}
        definition={REGISTERED_LISTS[role]}
        show={
          role === 'admin'
            ? ['search', 'school', 'course_header', 'diet', 'reg_status']
            : ['search', 'diet', 'reg_status']
        }
        withOptions={role === 'admin'}
        role={role}
        action={{
          label: 'Registration',
          cell: (row) => {
            const name = formatPersonName(row);
            return (
              <>
                <RowStatusToggle
                  list={list}
                  row={row}
                  choices={REG_CHOICES}
                  confirm={{ title: `Take ${name} off the exam?`, action: 'Unregister' }}
                  label={`Registration status of ${name}`}
                  disabled={
                    pastDiet || (role !== 'admin' && row.course_header.registration_status !== 'open')
                  }
                />
                {/* Registration is complete only once its fee is paid (Payments). */}
                {row.registration_fee === 'unpaid' && (
                  <span className="mt-1 block text-xs font-medium text-amber-800">
                    Fee unpaid: not complete
                  </span>
                )}
                {row.registration_fee === 'paid' && (
                  <span className="mt-1 block text-xs text-slate-600">Fee paid</span>
                )}
              </>
            );
          },
        }}
      />
    </section>
  );
}
