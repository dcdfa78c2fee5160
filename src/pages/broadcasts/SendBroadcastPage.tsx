import { useState } from 'react';
import { BROADCAST_LINKS } from '../../../contract/navigation';
import { Link } from 'wouter';
import {
  AUDIENCE_KINDS,
  AUDIENCE_LABELS,
  BROADCAST_LIMITS,
  BROADCAST_MESSAGES as M,
  type AudienceChoices,
  type AudienceKind,
} from '../../../contract/broadcasts';
import { ATTACHMENT_INPUTS, loadAudienceChoices, sendBroadcast } from '../../api/broadcasts';
import { reloadResource, useResource } from '../../app/resource';
import { Button, SelectField, TextAreaField, TextField } from '../../ui/controls';
import { PageFormDialog, type FormDialogRef } from '../../ui/PageFormDialog';
import { useSavingDialog } from '../pagedList';
import { SENT_KEY } from './keys';

/**
 * Send a broadcast (admin, /broadcast-school): a form in a dialog, the portal's way with forms. The
 * audience is resolved by the server when it is sent, and fixed then; a refusal keeps what was typed
 * (and the files chosen) beside the server's messages.
 */
export default function SendBroadcastPage() {
  const choices = useResource('broadcasts.audiences', loadAudienceChoices);
  const dialog = useSavingDialog(sendBroadcast, M.sent, () => reloadResource(SENT_KEY));
  return (
    <section>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">Send a broadcast</h1>
        <Button onClick={() => dialog.send({ type: 'form.open' })}>Write a broadcast</Button>
      </div>
      <div className="mt-4 space-y-2 rounded-md bg-white p-6 text-slate-700 ring-1 ring-slate-200">
        <p>
          A broadcast reaches the schools you choose in the portal, and each of their admins gets an email
          with a link to it. Files stay in the portal: the email never carries them.
        </p>
        <p>
          Who receives it is decided when you send it: a school that joins a state or a course header later
          does not receive it. You can ask schools to acknowledge it, and follow who has read and acknowledged
          it in{' '}
          <Link href={BROADCAST_LINKS[1].path} className="text-brand-700 underline">
            Your broadcast
          </Link>
          .
        </p>
      </div>
      <BroadcastDialog dialog={dialog} choices={choices} />
    </section>
  );
}

function BroadcastDialog({ dialog, choices }: { dialog: FormDialogRef; choices: AudienceChoices }) {
  const [audience, setAudience] = useState<AudienceKind>('all');
  return (
    <PageFormDialog
      actor={dialog}
      title="Write a broadcast"
      submitLabel="Send the broadcast"
      busyLabel="Sending…"
      closeLabel="Cancel"
    >
      {(fieldError) => (
        <>
          <TextField
            label="Title"
            name="title"
            maxLength={BROADCAST_LIMITS.titleMax}
            error={fieldError('title')}
          />
          <TextAreaField
            label="Message"
            name="body"
            rows={6}
            maxLength={BROADCAST_LIMITS.bodyMax}
            hint="Plain text: it is shown exactly as typed."
            error={fieldError('body')}
          />
          <SelectField
            label="Send to"
            name="audience"
            value={audience}
            onChange={(event) => setAudience(event.target.value as AudienceKind)}
            error={fieldError('audience')}
          >
            {AUDIENCE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {AUDIENCE_LABELS[kind]}
              </option>
            ))}
          </SelectField>
          {audience === 'schools' && <SchoolChoice choices={choices} error={fieldError('school_ids')} />}
          {audience === 'state' && (
            <SelectField label="State" name="state" error={fieldError('state')}>
              <option value="">Choose a state</option>
              {choices.states.map((state) => (
                <option key={state}>{state}</option>
              ))}
            </SelectField>
          )}
          {audience === 'course_header' && (
            <SelectField label="Course header" name="course_header_id" error={fieldError('course_header_id')}>
              <option value="">Choose a course header</option>
              {choices.course_headers.map((header) => (
                <option key={header.id} value={header.id}>
                  {header.code}: {header.title}
                </option>
              ))}
            </SelectField>
          )}
          {audience === 'status' && (
            <SelectField label="Status" name="status" error={fieldError('status')}>
              <option value="">Choose a status</option>
              <option value="active">Active</option>
              <option value="suspended">Suspended</option>
            </SelectField>
          )}
          <label className="flex items-center gap-2">
            <input type="checkbox" name="requires_acknowledgement" value="true" />
            Ask each school to acknowledge it
          </label>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">
              Attachments (up to {BROADCAST_LIMITS.attachmentsMax} PDFs or images, 2 MB each)
            </legend>
            {fieldError('attachments') && (
              <p className="text-sm text-red-700" role="alert">
                {fieldError('attachments')}
              </p>
            )}
            {ATTACHMENT_INPUTS.map((name, index) => (
              <AttachmentInput
                key={name}
                name={name}
                label={`Attachment ${index + 1}`}
                error={fieldError(name)}
              />
            ))}
          </fieldset>
        </>
      )}
    </PageFormDialog>
  );
}

function AttachmentInput({ name, label, error }: { name: string; label: string; error?: string }) {
  const id = `field-${name}`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm text-slate-700">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="file"
        accept="application/pdf,image/jpeg,image/png,image/gif,image/webp"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="block w-full text-sm"
      />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

function SchoolChoice({ choices, error }: { choices: AudienceChoices; error?: string }) {
  return (
    <fieldset aria-describedby={error ? 'school-ids-error' : undefined}>
      <legend className="text-sm font-medium">Schools</legend>
      {error && (
        <p id="school-ids-error" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="mt-1 max-h-48 space-y-1 overflow-y-auto rounded-md border border-slate-200 p-2">
        {choices.schools.map((school) => (
          <label key={school.id} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="school_ids" value={school.id} />
            {school.name} ({school.code}, {school.state})
          </label>
        ))}
      </div>
    </fieldset>
  );
}
