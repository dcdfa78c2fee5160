import { Suspense } from 'react';
import { Link } from 'wouter';
import { formatDateTime } from '../../../contract/format';
import {
  STAFF_MESSAGES,
  STAFF_STATUS_LABELS,
  type MarkedSheet,
  type StaffMember,
} from '../../../contract/staff';
import { PROFILE_LIMITS } from '../../../contract/profile';
import { inviteStaff, loadStaff, resendInvitation, setSuspended } from '../../api/staff';
import { reloadResource, useReloadable } from '../../app/resource';
import { Button, TextField } from '../../ui/controls';
import { ListTable } from '../../ui/ListView';
import { PageFormDialog, useDialogSubject, type FormDialogRef } from '../../ui/PageFormDialog';
import { useSavingDialog } from '../pagedList';

/**
 * /board-staff (admin): the board's own admins with their status, last sign-in and the score sheets
 * each marks; add one by invitation, send the invitation again, suspend or reinstate one. Reached from
 * the Training Schools page (docs/decisions.md "Issue 26: board staff"); a plain fetch-and-show page,
 * read again after each dialog saves.
 */

const STAFF_KEY = 'board-staff';

export default function StaffPage() {
  const reload = () => reloadResource(STAFF_KEY);
  const invite = useSavingDialog(inviteStaff, STAFF_MESSAGES.invited, reload);
  const resend = useSavingDialog(resendInvitation, STAFF_MESSAGES.invitationResent, reload);
  const suspension = useSavingDialog(setSuspended, STAFF_MESSAGES.suspended, reload);
  return (
    <section>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Board staff</h1>
        <Button onClick={() => invite.send({ type: 'form.open', subject: null })}>Add a board admin</Button>
      </div>
      <p className="mt-2 text-slate-600">
        The board&apos;s administrators. Markers are chosen from the active ones.{' '}
        <Link href="/school" className="text-brand-700 underline-offset-2 hover:underline">
          Training Schools
        </Link>
      </p>
      <Suspense fallback={<p className="mt-4 text-slate-600">Loading the board staff…</p>}>
        <StaffTable resend={resend} suspension={suspension} />
      </Suspense>
      <InviteDialog actor={invite} />
      <ResendDialog actor={resend} />
      <SuspensionDialog actor={suspension} />
    </section>
  );
}

const sheetLabel = (sheet: MarkedSheet) =>
  `${sheet.diet} ${sheet.course_header} ${sheet.paper ?? 'in-course'} (marker ${sheet.marker})`;

function StaffTable({ resend, suspension }: { resend: FormDialogRef; suspension: FormDialogRef }) {
  const [staff] = useReloadable(STAFF_KEY, loadStaff);
  return (
    <div className="mt-4">
      <ListTable
        head={['Name', 'Status', 'Last sign-in', 'Marks', 'Actions']}
        busy={false}
        empty="No board admin yet."
        isEmpty={staff.length === 0}
      >
        {staff.map((member) => (
          <tr key={member.id}>
            <th scope="row" className="px-4 py-2 text-left align-top font-medium">
              {member.name}
              {member.is_you && <span className="text-slate-500"> (you)</span>}
              <span className="block text-sm font-normal text-slate-600">{member.email}</span>
            </th>
            <td className="px-4 py-2 align-top">{STAFF_STATUS_LABELS[member.status]}</td>
            <td className="px-4 py-2 align-top">
              {member.last_signed_in_at ? formatDateTime(member.last_signed_in_at) : 'Never'}
            </td>
            <td className="px-4 py-2 align-top">
              {member.sheets.length === 0 ? (
                <span className="text-slate-500">No sheet</span>
              ) : (
                <ul className="space-y-1">
                  {member.sheets.map((sheet) => (
                    <li key={`${sheet.id}-${sheet.marker}`}>
                      <Link
                        href={`/score/sheet?sheet=${sheet.id}`}
                        className="text-brand-700 underline-offset-2 hover:underline"
                      >
                        {sheetLabel(sheet)}
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </td>
            <td className="px-4 py-2 align-top">
              <StaffActions member={member} resend={resend} suspension={suspension} />
            </td>
          </tr>
        ))}
      </ListTable>
    </div>
  );
}

function StaffActions({
  member,
  resend,
  suspension,
}: {
  member: StaffMember;
  resend: FormDialogRef;
  suspension: FormDialogRef;
}) {
  const open = (actor: FormDialogRef) => actor.send({ type: 'form.open', subject: member });
  const who = <span className="sr-only"> {member.name}</span>;
  return (
    <div className="flex flex-wrap gap-3">
      {member.status === 'invited' && (
        <Button variant="link" onClick={() => open(resend)}>
          Send the invitation again{who}
        </Button>
      )}
      {member.status === 'suspended' ? (
        <Button variant="link" onClick={() => open(suspension)}>
          Reinstate{who}
        </Button>
      ) : (
        !member.is_you && (
          <Button variant="link" onClick={() => open(suspension)}>
            Suspend{who}
          </Button>
        )
      )}
    </div>
  );
}

function InviteDialog({ actor }: { actor: FormDialogRef }) {
  return (
    <PageFormDialog
      actor={actor}
      title="Add a board admin"
      submitLabel="Send the invitation"
      busyLabel="Sending…"
      closeLabel="Cancel"
    >
      {(fieldError) => (
        <>
          <p className="text-sm text-slate-600">
            They are emailed a link to set their own password, then sign in. Until then they are shown as
            invited.
          </p>
          <TextField
            label="Full name"
            name="name"
            autoComplete="off"
            maxLength={PROFILE_LIMITS.nameMax}
            error={fieldError('name')}
          />
          <TextField
            label="Email address"
            name="email"
            type="email"
            autoComplete="off"
            maxLength={PROFILE_LIMITS.emailMax}
            error={fieldError('email')}
          />
        </>
      )}
    </PageFormDialog>
  );
}

function ResendDialog({ actor }: { actor: FormDialogRef }) {
  const member = useDialogSubject<StaffMember>(actor);
  return (
    <PageFormDialog
      actor={actor}
      title="Send the invitation again"
      submitLabel="Send it again"
      busyLabel="Sending…"
      closeLabel="Cancel"
      role="alertdialog"
    >
      {() => (
        <>
          <input type="hidden" name="id" value={member?.id ?? ''} />
          <p className="text-slate-700">
            Email {member?.name} ({member?.email}) a new invitation? The link sent before stops working.
          </p>
        </>
      )}
    </PageFormDialog>
  );
}

function SuspensionDialog({ actor }: { actor: FormDialogRef }) {
  const member = useDialogSubject<StaffMember>(actor);
  const suspending = member?.status !== 'suspended';
  return (
    <PageFormDialog
      actor={actor}
      title={suspending ? 'Suspend a board admin' : 'Reinstate a board admin'}
      submitLabel={suspending ? 'Suspend' : 'Reinstate'}
      busyLabel="Saving…"
      closeLabel="Cancel"
      role="alertdialog"
    >
      {() => (
        <>
          <input type="hidden" name="id" value={member?.id ?? ''} />
          <input type="hidden" name="suspended" value={String(suspending)} />
          <p className="text-slate-700">
            {suspending
              ? `Suspend ${member?.name ?? ''}? They are signed out at once and cannot sign in until reinstated.`
              : `Reinstate ${member?.name ?? ''}? They can sign in again.`}
          </p>
        </>
      )}
    </PageFormDialog>
  );
}
