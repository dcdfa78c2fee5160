import { useActorRef, useSelector } from '@xstate/react';
import { useLiveActorRef } from '../../app/useLiveActorRef';
import { Link } from 'wouter';
import { auditTrailPathFor, BOARD_STAFF_PAGE } from '../../../contract/navigation';
import {
  SCHOOL_MESSAGES,
  SCHOOL_ADMIN_MESSAGES,
  SCHOOL_STATUSES,
  SUSPEND_CONFIRMATION,
  type SchoolAdminSummary,
  type SchoolRow,
} from '../../../contract/schools';
import { SCHOOLS_LIST } from '../../../contract/lists';
import { formDialogMachine } from '../../../machines/formDialog.machine';
import { statusToggleMachine } from '../../../machines/statusToggle.machine';
import {
  sendResetCode,
  saveSchool,
  saveSchoolAdmin,
  updateAdminActive,
  updateSchoolStatus,
} from '../../api/schools';
import { useActors } from '../../app/actors';
import { useNotify } from '../../app/notify';
import { Button, SelectField, TextField } from '../../ui/controls';
import { ListTable, ListView, SearchForm } from '../../ui/ListView';
import { RowStatusToggle, StatusToggle, type ListRef } from '../../ui/StatusToggle';
import { useList, useListDialog } from '../pagedList';
import { AdminFormDialog, ResetCodeDialog, SchoolFormDialog } from './SchoolDialogs';
import type { FormDialogRef } from '../../ui/PageFormDialog';

const STATUS_LABELS: Record<string, string> = { active: 'Active', suspended: 'Suspended' };
const STATUS_CHOICES = SCHOOL_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }));
const ACCOUNT_CHOICES = [
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Deactivated' },
];

function useSchoolsPage() {
  // Each school row gets a status toggle; suspending is confirmed first.
  const list = useList(SCHOOLS_LIST, {
    row: statusToggleMachine.provide({ actors: { updateStatus: updateSchoolStatus } }),
    rowInput: { field: 'status', confirmValues: ['suspended'] },
  });
  // After a dialog's success the list shows the rows as the server now has them.
  const schoolForm = useListDialog(list, saveSchool, SCHOOL_MESSAGES.updated);
  const adminForm = useListDialog(list, saveSchoolAdmin, SCHOOL_ADMIN_MESSAGES.created);
  const resetForm = useLiveActorRef(formDialogMachine.provide({ actors: { submit: sendResetCode } }), {
    input: { successMessage: SCHOOL_ADMIN_MESSAGES.resetSent },
  });
  useNotify(resetForm);
  return { list, schoolForm, adminForm, resetForm };
}

type SchoolList = ListRef;

/** The board's training schools: search, filter and page them, change a school's status in its row,
 * create and edit schools, and manage each school's admin accounts (and sign in as one). */
export default function SchoolsPage() {
  const { list, schoolForm, adminForm, resetForm } = useSchoolsPage();
  const filters = useSelector(list, (s) => s.context.query.filters);
  // Each dialog's machine keeps which school or admin it is about (null: a new school).
  const open = (actor: FormDialogRef, subject: SchoolRow | SchoolAdminSummary | null) =>
    actor.send({ type: 'form.open', subject });
  return (
    <section>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Training Schools</h1>
        <div className="flex flex-wrap items-center gap-4">
          {/* The board's own admins have their page here (issue 26), not in the spec's sidebar. */}
          <Link href={BOARD_STAFF_PAGE} className="text-brand-700 underline-offset-2 hover:underline">
            Board staff
          </Link>
          <Button onClick={() => open(schoolForm, null)}>New school</Button>
        </div>
      </div>
      <SearchForm
        label="Find schools"
        onSearch={(next) => list.send({ type: 'list.filter', filters: next })}
        className="my-4 flex flex-wrap items-end gap-2"
      >
        <div className="min-w-48 flex-1">
          <TextField
            label="Search by code or name"
            name="search"
            type="search"
            defaultValue={filters.search ?? ''}
          />
        </div>
        <div className="w-40">
          <SelectField label="Status" name="status" defaultValue={filters.status ?? ''}>
            <option value="">All</option>
            {STATUS_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </SelectField>
        </div>
      </SearchForm>
      <ListView<SchoolRow> list={list} definition={SCHOOLS_LIST}>
        {(data, busy) => (
          <ListTable
            head={['Code', 'Name', 'State', 'Status', 'School admins', 'Actions']}
            busy={busy}
            empty="No school matches this search."
            isEmpty={data.items.length === 0}
          >
            {data.items.map((row) => (
              <SchoolRowView
                key={row.id}
                school={row}
                list={list}
                onEdit={() => open(schoolForm, row)}
                onAddAdmin={() => open(adminForm, row)}
                onReset={(admin) => open(resetForm, admin)}
              />
            ))}
          </ListTable>
        )}
      </ListView>
      <SchoolFormDialog actor={schoolForm} />
      <AdminFormDialog actor={adminForm} />
      <ResetCodeDialog actor={resetForm} />
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
  return (
    <tr>
      <td className="whitespace-nowrap px-4 py-2 align-top font-mono">{school.code}</td>
      <td className="px-4 py-2 align-top">{school.name}</td>
      <td className="px-4 py-2 align-top">{school.state}</td>
      <td className="px-4 py-2 align-top">
        <RowStatusToggle
          list={list}
          row={school}
          label={`Status of ${school.name}`}
          choices={STATUS_CHOICES}
          confirm={{ title: `Suspend ${school.code}?`, text: SUSPEND_CONFIRMATION, action: 'Suspend' }}
        />
      </td>
      <td className="px-4 py-2 align-top">
        {school.admins.length === 0 && <span className="text-slate-500">None yet</span>}
        <ul className="space-y-2">
          {school.admins.map((admin) => (
            // A new actor when the server's answer changes, so the row starts from it.
            <AdminItem
              key={`${admin.id}-${admin.active}`}
              admin={admin}
              list={list}
              onReset={() => onReset(admin)}
            />
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
          {/* A school has no page of its own: its history is the audit trail filtered to its record. */}
          <Link
            href={auditTrailPathFor('training_school', school.id)}
            aria-label={`History of ${school.name}`}
            className="text-sm text-brand-700 underline"
          >
            History
          </Link>
        </div>
      </td>
    </tr>
  );
}

/** One school admin: their account's status through a status toggle, a reset code, and 'Log in as'. */
function AdminItem({
  admin,
  list,
  onReset,
}: {
  admin: SchoolAdminSummary;
  list: SchoolList;
  onReset: () => void;
}) {
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
        list={list}
        label={`Account of ${admin.name}`}
        choices={ACCOUNT_CHOICES}
        confirm={{
          title: `Deactivate ${admin.name}?`,
          text: 'They will be signed out at once and cannot sign in until the account is reactivated.',
          action: 'Deactivate',
        }}
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
