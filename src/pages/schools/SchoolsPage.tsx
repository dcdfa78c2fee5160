import { useActorRef, useSelector } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import type { Page } from '../../../contract/pagination';
import {
  SCHOOL_MESSAGES,
  SCHOOL_ADMIN_MESSAGES,
  SCHOOL_PATHS,
  SCHOOL_STATUSES,
  SUSPEND_CONFIRMATION,
  type SchoolAdminSummary,
  type SchoolRow,
} from '../../../contract/schools';
import { formDialogMachine } from '../../../machines/formDialog.machine';
import { listMachine } from '../../../machines/list.machine';
import { statusToggleMachine } from '../../../machines/statusToggle.machine';
import { pageFetcher } from '../../api/lists';
import {
  sendResetCode,
  submitSchool,
  submitSchoolAdmin,
  updateAdminActive,
  updateSchoolStatus,
} from '../../api/schools';
import { useActors } from '../../app/actors';
import { Alert, Button, SelectField, TextField } from '../../ui/controls';
import { Pagination } from '../../ui/Pagination';
import { AdminFormDialog, ResetCodeDialog, SchoolFormDialog, type FormDialogRef } from './SchoolDialogs';
import { StatusToggle, type StatusToggleRef } from './StatusToggle';

const STATUS_LABELS: Record<string, string> = { active: 'Active', suspended: 'Suspended' };
const STATUS_CHOICES = SCHOOL_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }));
const ACCOUNT_CHOICES = [
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Deactivated' },
];

function useSchoolsPage() {
  const list = useActorRef(
    listMachine.provide({
      actors: {
        fetchPage: pageFetcher(SCHOOL_PATHS.list),
        row: statusToggleMachine.provide({ actors: { updateStatus: updateSchoolStatus } }),
        // The list's `row` is any callback-shaped actor; the toggle machine is one (as the candidate lists do).
      } as unknown as Parameters<typeof listMachine.provide>[0]['actors'],
    }),
    // Each school row gets a status toggle; suspending is confirmed first.
    { input: { rowInput: { field: 'status', confirmValues: ['suspended'] } } },
  );
  // After a dialog's success the list shows the rows as the server now has them.
  const refresh = () => list.send({ type: 'list.refresh' });
  const schoolForm = useActorRef(formDialogMachine.provide({ actors: { submit: submitSchool(refresh) } }), {
    input: { successMessage: SCHOOL_MESSAGES.updated },
  });
  const adminForm = useActorRef(
    formDialogMachine.provide({ actors: { submit: submitSchoolAdmin(refresh) } }),
    { input: { successMessage: SCHOOL_ADMIN_MESSAGES.created } },
  );
  const resetForm = useActorRef(formDialogMachine.provide({ actors: { submit: sendResetCode } }), {
    input: { successMessage: SCHOOL_ADMIN_MESSAGES.resetSent },
  });
  return { list, schoolForm, adminForm, resetForm };
}

type SchoolList = ReturnType<typeof useSchoolsPage>['list'];

/** The board's training schools: search, filter and page them, change a school's status in its row,
 * create and edit schools, and manage each school's admin accounts (and sign in as one). */
export default function SchoolsPage() {
  const { list, schoolForm, adminForm, resetForm } = useSchoolsPage();
  // Which school or admin the open dialog is about: what the dialog shows, not how it behaves.
  const [school, setSchool] = useState<SchoolRow | null>(null);
  const [adminSchool, setAdminSchool] = useState<SchoolRow | null>(null);
  const [resetAdmin, setResetAdmin] = useState<SchoolAdminSummary | null>(null);
  const view = useSelector(list, (s) => ({
    loading: s.hasTag('loading'),
    data: s.context.data as Page<SchoolRow> | null,
    error: s.context.error,
    search: s.context.query.filters.search ?? '',
    status: s.context.query.filters.status ?? '',
  }));
  const filter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    list.send({
      type: 'list.filter',
      filters: { search: String(form.get('search') ?? ''), status: String(form.get('status') ?? '') },
    });
  };
  const open = (actor: FormDialogRef) => actor.send({ type: 'form.open' });
  return (
    <section>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Training Schools</h1>
        <Button
          onClick={() => {
            setSchool(null);
            open(schoolForm);
          }}
        >
          New school
        </Button>
      </div>
      <form
        role="search"
        aria-label="Find schools"
        onSubmit={filter}
        className="mt-4 flex flex-wrap items-end gap-2"
      >
        <div className="min-w-48 flex-1">
          <TextField label="Search by code or name" name="search" type="search" defaultValue={view.search} />
        </div>
        <div className="w-40">
          <SelectField label="Status" name="status" defaultValue={view.status}>
            <option value="">All</option>
            {STATUS_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </SelectField>
        </div>
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>
      {view.error && (
        <div className="mt-4">
          <Alert tone="error">
            {view.error}{' '}
            <Button variant="link" onClick={() => list.send({ type: 'list.refresh' })}>
              Try again
            </Button>
          </Alert>
        </div>
      )}
      {!view.data && !view.error && <p className="mt-4 text-slate-500">Loading…</p>}
      {view.data && (
        <div
          aria-busy={view.loading || undefined}
          className="mt-4 overflow-x-auto rounded-md bg-white ring-1 ring-slate-200"
        >
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-slate-600">
              <tr>
                {['Code', 'Name', 'State', 'Status', 'School admins', 'Actions'].map((title) => (
                  <th key={title} scope="col" className="px-4 py-2 font-medium">
                    {title}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {view.data.items.length === 0 && (
                <tr>
                  <td colSpan={6} className="px-4 py-6 text-center text-slate-500">
                    No school matches this search.
                  </td>
                </tr>
              )}
              {view.data.items.map((row) => (
                <SchoolRowView
                  key={row.id}
                  school={row}
                  list={list}
                  onEdit={() => {
                    setSchool(row);
                    open(schoolForm);
                  }}
                  onAddAdmin={() => {
                    setAdminSchool(row);
                    open(adminForm);
                  }}
                  onReset={(admin) => {
                    setResetAdmin(admin);
                    open(resetForm);
                  }}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {view.data && (
        <Pagination
          data={view.data}
          busy={view.loading}
          onPage={(page) => list.send({ type: 'list.page', page })}
        />
      )}
      <SchoolFormDialog actor={schoolForm} school={school} />
      <AdminFormDialog actor={adminForm} school={adminSchool} />
      <ResetCodeDialog actor={resetForm} admin={resetAdmin} />
    </section>
  );
}

function SchoolRowView({
  school,
  list,
  onEdit,
  onAddAdmin,
  onReset,
}: {
  school: SchoolRow;
  list: SchoolList;
  onEdit: () => void;
  onAddAdmin: () => void;
  onReset: (admin: SchoolAdminSummary) => void;
}) {
  // The status toggle the list spawned for this row.
  const toggle = useSelector(list, (s) => s.context.rows[String(school.id)]) as StatusToggleRef | undefined;
  return (
    <tr>
      <td className="px-4 py-2 align-top font-mono">{school.code}</td>
      <td className="px-4 py-2 align-top">{school.name}</td>
      <td className="px-4 py-2 align-top">{school.state}</td>
      <td className="px-4 py-2 align-top">
        {toggle && (
          <StatusToggle
            key={toggle.id}
            toggle={toggle}
            label={`Status of ${school.name}`}
            choices={STATUS_CHOICES}
            confirmTitle={`Suspend ${school.code}?`}
            confirmText={SUSPEND_CONFIRMATION}
            confirmLabel="Suspend"
          />
        )}
      </td>
      <td className="px-4 py-2 align-top">
        {school.admins.length === 0 && <span className="text-slate-500">None yet</span>}
        <ul className="space-y-2">
          {school.admins.map((admin) => (
            // A new actor when the server's answer changes, so the row starts from it.
            <AdminItem key={`${admin.id}-${admin.active}`} admin={admin} onReset={() => onReset(admin)} />
          ))}
        </ul>
      </td>
      <td className="px-4 py-2 align-top">
        <div className="flex flex-col items-start gap-1">
          <Button variant="link" aria-label={`Edit ${school.name}`} onClick={onEdit}>
            Edit
          </Button>
          <Button variant="link" aria-label={`Add an admin to ${school.name}`} onClick={onAddAdmin}>
            Add admin
          </Button>
        </div>
      </td>
    </tr>
  );
}

/** One school admin: their account's status through a status toggle, a reset code, and 'Log in as'. */
function AdminItem({ admin, onReset }: { admin: SchoolAdminSummary; onReset: () => void }) {
  const { impersonation } = useActors();
  const toggle = useActorRef(statusToggleMachine.provide({ actors: { updateStatus: updateAdminActive } }), {
    input: { row: { id: admin.id, active: String(admin.active) }, field: 'active', confirmValues: ['false'] },
  });
  const active = useSelector(toggle, (s) => s.context.value === 'true' && !s.hasTag('busy'));
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <span className={active ? '' : 'text-slate-400'}>
        {admin.name} <span className="text-slate-500">({admin.email})</span>
      </span>
      <StatusToggle
        toggle={toggle}
        label={`Account of ${admin.name}`}
        choices={ACCOUNT_CHOICES}
        confirmTitle={`Deactivate ${admin.name}?`}
        confirmText="They will be signed out at once and cannot sign in until the account is reactivated."
        confirmLabel="Deactivate"
      />
      {active && (
        <>
          <Button variant="link" aria-label={`Send ${admin.name} a password-reset code`} onClick={onReset}>
            Send reset code
          </Button>
          <Button
            variant="link"
            aria-label={`Log in as ${admin.name}`}
            onClick={() =>
              impersonation.send({
                type: 'impersonation.request',
                user: { id: admin.id, name: admin.name, email: admin.email },
              })
            }
          >
            Log in as
          </Button>
        </>
      )}
    </li>
  );
}
