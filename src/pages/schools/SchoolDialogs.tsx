import { Suspense, type ComponentProps } from 'react';
import { SCHOOL_LIMITS, type SchoolAdminSummary, type SchoolRow } from '../../../contract/schools';
import { useNationalities } from '../../app/formOptions';
import { SelectField, TextAreaField, TextField } from '../../ui/controls';
import { PageFormDialog, useDialogSubject, type FormDialogRef } from '../../ui/PageFormDialog';

/**
 * The page's dialogs over the shared PageFormDialog, each about one school or admin (or a new school),
 * the subject its machine was opened with: its id goes in the hidden field `idName`, and the inputs start again from its values (a new key for
 * each).
 */
function SchoolPageDialog({
  actor,
  idName,
  id,
  children,
  ...props
}: Omit<ComponentProps<typeof PageFormDialog>, 'closeLabel'> & { idName: string; id?: number }) {
  return (
    <PageFormDialog actor={actor} closeLabel="Cancel" {...props}>
      {(fieldError) => (
        <div key={id ?? 'new'} className="space-y-4">
          <input type="hidden" name={idName} value={id ?? ''} />
          {children(fieldError)}
        </div>
      )}
    </PageFormDialog>
  );
}

/** Nigeria first, as everywhere (the nationality list is the board's list of countries). */
function CountryField({ value, error }: { value: string; error?: string }) {
  const countries = useNationalities();
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

/** Create a school (no subject) or edit one: code, name, state, country, address and contact. */
export function SchoolFormDialog({ actor }: { actor: FormDialogRef }) {
  const school = useDialogSubject<SchoolRow>(actor);
  return (
    <SchoolPageDialog
      actor={actor}
      idName="id"
      id={school?.id}
      title={school ? `Edit ${school.code}` : 'New training school'}
      submitLabel={school ? 'Save changes' : 'Create school'}
      busyLabel="Saving…"
    >
      {(fieldError) => {
        // A field's name, the school's value and the server's message on it.
        const field = (name: Exclude<keyof SchoolRow, 'id' | 'admins' | 'status'>) => ({
          name,
          defaultValue: school?.[name] ?? '',
          error: fieldError(name),
        });
        return (
          <>
            <TextField
              label="School code"
              {...field('code')}
              maxLength={SCHOOL_LIMITS.codeMax}
              autoComplete="off"
              hint="Letters and digits with dashes, such as SHT-IB"
            />
            <TextField label="School name" {...field('name')} maxLength={SCHOOL_LIMITS.nameMax} />
            <TextField label="State" {...field('state')} maxLength={SCHOOL_LIMITS.stateMax} />
            <Suspense fallback={<p className="text-sm text-slate-500">Loading the countries…</p>}>
              <CountryField value={school?.country ?? 'NG'} error={fieldError('country')} />
            </Suspense>
            <TextAreaField
              label="Address"
              {...field('address')}
              rows={2}
              maxLength={SCHOOL_LIMITS.addressMax}
            />
            <TextField label="Contact email" {...field('contact_email')} type="email" />
            <TextField label="Contact phone" {...field('contact_phone')} type="tel" />
          </>
        );
      }}
    </SchoolPageDialog>
  );
}

/** A new school admin: no password is set here; they are emailed a code to set their own. */
export function AdminFormDialog({ actor }: { actor: FormDialogRef }) {
  const school = useDialogSubject<SchoolRow>(actor);
  return (
    <SchoolPageDialog
      actor={actor}
      idName="school_id"
      id={school?.id}
      title={`New school admin${school ? ` for ${school.code}` : ''}`}
      submitLabel="Add admin"
      busyLabel="Adding…"
    >
      {(fieldError) => (
        <>
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
        </>
      )}
    </SchoolPageDialog>
  );
}

/** Asks before mailing a school admin a new reset code. */
export function ResetCodeDialog({ actor }: { actor: FormDialogRef }) {
  const admin = useDialogSubject<SchoolAdminSummary>(actor);
  return (
    <SchoolPageDialog
      actor={actor}
      idName="user_id"
      id={admin?.id}
      title="Send a password-reset code"
      submitLabel="Send code"
      busyLabel="Sending…"
    >
      {() => (
        <p className="text-slate-700">
          Email a new code to {admin?.name} ({admin?.email})? They set a new password with it on the portal's
          reset page. A code sent before stops working.
        </p>
      )}
    </SchoolPageDialog>
  );
}
