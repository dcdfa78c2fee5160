import { useSelector } from '@xstate/react';
import { useLiveActorRef } from '../../app/useLiveActorRef';
import { useMemo, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import {
  CANDIDATE_CATEGORIES,
  CERTIFICATES,
  EXAM_MONTHS,
  GRADES,
  SUBJECT_FIELDS,
  SUBJECT_LABELS,
  TITLES,
  UPLOAD_FIELDS,
  UPLOAD_LABELS,
  needsPriorCertificate,
  requiredUploadOf,
  type CandidateRecord,
  type UploadField,
} from '../../../contract/candidates';
import { formatPersonName } from '../../../contract/format';
import { GENDERS, MARITAL_STATUSES, UPLOAD_LIMIT_BYTES } from '../../../contract/constants';
import { candidateFormMachine } from '../../../machines/candidateForm.machine';
import { submitCandidate, validateCandidate } from '../../api/candidates';
import { useFormOptions, useNationalities } from '../../app/formOptions';
import { useNotify } from '../../app/notify';
import { Alert, Button, SelectField, TextField } from '../../ui/controls';
import { DateField } from '../../ui/DateField';
import { formValuesOf } from '../../ui/formValues';

const newKey = () => crypto.randomUUID();

function Fieldset({ legend, children, hint }: { legend: string; children: ReactNode; hint?: ReactNode }) {
  return (
    <fieldset className="rounded-lg bg-white p-4 ring-1 ring-slate-200 sm:p-6">
      <legend className="px-1 text-base font-semibold">{legend}</legend>
      {hint && <p className="mb-3 text-sm text-slate-600">{hint}</p>}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">{children}</div>
    </fieldset>
  );
}

function Options({ values, labels }: { values: readonly string[]; labels?: Record<string, string> }) {
  return (
    <>
      <option value="">Choose…</option>
      {values.map((value) => (
        <option key={value} value={value}>
          {labels?.[value] ?? value}
        </option>
      ))}
    </>
  );
}

function formatBytes(bytes: number) {
  return bytes >= 1_000_000
    ? `${(bytes / 1_000_000).toFixed(2)} MB`
    : `${Math.max(1, Math.round(bytes / 1000))} KB`;
}

/** A file input that shows the chosen file's size, a preview for images, and the stored file when editing. */
function UploadInput({
  field,
  required,
  error,
  stored,
}: {
  field: UploadField;
  required: boolean;
  error?: string;
  stored?: { url: string; content_type: string };
}) {
  // The preview is the view's own business; the file itself stays in the input until submitted.
  const [chosen, setChosen] = useState<{ url: string | null; size: number; name: string } | null>(null);
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    if (chosen?.url) URL.revokeObjectURL(chosen.url);
    setChosen(
      file
        ? {
            url: file.type.startsWith('image/') ? URL.createObjectURL(file) : null,
            size: file.size,
            name: file.name,
          }
        : null,
    );
  };
  const tooLarge = chosen && chosen.size > UPLOAD_LIMIT_BYTES;
  return (
    <div className="flex gap-3">
      <div className="h-16 w-16 shrink-0 overflow-hidden rounded-md bg-slate-100 ring-1 ring-slate-200">
        {chosen?.url ? (
          <img
            src={chosen.url}
            alt={`Preview of ${UPLOAD_LABELS[field]}`}
            className="h-full w-full object-cover"
          />
        ) : stored?.content_type.startsWith('image/') ? (
          <img
            src={stored.url}
            alt={`Stored ${UPLOAD_LABELS[field]}`}
            className="h-full w-full object-cover"
          />
        ) : null}
      </div>
      <div className="min-w-0 flex-1">
        <TextField
          label={`${UPLOAD_LABELS[field]}${required ? ' *' : ''}`}
          name={field}
          type="file"
          accept={
            field === 'photo'
              ? 'image/jpeg,image/png,image/webp'
              : 'image/jpeg,image/png,image/webp,application/pdf'
          }
          onChange={choose}
          error={error}
          hint={
            chosen
              ? `${chosen.name}: ${formatBytes(chosen.size)}${tooLarge ? ' — over the 2 MB limit' : ''}`
              : stored
                ? 'A file is stored; choose another to replace it.'
                : 'At most 2 MB'
          }
        />
      </div>
    </div>
  );
}

/** The Candidate Index Form (and the same form for editing): every field of spec section 3. */
export function CandidateForm({
  record,
  onIndexed,
}: {
  record?: CandidateRecord;
  onIndexed?: (record: CandidateRecord) => void;
}) {
  const options = useFormOptions();
  const nationalities = useNationalities();
  // Made again only when the choices or the record change (the form re-renders at every upload tick).
  const rules = useMemo(
    () => ({
      closedCourseHeaders: new Set(
        options.course_headers.filter((c) => c.indexing_status !== 'open').map((c) => c.code),
      ),
      suspendedSchools: new Set(options.schools.filter((s) => s.status === 'suspended').map((s) => s.code)),
      current: record && {
        course_header: record.course_header.code,
        school_code: record.school.code,
        uploads: Object.keys(record.uploads) as UploadField[],
      },
    }),
    [options, record],
  );
  const form = useLiveActorRef(
    candidateFormMachine.provide({ actors: { validate: validateCandidate(rules), submitCandidate } }),
    {
      input: { submissionKey: newKey(), candidateId: record?.id ?? null },
    },
  );
  useNotify(form);
  const view = useSelector(form, (s) => ({
    busy: s.hasTag('busy'),
    uploading: s.hasTag('uploading'),
    progress: s.context.progress,
    fieldErrors: s.context.fieldErrors,
    error: s.context.error,
    failed: s.hasTag('failed'),
    invalid: s.hasTag('invalid'),
    succeeded: s.hasTag('succeeded'),
    result: s.context.result,
    submissionKey: s.context.submissionKey,
  }));
  // Which course header is chosen decides which fields are required; the view shows it as it changes.
  const [courseHeader, setCourseHeader] = useState(record?.course_header.code ?? '');
  const value = (name: string) => record?.fields[name as keyof CandidateRecord['fields']] ?? undefined;
  const error = (name: string) => view.fieldErrors[name]?.[0];
  const priorNeeded = needsPriorCertificate(courseHeader);

  if (view.succeeded && view.result && !record) {
    return (
      <section className="rounded-lg bg-white p-6 ring-1 ring-slate-200" role="status">
        <h2 className="text-lg font-semibold">Candidate indexed</h2>
        <p className="mt-2 text-slate-700">
          {formatPersonName(view.result)} has the index number{' '}
          <strong className="font-mono" data-testid="candidate-index">
            {view.result.candidate_index}
          </strong>
          .
        </p>
        <div className="mt-4 flex gap-3">
          <Button onClick={() => form.send({ type: 'candidate.new', submissionKey: newKey() })}>
            Index another candidate
          </Button>
          {onIndexed && (
            <Button variant="secondary" onClick={() => onIndexed(view.result!)}>
              Edit this candidate
            </Button>
          )}
        </div>
      </section>
    );
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    form.send({ type: 'candidate.submit', values: formValuesOf(event.currentTarget) });
  };

  return (
    // The key is the submission: a new candidate gets a fresh, empty form; a refused one keeps everything.
    <form
      key={view.submissionKey}
      onSubmit={submit}
      noValidate
      className="space-y-6"
      aria-busy={view.busy || undefined}
    >
      {view.error && (view.invalid || view.failed) && (
        <Alert tone="error">
          {view.failed ? view.error : 'Some fields need your attention: see the messages beside them.'}
        </Alert>
      )}
      <Fieldset legend="Identity">
        <SelectField label="Title" name="title" defaultValue={value('title')} error={error('title')}>
          <Options values={TITLES} />
        </SelectField>
        <TextField
          label="First name *"
          name="first_name"
          defaultValue={value('first_name')}
          error={error('first_name')}
        />
        <TextField
          label="Middle name"
          name="middle_name"
          defaultValue={value('middle_name')}
          error={error('middle_name')}
        />
        <TextField
          label="Last name *"
          name="last_name"
          defaultValue={value('last_name')}
          error={error('last_name')}
        />
        <DateField
          label="Date of birth *"
          name="date_of_birth"
          autoComplete="bday"
          defaultValue={value('date_of_birth')}
          error={error('date_of_birth')}
        />
        <SelectField label="Gender *" name="gender" defaultValue={value('gender')} error={error('gender')}>
          <Options values={GENDERS} />
        </SelectField>
        <SelectField
          label="Marital status *"
          name="marital_status"
          defaultValue={value('marital_status')}
          error={error('marital_status')}
        >
          <Options
            values={MARITAL_STATUSES.map((m) => m.code)}
            labels={Object.fromEntries(MARITAL_STATUSES.map((m) => [m.code, `${m.code} ${m.label}`]))}
          />
        </SelectField>
        <SelectField
          label="Nationality *"
          name="nationality"
          defaultValue={value('nationality')}
          error={error('nationality')}
        >
          <Options
            values={nationalities.map((n) => n.code)}
            labels={Object.fromEntries(nationalities.map((n) => [n.code, n.name]))}
          />
        </SelectField>
        <SelectField
          label="Candidate school *"
          name="school_code"
          defaultValue={value('school_code')}
          error={error('school_code')}
        >
          <Options
            values={options.schools.map((s) => s.code)}
            labels={Object.fromEntries(
              options.schools.map((s) => [
                s.code,
                `${s.code} — ${s.name}${s.status === 'suspended' ? ' (suspended)' : ''}`,
              ]),
            )}
          />
        </SelectField>
        <SelectField
          label="Course header *"
          name="course_header"
          value={courseHeader}
          onChange={(event) => setCourseHeader(event.currentTarget.value)}
          error={error('course_header')}
        >
          <Options
            values={options.course_headers.map((c) => c.code)}
            labels={Object.fromEntries(
              options.course_headers.map((c) => [
                c.code,
                `${c.code} — ${c.title}${c.indexing_status === 'open' ? '' : ' (indexing closed)'}`,
              ]),
            )}
          />
        </SelectField>
        <SelectField
          label="Candidate category *"
          name="candidate_category"
          defaultValue={value('candidate_category')}
          error={error('candidate_category')}
        >
          <Options
            values={CANDIDATE_CATEGORIES.map((c) => c.code)}
            labels={Object.fromEntries(CANDIDATE_CATEGORIES.map((c) => [c.code, c.label]))}
          />
        </SelectField>
      </Fieldset>

      <Fieldset
        legend="Prior certificates"
        hint={
          priorNeeded
            ? 'The first certificate is required.'
            : `Not required for course header ${courseHeader}.`
        }
      >
        {(['', '_2'] as const).map((suffix, index) => (
          <div key={suffix} className="contents">
            <SelectField
              label={`Certificate ${index + 1}${!suffix && priorNeeded ? ' *' : ''}`}
              name={`certificate_evaluated${suffix}`}
              defaultValue={value(`certificate_evaluated${suffix}`)}
              error={error(`certificate_evaluated${suffix}`)}
            >
              <Options values={CERTIFICATES} />
            </SelectField>
            <TextField
              label={`Exam year ${index + 1}${!suffix && priorNeeded ? ' *' : ''}`}
              name={`year_of_certificate_evaluated${suffix}`}
              inputMode="numeric"
              maxLength={4}
              defaultValue={value(`year_of_certificate_evaluated${suffix}`)}
              error={error(`year_of_certificate_evaluated${suffix}`)}
            />
            <TextField
              label={`Exam number ${index + 1}${!suffix && priorNeeded ? ' *' : ''}`}
              name={`exam_number_${index + 1}`}
              defaultValue={value(`exam_number_${index + 1}`)}
              error={error(`exam_number_${index + 1}`)}
            />
            <SelectField
              label={`Exam month ${index + 1}${!suffix && priorNeeded ? ' *' : ''}`}
              name={`exam_month${suffix}`}
              defaultValue={value(`exam_month${suffix}`)}
              error={error(`exam_month${suffix}`)}
            >
              <Options values={EXAM_MONTHS} />
            </SelectField>
          </div>
        ))}
      </Fieldset>

      <Fieldset legend="Subject grades" hint="Leave a subject empty when it was not taken.">
        {SUBJECT_FIELDS.map((subject) => (
          <SelectField
            key={subject}
            label={SUBJECT_LABELS[subject]}
            name={subject}
            defaultValue={value(subject)}
            error={error(subject)}
          >
            <Options values={GRADES} />
          </SelectField>
        ))}
      </Fieldset>

      <Fieldset
        legend="Uploads"
        hint="Images (JPEG, PNG, WebP) or, for certificates, PDF; at most 2 MB each."
      >
        {UPLOAD_FIELDS.map((field) => (
          <UploadInput
            key={field}
            field={field}
            // A stored file satisfies its rule: replacing it is optional.
            required={
              (field === 'photo' || requiredUploadOf(courseHeader) === field) && !record?.uploads[field]
            }
            error={error(field)}
            stored={record?.uploads[field]}
          />
        ))}
      </Fieldset>

      <div className="sticky bottom-0 -mx-4 flex flex-wrap items-center gap-4 border-t border-slate-200 bg-slate-50/95 px-4 py-3 sm:-mx-6 sm:px-6">
        <Button type="submit" busy={view.busy} busyLabel={view.uploading ? 'Uploading…' : 'Checking…'}>
          {record ? 'Save changes' : 'Index candidate'}
        </Button>
        {view.failed && (
          // The same submission again: the server answers a repeated key with the first result.
          <Button type="button" variant="secondary" onClick={() => form.send({ type: 'candidate.retry' })}>
            Try again
          </Button>
        )}
        {view.uploading && (
          <div className="flex min-w-48 flex-1 items-center gap-2 text-sm text-slate-600">
            <progress max={1} value={view.progress} className="w-full" aria-label="Upload progress" />
            {Math.round(view.progress * 100)}%
          </div>
        )}
        {view.succeeded && record && (
          <p role="status" className="text-sm text-brand-800">
            Changes saved.
          </p>
        )}
      </div>
    </form>
  );
}
