import { useActorRef, useSelector } from '@xstate/react';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { REG_STATUSES, type CandidateRow } from '../../../contract/candidates';
import { formatPersonName } from '../../../contract/format';
import { REGISTERED_LISTS } from '../../../contract/lists';
import type { Role } from '../../../contract/roles';
import { bulkRegistrationMachine } from '../../../machines/bulkRegistration.machine';
import { registerInBulk, updateRegStatus } from '../../api/candidateRows';
import { useRole } from '../../app/actors';
import { useNotify } from '../../app/notify';
import { LoadBoundary } from '../../app/resource';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Alert, Button } from '../../ui/controls';
import { PageTabs } from '../../ui/PageTabs';
import { RegistrationCountdown } from '../../ui/RegistrationCountdown';
import type { ListRef } from '../../ui/StatusToggle';
import { RowStatusToggle } from '../../ui/StatusToggle';
import { SuspendedSchoolNotice } from '../../ui/SuspendedSchoolNotice';
import { prefetchDietChoices, useDietChoices } from '../diets/DietField';
import { CandidateList, useCandidateList } from './candidateList';

/** Registered Candidates (both roles): the row toggle, whether the board has verified each candidate's
 * documents, and registering many at once (issue 22). */

const REG_CHOICES = REG_STATUSES.map((status) => ({ value: status, label: status }));

type BulkRef = ReturnType<typeof useBulkRegistration>;

function useBulkRegistration(role: Role, list: ListRef) {
  const [machine] = useState(() =>
    bulkRegistrationMachine.provide({ actors: { register: registerInBulk(role) } }),
  );
  const bulk = useActorRef(machine);
  useNotify(bulk);
  // Once candidates are registered, the list shows them so.
  useEffect(() => {
    const subscription = bulk.on('bulk.registered', () => list.send({ type: 'list.refresh' }));
    return () => subscription.unsubscribe();
  }, [bulk, list]);
  return bulk;
}

/** The board's verification of the documents, shown before registering: a row not verified is refused. */
const DOCUMENTS_COLUMN = {
  label: 'Documents',
  cell: (row: CandidateRow) =>
    row.verified ? (
      <span className="inline-block whitespace-nowrap rounded bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800 ring-1 ring-emerald-200">
        Verified
      </span>
    ) : (
      <span className="inline-block whitespace-nowrap rounded bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900 ring-1 ring-amber-200">
        Not verified yet
      </span>
    ),
};

/** Register the ticked rows, or every verified candidate (the list's course header and year kept). */
function BulkActions({ bulk, list, role }: { bulk: BulkRef; list: ListRef; role: Role }) {
  const current = useDietChoices(role).find((diet) => diet.current && !diet.closed);
  const filters = useSelector(list, (s) => s.context.query.filters);
  const view = useSelector(bulk, (s) => ({
    ticked: s.context.selected.length,
    busy: s.hasTag('busy'),
    confirming: s.hasTag('confirming'),
    summary: s.context.summary,
    error: s.context.error,
  }));
  if (!current) return null;
  const narrowed = [
    filters.course_header && `course header ${filters.course_header}`,
    filters.year && `year ${filters.year}`,
  ].filter(Boolean);
  const scope = role === 'admin' ? (filters.school ? ` of ${filters.school}` : ' of every school') : '';
  return (
    <div className="mb-3 rounded-md bg-white p-3 ring-1 ring-slate-200">
      <div className="flex flex-wrap items-center gap-3">
        <Button
          disabled={view.ticked === 0 || view.busy}
          busy={view.busy}
          busyLabel="Registering…"
          onClick={() => bulk.send({ type: 'bulk.registerTicked' })}
        >
          {`Register ticked (${view.ticked})`}
        </Button>
        <Button
          variant="secondary"
          disabled={view.busy}
          onClick={() =>
            bulk.send({
              type: 'bulk.registerAllVerified',
              diet: current.code,
              course_header: filters.course_header,
              year: filters.year ? Number(filters.year) : undefined,
            })
          }
        >
          Register every verified candidate
        </Button>
        {view.ticked > 0 && !view.busy && (
          <Button variant="link" onClick={() => bulk.send({ type: 'bulk.clear' })}>
            Clear the ticks
          </Button>
        )}
      </div>
      <p role="status" className="mt-2 text-sm text-slate-700 empty:hidden">
        {view.summary}
      </p>
      {view.error && (
        <div className="mt-2">
          <Alert tone="error">{view.error}</Alert>
        </div>
      )}
      <ConfirmDialog
        open={view.confirming}
        tone="primary"
        title={`Register every verified candidate for ${current.name}?`}
        confirmLabel="Register them"
        onConfirm={() => bulk.send({ type: 'bulk.confirm' })}
        onCancel={() => bulk.send({ type: 'bulk.cancel' })}
      >
        <p>
          Every candidate{scope}
          {narrowed.length ? ` (${narrowed.join(', ')})` : ''} whose documents the board has verified and who
          is not registered yet is registered for {current.name} ({current.code}). Those the rules refuse are
          counted, with the reason.
        </p>
      </ConfirmDialog>
    </div>
  );
}

export function RegisteredPage() {
  const role = useRole() ?? 'school_admin';
  prefetchDietChoices(role);
  const list = useCandidateList(REGISTERED_LISTS[role], {
    field: 'reg_status',
    updateStatus: updateRegStatus(role),
    confirmValues: ['unregistered'],
  });
  const bulk = useBulkRegistration(role, list);
  // Registration is changed for the current diet only: a past diet's list is read-only.
  const pastDiet = useSelector(list, (s) => !!s.context.query.filters.diet);
  const selected = useSelector(bulk, (s) => s.context.selected);
  const ticked = useMemo(() => new Set(selected), [selected]);
  const canChange = (row: CandidateRow) =>
    !pastDiet && (role === 'admin' || row.course_header.registration_status === 'open');
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
      <h1 className="mb-4 text-2xl font-semibold">Registered Candidates</h1>
      {/* A suspended school's admin is told before they try; the server refuses anyway. */}
      <SuspendedSchoolNotice />
      <RegistrationCountdown role={role} />
      <CandidateList
        list={list}
        definition={REGISTERED_LISTS[role]}
        show={
          role === 'admin'
            ? ['search', 'school', 'course_header', 'diet', 'reg_status', 'registration_fee']
            : ['search', 'diet', 'reg_status', 'verified', 'registration_fee']
        }
        withOptions={role === 'admin'}
        role={role}
        above={
          !pastDiet && (
            <LoadBoundary>
              <Suspense fallback={null}>
                <BulkActions bulk={bulk} list={list} role={role} />
              </Suspense>
            </LoadBoundary>
          )
        }
        ticks={
          pastDiet
            ? undefined
            : {
                ticked,
                onTick: (ids, on) => bulk.send({ type: 'bulk.tick', ids, on }),
                canTick: (row) => canChange(row) && row.reg_status !== 'registered',
              }
        }
        columns={[DOCUMENTS_COLUMN]}
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
                  disabled={!canChange(row)}
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
