import { Link, useLocation, useSearch } from 'wouter';
import { CANDIDATE_PATHS, REG_STATUSES } from '../../../contract/candidates';
import { loadCandidate, updateRegStatus, updateVerification } from '../../api/candidates';
import { useSession } from '../../app/actors';
import { LoadBoundary, useResource } from '../../app/resource';
import { CandidateFilters } from './CandidateFilters';
import { CandidateFormLoader } from './CandidateForm';
import { CandidateTable } from './CandidateTable';
import { ListFrame } from './ListFrame';
import { RowToggle } from './RowToggle';
import { useCandidateList } from './useCandidateList';

/** The candidate area's pages (spec section 2), each lazy-loaded with this chunk. */

function Heading({ children }: { children: string }) {
  return <h1 className="mb-4 text-2xl font-semibold">{children}</h1>;
}

const EDIT_PATH = '/candidate/edit-candidate';

export function IndexFormPage() {
  const [, navigate] = useLocation();
  return (
    <section>
      <Heading>Candidate Index Form</Heading>
      <LoadBoundary>
        <CandidateFormLoader onIndexed={(record) => navigate(`${EDIT_PATH}?id=${record.id}`)} />
      </LoadBoundary>
    </section>
  );
}

export function SearchPage() {
  const { list, view } = useCandidateList(CANDIDATE_PATHS.adminCandidates);
  return (
    <section>
      <Heading>Candidate Search</Heading>
      <CandidateFilters
        filters={view.filters}
        show={['search', 'school', 'course_header', 'year', 'reg_status']}
        onFilter={(filters) => list.send({ type: 'list.filter', filters })}
      />
      <ListFrame data={view.data} error={view.error} onRetry={() => list.send({ type: 'list.refresh' })}>
        {(data) => (
          <CandidateTable
            data={data}
            busy={view.loading}
            onPage={(page) => list.send({ type: 'list.page', page })}
            actionLabel="Record"
            action={(row) => (
              <Link href={`${EDIT_PATH}?id=${row.id}`} className="text-brand-700 underline">
                Edit
              </Link>
            )}
          />
        )}
      </ListFrame>
    </section>
  );
}

function EditRecord({ id }: { id: number }) {
  const record = useResource(`candidate-${id}`, () => loadCandidate(id));
  return (
    <>
      <p className="mb-4 text-slate-700">
        <strong className="font-mono">{record.candidate_index}</strong> · {record.first_name}{' '}
        {record.last_name} · {record.school.name}
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
  const { list, view } = useCandidateList(CANDIDATE_PATHS.adminCandidates);
  return (
    <>
      <p className="mb-3 text-slate-600">Find the candidate to edit.</p>
      <CandidateFilters
        filters={view.filters}
        show={['search', 'school', 'course_header']}
        onFilter={(filters) => list.send({ type: 'list.filter', filters })}
      />
      <ListFrame data={view.data} error={view.error} onRetry={() => list.send({ type: 'list.refresh' })}>
        {(data) => (
          <CandidateTable
            data={data}
            busy={view.loading}
            onPage={(page) => list.send({ type: 'list.page', page })}
            actionLabel="Record"
            action={(row) => (
              <Link href={`${EDIT_PATH}?id=${row.id}`} className="text-brand-700 underline">
                Edit
              </Link>
            )}
          />
        )}
      </ListFrame>
    </>
  );
}

const VERIFIED_CHOICES = [
  { value: 'false', label: 'unverified' },
  { value: 'true', label: 'verified' },
];

export function IndexedPage() {
  const { list, view } = useCandidateList(CANDIDATE_PATHS.adminCandidates, {
    field: 'verified',
    updateStatus: updateVerification,
  });
  return (
    <section>
      <Heading>Indexed Candidates</Heading>
      <CandidateFilters
        filters={view.filters}
        show={['search', 'school', 'course_header', 'year', 'verified']}
        onFilter={(filters) => list.send({ type: 'list.filter', filters })}
      />
      <ListFrame data={view.data} error={view.error} onRetry={() => list.send({ type: 'list.refresh' })}>
        {(data) => (
          <CandidateTable
            data={data}
            busy={view.loading}
            onPage={(page) => list.send({ type: 'list.page', page })}
            actionLabel="Documents"
            action={(row) => (
              <RowToggle
                list={list}
                row={row}
                choices={VERIFIED_CHOICES}
                label={`Documents of ${row.first_name} ${row.last_name}`}
              />
            )}
          />
        )}
      </ListFrame>
    </section>
  );
}

const REG_CHOICES = REG_STATUSES.map((status) => ({ value: status, label: status }));

export function RegisteredPage() {
  const role = useSession((s) => s.context.user?.user_role ?? 'school_admin');
  const { list, view } = useCandidateList(CANDIDATE_PATHS.registered[role], {
    field: 'reg_status',
    updateStatus: updateRegStatus(role),
    confirmValues: ['unregistered'],
  });
  return (
    <section>
      <Heading>Registered Candidates</Heading>
      <CandidateFilters
        filters={view.filters}
        show={
          role === 'admin' ? ['search', 'school', 'course_header', 'reg_status'] : ['search', 'reg_status']
        }
        withOptions={role === 'admin'}
        onFilter={(filters) => list.send({ type: 'list.filter', filters })}
      />
      <ListFrame data={view.data} error={view.error} onRetry={() => list.send({ type: 'list.refresh' })}>
        {(data) => (
          <CandidateTable
            data={data}
            busy={view.loading}
            onPage={(page) => list.send({ type: 'list.page', page })}
            actionLabel="reg_status"
            action={(row) => (
              <RowToggle
                list={list}
                row={row}
                choices={REG_CHOICES}
                confirmText={`Take ${row.first_name} ${row.last_name} off the exam?`}
                label={`Registration status of ${row.first_name} ${row.last_name}`}
                disabled={role !== 'admin' && row.course_header.registration_status !== 'open'}
              />
            )}
          />
        )}
      </ListFrame>
    </section>
  );
}
