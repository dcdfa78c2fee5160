import { Suspense } from 'react';
import { SCHOOL_LIMITS, type SchoolAdminSummary, type SchoolRow } from '../../../contract/schools';
import { loadNationalities } from '../../api/candidates';
import { useResource } from '../../app/resource';
import { SelectField, TextAreaField, TextField } from '../../ui/controls';
import type { ActorRefFrom } from 'xstate';
import type { formDialogMachine } from '../../../machines/formDialog.machine';
import { useNotify } from '../../app/notify';
import { PageFormDialog } from '../../ui/PageFormDialog';

export type FormDialogRef = ActorRefFrom<typeof formDialogMachine>;

/** The page's dialogs over the shared PageFormDialog; each dialog's toasts are heard here. */
function ActorFormDialog({
  actor,
  closeLabel = 'Cancel',
  ...props
}: Omit<Parameters<typeof PageFormDialog>[0], 'closeLabel'> & { closeLabel?: string }) {
  useNotify(actor);
  return <PageFormDialog actor={actor} closeLabel={closeLabel} {...props} />;
}

/** Nigeria first, as everywhere (the nationality list is the board's list of countries). */
function CountryField({ value, error }: { value: string; error?: string }) {
  const countries = useResource('nationalities-admin', () => loadNationalities('admin'));
  return (
    <SelectField label="Country" name="country" defaultValue={value} error={error}>
      {countries.map((country) => (
        <option key={country.code} value={country.code}>
          {country.name}
        </option>
      ))}
    </SelectField>
  );
}

/** Create a school (school null) or edit one: code, name, state, country, address and contact. */
export function SchoolFormDialog({ actor, school }: { actor: FormDialogRef; school: SchoolRow | null }) {
  return (
    <ActorFormDialog
      actor={actor}
      title={school ? `Edit ${school.code}` : 'New training school'}
      submitLabel={school ? 'Save changes' : 'Create school'}
      busyLabel="Saving…"
    >
      {(fieldError) => (
        // A new key for each school, so the inputs start from that school's values.
        <div key={school?.id ?? 'new'} className="space-y-4">
          <input type="hidden" name="id" value={school?.id ?? ''} />
          <TextField
            label="School code"
            name="code"
            defaultValue={school?.code ?? ''}
            maxLength={SCHOOL_LIMITS.codeMax}
            autoComplete="off"
            hint="Letters and digits with dashes, such as SHT-IB"
            error={fieldError('code')}
          />
          <TextField
            label="School name"
            name="name"
            defaultValue={school?.name ?? ''}
            maxLength={SCHOOL_LIMITS.nameMax}
            error={fieldError('name')}
          />
          <TextField
            label="State"
            name="state"
            defaultValue={school?.state ?? ''}
            maxLength={SCHOOL_LIMITS.stateMax}
            error={fieldError('state')}
          />
          <Suspense fallback={<p className="text-sm text-slate-500">Loading the countries…</p>}>
            <CountryField value={school?.country ?? 'NG'} error={fieldError('country')} />
          </Suspense>
          <TextAreaField
            label="Address"
            name="address"
            rows={2}
            defaultValue={school?.address ?? ''}
            maxLength={SCHOOL_LIMITS.addressMax}
            error={fieldError('address')}
          />
          <TextField
            label="Contact email"
            name="contact_email"
            type="email"
            defaultValue={school?.contact_email ?? ''}
            error={fieldError('contact_email')}
          />
          <TextField
            label="Contact phone"
            name="contact_phone"
            type="tel"
            defaultValue={school?.contact_phone ?? ''}
            error={fieldError('contact_phone')}
          />
        </div>
      )}
    </ActorFormDialog>
  );
}

/** A new school admin: no password is set here; they are emailed a code to set their own. */
export function AdminFormDialog({ actor, school }: { actor: FormDialogRef; school: SchoolRow | null }) {
  return (
    <ActorFormDialog
      actor={actor}
      title={`New school admin${school ? ` for ${school.code}` : ''}`}
      submitLabel="Add admin"
      busyLabel="Adding…"
    >
      {(fieldError) => (
        <div key={school?.id ?? 'none'} className="space-y-4">
          <input type="hidden" name="school_id" value={school?.id ?? ''} />
          <p className="text-sm text-slate-600">
            They will be emailed a code to set their own password; nobody else sees it.
          </p>
          <TextField label="Full name" name="name" autoComplete="off" error={fieldError('name')} />
          <TextField
            label="Email address"
            name="email"
            type="email"
            autoComplete="off"
            error={fieldError('email')}
          />
          <TextField
            label="Phone number"
            name="phone_number"
            type="tel"
            autoComplete="off"
            error={fieldError('phone_number')}
          />
        </div>
      )}
    </ActorFormDialog>
  );
}

/** Asks before mailing a school admin a new reset code. */
export function ResetCodeDialog({
  actor,
  admin,
}: {
  actor: FormDialogRef;
  admin: SchoolAdminSummary | null;
}) {
  return (
    <ActorFormDialog
      actor={actor}
      title="Send a password-reset code"
      submitLabel="Send code"
      busyLabel="Sending…"
    >
      {() => (
        <>
          <input type="hidden" name="user_id" value={admin?.id ?? ''} />
          <p className="text-slate-700">
            Email a new code to {admin?.name} ({admin?.email})? They set a new password with it on the
            portal's reset page. A code sent before stops working.
          </p>
        </>
      )}
    </ActorFormDialog>
  );
}
