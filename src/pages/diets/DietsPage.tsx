import { useActorRef, useSelector } from '@xstate/react';
import { Suspense } from 'react';
import { fromPromise } from 'xstate';
import { formatDateTime } from '../../../contract/format';
import { formatPaperDates, toBoardMoment, type DietRow } from '../../../contract/diets';
import { DIETS_LIST } from '../../../contract/lists';
import type { Page } from '../../../contract/pagination';
import { confirmDialogMachine } from '../../../machines/confirmDialog.machine';
import type { ListAction } from '../../../machines/list.machine';
import { dietStep, grantExtension, loadExtensions, saveDiet, withdrawExtension } from '../../api/diets';
import { useFormOptions } from '../../app/formOptions';
import { useResource } from '../../app/resource';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Button, SelectField, TextAreaField, TextField } from '../../ui/controls';
import { DateField } from '../../ui/DateField';
import { ListTable, ListView, SearchForm } from '../../ui/ListView';
import { PageFormDialog, useDialogSubject, type FormDialogRef } from '../../ui/PageFormDialog';
import type { ListRef } from '../../ui/StatusToggle';
import { useList, useListDialog } from '../pagedList';
import { CourseTabs } from '../courses/CourseTabs';

/**
 * Exam diets (admin, /courses/diets): the list; a dialog to create or edit one; making one current for
 * registration and closing one, each asked first; and each diet's extensions for single schools.
 * Every rule is the server's (server/diets/); this page shows what it answers.
 */

type Step = 'current' | 'close';

/** The page's row steps, run by the list machine (`list.act`): it shows the answer and reloads. */
const dietAction = fromPromise<{ message?: string }, ListAction>(async ({ input }) => {
  const { id, school } = input.payload as { id: number; school?: string };
  if (input.action === 'withdraw') return withdrawExtension(id, school!);
  return dietStep(id, input.action as Step);
});

const QUESTION: Record<Step, (row: DietRow) => { title: string; text: string; action: string }> = {
  current: (row) => ({
    title: `Make ${row.code} current?`,
    text: `Registration, the registered lists and the schools' countdown will be for ${row.name}. The diet current now stops being current.`,
    action: 'Make current',
  }),
  close: (row) => ({
    title: `Close ${row.code}?`,
    text: `${row.name} becomes a past diet: nothing more can be registered or entered for it, and it can no longer be edited. It stays readable.`,
    action: 'Close the diet',
  }),
};

export default function DietsPage() {
  const list = useList(DIETS_LIST, { act: dietAction });
  const edit = useListDialog(list, saveDiet, 'Diet saved.');
  const extensions = useListDialog(list, grantExtension, 'The extension is granted.');
  const confirm = useActorRef(confirmDialogMachine);
  const asking = useSelector(confirm, (s) => s.hasTag('open'));
  const pending = useSelector(confirm, (s) => s.context.subject as { row: DietRow; step: Step } | null);
  const search = useSelector(list, (s) => s.context.query.filters.search ?? '');
  const question = pending ? QUESTION[pending.step](pending.row) : null;

  return (
    <section>
      <CourseTabs current="diets" />
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">Exam Diets</h1>
        <Button onClick={() => edit.send({ type: 'form.open', subject: null })}>New diet</Button>
      </div>
      <p className="mt-1 text-slate-600">
        Times are Lagos time. Registration is open for a course header when its switch is open and the current
        diet&apos;s window (or the school&apos;s extension) is open.
      </p>
      <SearchForm
        onSearch={(filters) => list.send({ type: 'list.filter', filters })}
        className="my-4 flex items-end gap-2"
      >
        <div className="flex-1">
          <TextField label="Search by code or name" name="search" type="search" defaultValue={search} />
        </div>
      </SearchForm>
      <ListView<DietRow> list={list} definition={DIETS_LIST}>
        {(data, busy) => (
          <DietTable
            data={data}
            busy={busy}
            list={list}
            onEdit={(row) => edit.send({ type: 'form.open', subject: row })}
            onStep={(row, step) => confirm.send({ type: 'confirm.ask', subject: { row, step } })}
            onExtensions={(row) => extensions.send({ type: 'form.open', subject: row })}
          />
        )}
      </ListView>
      <ConfirmDialog
        open={asking}
        title={question?.title ?? ''}
        confirmLabel={question?.action ?? ''}
        tone={pending?.step === 'close' ? 'danger' : 'primary'}
        onCancel={() => confirm.send({ type: 'confirm.cancel' })}
        onConfirm={() => {
          list.send({ type: 'list.act', action: pending!.step, payload: { id: pending!.row.id } });
          confirm.send({ type: 'confirm.accept' });
        }}
      >
        <p>{question?.text}</p>
      </ConfirmDialog>
      <DietDialog dialog={edit} />
      <ExtensionsDialog
        dialog={extensions}
        onWithdraw={(row, school) => {
          extensions.send({ type: 'form.close' });
          list.send({ type: 'list.act', action: 'withdraw', payload: { id: row.id, school } });
        }}
      />
    </section>
  );
}

const HEAD = ['Code', 'Name', 'Papers', 'Registration window', 'Registered', 'Status', 'Actions'];

function DietTable({
  data,
  busy,
  list,
  onEdit,
  onStep,
  onExtensions,
}: {
  data: Page<DietRow>;
  busy: boolean;
  list: ListRef;
  onEdit: (row: DietRow) => void;
  onStep: (row: DietRow, step: Step) => void;
  onExtensions: (row: DietRow) => void;
}) {
  const canAct = useSelector(list, (s) => !s.hasTag('busy'));
  return (
    <ListTable head={HEAD} busy={busy} empty="No diet matches this search." isEmpty={data.items.length === 0}>
      {data.items.map((row) => {
        const closed = row.closed_at !== null;
        return (
          <tr key={row.id} data-testid={`diet-${row.code}`}>
            <th scope="row" className="px-4 py-2 text-left font-mono font-medium">
              {row.code}
            </th>
            <td className="px-4 py-2">{row.name}</td>
            <td className="px-4 py-2">{formatPaperDates(row)}</td>
            <td className="px-4 py-2">
              {formatDateTime(row.registration_opens_at)} to {formatDateTime(row.registration_closes_at)}
              {row.extensions > 0 && (
                <span className="block text-sm text-slate-600">
                  {row.extensions} school{row.extensions === 1 ? '' : 's'} extended
                </span>
              )}
            </td>
            <td className="px-4 py-2">{row.registered}</td>
            <td className="px-4 py-2">
              {closed ? (
                <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">Closed</span>
              ) : row.current ? (
                <span className="rounded bg-green-100 px-1.5 py-0.5 text-xs text-green-800">Current</span>
              ) : (
                <span className="rounded bg-amber-50 px-1.5 py-0.5 text-xs text-amber-800">Not current</span>
              )}
            </td>
            <td className="px-4 py-2">
              {!closed && (
                <div className="flex flex-wrap gap-2">
                  <Button variant="link" aria-label={`Edit ${row.code}`} onClick={() => onEdit(row)}>
                    Edit
                  </Button>
                  {!row.current && (
                    <Button
                      variant="link"
                      disabled={!canAct}
                      aria-label={`Make ${row.code} current`}
                      onClick={() => onStep(row, 'current')}
                    >
                      Make current
                    </Button>
                  )}
                  <Button
                    variant="link"
                    aria-label={`Extensions for ${row.code}`}
                    onClick={() => onExtensions(row)}
                  >
                    Extensions
                  </Button>
                  <Button
                    variant="link"
                    disabled={!canAct}
                    aria-label={`Close ${row.code}`}
                    onClick={() => onStep(row, 'close')}
                  >
                    Close
                  </Button>
                </div>
              )}
            </td>
          </tr>
        );
      })}
    </ListTable>
  );
}

/** Create (no subject) or edit a diet. Moments are typed in Lagos time. */
function DietDialog({ dialog }: { dialog: FormDialogRef }) {
  const row = useDialogSubject<DietRow>(dialog);
  return (
    <PageFormDialog
      actor={dialog}
      title={row ? `Edit diet ${row.code}` : 'New diet'}
      submitLabel="Save"
      busyLabel="Saving…"
      closeLabel="Cancel"
    >
      {(error) => (
        <>
          {row && <input type="hidden" name="id" value={row.id} />}
          <TextField
            label="Code"
            name="code"
            defaultValue={row?.code}
            autoComplete="off"
            maxLength={20}
            hint="Capitals, digits and dashes, like MAY-2027"
            error={error('code')}
          />
          <TextField
            label="Name"
            name="name"
            defaultValue={row?.name}
            autoComplete="off"
            error={error('name')}
          />
          <div className="grid gap-3 sm:grid-cols-2">
            <DateField
              label="First paper"
              name="first_paper_on"
              defaultValue={row?.first_paper_on}
              error={error('first_paper_on')}
            />
            <DateField
              label="Last paper"
              name="last_paper_on"
              defaultValue={row?.last_paper_on}
              error={error('last_paper_on')}
            />
            <TextField
              label="Registration opens (Lagos time)"
              name="registration_opens_at"
              type="datetime-local"
              defaultValue={row ? toBoardMoment(row.registration_opens_at) : undefined}
              error={error('registration_opens_at')}
            />
            <TextField
              label="Registration closes (Lagos time)"
              name="registration_closes_at"
              type="datetime-local"
              defaultValue={row ? toBoardMoment(row.registration_closes_at) : undefined}
              error={error('registration_closes_at')}
            />
          </div>
        </>
      )}
    </PageFormDialog>
  );
}

/** A diet's extensions (each can be withdrawn) and the form to grant or move one. */
function ExtensionsDialog({
  dialog,
  onWithdraw,
}: {
  dialog: FormDialogRef;
  onWithdraw: (row: DietRow, school: string) => void;
}) {
  const row = useDialogSubject<DietRow>(dialog);
  return (
    <PageFormDialog
      actor={dialog}
      title={row ? `Extensions for ${row.code}` : 'Extensions'}
      submitLabel="Grant extension"
      busyLabel="Granting…"
      closeLabel="Close"
    >
      {(error) =>
        row && (
          <>
            <input type="hidden" name="diet_id" value={row.id} />
            <p className="text-sm text-slate-600">
              Registration for {row.name} closes at {formatDateTime(row.registration_closes_at)} (Lagos time).
              An extension keeps it open for one school, and only that school, until the time given.
            </p>
            <Suspense fallback={<p className="text-sm text-slate-600">Loading…</p>}>
              <ExtensionList row={row} onWithdraw={onWithdraw} />
              <SchoolField error={error('training_school')} />
            </Suspense>
            <TextField label="Until (Lagos time)" name="until" type="datetime-local" error={error('until')} />
            <TextAreaField label="Reason" name="reason" rows={2} maxLength={500} error={error('reason')} />
          </>
        )
      }
    </PageFormDialog>
  );
}

function ExtensionList({
  row,
  onWithdraw,
}: {
  row: DietRow;
  onWithdraw: (row: DietRow, school: string) => void;
}) {
  const extensions = useResource(`diet-extensions:${row.id}`, () => loadExtensions(row.id));
  if (!extensions.length) return <p className="text-sm text-slate-600">No school has an extension.</p>;
  return (
    <ul className="divide-y divide-slate-200 rounded-md ring-1 ring-slate-200">
      {extensions.map((extension) => (
        <li
          key={extension.school.code}
          className="flex flex-wrap items-start justify-between gap-2 p-2 text-sm"
        >
          <span>
            <strong>{extension.school.name}</strong> ({extension.school.code}) until{' '}
            {formatDateTime(extension.until)}
            <span className="block text-slate-600">{extension.reason}</span>
          </span>
          <Button
            variant="link"
            aria-label={`Withdraw the extension of ${extension.school.code}`}
            onClick={() => onWithdraw(row, extension.school.code)}
          >
            Withdraw
          </Button>
        </li>
      ))}
    </ul>
  );
}

function SchoolField({ error }: { error?: string }) {
  const options = useFormOptions();
  return (
    <SelectField label="Training school" name="training_school" defaultValue="" error={error}>
      <option value="">Choose a school</option>
      {options.schools.map((school) => (
        <option key={school.code} value={school.code}>
          {school.name} ({school.code})
        </option>
      ))}
    </SelectField>
  );
}
