import { useActorRef, useSelector } from '@xstate/react';
import { Suspense } from 'react';
import { fromPromise } from 'xstate';
import { FEES_LIST } from '../../../contract/lists';
import type { Page } from '../../../contract/pagination';
import {
  FEE_BASIS_LABELS,
  FEE_BASES,
  FEE_KIND_LABELS,
  FEE_KINDS,
  koboToNaira,
  type FeeRow,
} from '../../../contract/payments';
import { confirmDialogMachine } from '../../../machines/confirmDialog.machine';
import { statusToggleMachine } from '../../../machines/statusToggle.machine';
import { feeActions, saveFee, saveFeeStatus } from '../../api/payments';
import { useFormOptions } from '../../app/formOptions';
import { Button, SelectField, TextField } from '../../ui/controls';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ListTable, ListView, SearchForm } from '../../ui/ListView';
import { PageFormDialog, useDialogSubject, type FormDialogRef } from '../../ui/PageFormDialog';
import { RowStatusToggle, type ListRef } from '../../ui/StatusToggle';
import { DietField } from '../diets/DietField';
import { useList, useListDialog } from '../pagedList';
import { money, PaymentTabs } from './paymentsShared';

/** Payments, the board's tab: its fees (add, edit, status, delete). */
const FEE_STATUS_CHOICES = [
  { value: 'active', label: 'active' },
  { value: 'inactive', label: 'inactive' },
];

export function FeesPage() {
  const list = useList(FEES_LIST, {
    act: feeActions,
    row: statusToggleMachine.provide({
      actors: { updateStatus: fromPromise(({ input }) => saveFeeStatus(input)) },
    }),
    rowInput: { field: 'status', confirmValues: ['inactive'] },
  });
  const dialog = useListDialog(list, saveFee, 'Fee saved.');
  const removal = useActorRef(confirmDialogMachine);
  const asking = useSelector(removal, (s) => s.hasTag('open'));
  const doomed = useSelector(removal, (s) => s.context.subject as FeeRow | null);
  const view = useSelector(list, (s) => ({ canAct: s.matches('loaded'), filters: s.context.query.filters }));

  return (
    <section>
      <PaymentTabs current="home" />
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Payments</h1>
          <h2 className="text-lg text-slate-700">Fees</h2>
        </div>
        <Button onClick={() => dialog.send({ type: 'form.open', subject: null })}>Add a fee</Button>
      </div>
      <SearchForm
        className="my-4 flex flex-wrap items-end gap-3"
        onSearch={(filters) => list.send({ type: 'list.filter', filters })}
      >
        <div className="w-56 max-w-full">
          <TextField label="Title" name="search" type="search" defaultValue={view.filters.search ?? ''} />
        </div>
        <div className="w-40">
          {/* Ids of their own: the fee dialog has fields of the same names. */}
          <SelectField label="Kind" name="kind" id="fee-filter-kind" defaultValue={view.filters.kind ?? ''}>
            <option value="">Any kind</option>
            {FEE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {FEE_KIND_LABELS[kind]}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="w-36">
          <SelectField
            label="Status"
            name="status"
            id="fee-filter-status"
            defaultValue={view.filters.status ?? ''}
          >
            <option value="">Any status</option>
            <option value="active">active</option>
            <option value="inactive">inactive</option>
          </SelectField>
        </div>
        <div className="w-36">
          <TextField
            label="Diet code"
            name="diet"
            id="fee-filter-diet"
            defaultValue={view.filters.diet ?? ''}
            autoComplete="off"
          />
        </div>
      </SearchForm>
      <ListView<FeeRow> list={list} definition={FEES_LIST}>
        {(page, busy) => (
          <FeeTable
            page={page}
            busy={busy}
            list={list}
            canAct={view.canAct}
            onEdit={(row) => dialog.send({ type: 'form.open', subject: row })}
            onDelete={(row) => removal.send({ type: 'confirm.ask', subject: row })}
          />
        )}
      </ListView>
      <ConfirmDialog
        open={asking}
        title="Delete this fee?"
        confirmLabel="Delete"
        onCancel={() => removal.send({ type: 'confirm.cancel' })}
        onConfirm={() => {
          list.send({ type: 'list.act', action: 'delete', payload: { id: doomed!.id } });
          removal.send({ type: 'confirm.accept' });
        }}
      >
        {doomed && <p>{doomed.title} will be deleted. Schools will no longer see it.</p>}
      </ConfirmDialog>
      <FeeDialog dialog={dialog} />
    </section>
  );
}

function FeeTable({
  page,
  busy,
  list,
  canAct,
  onEdit,
  onDelete,
}: {
  page: Page<FeeRow>;
  busy: boolean;
  list: ListRef;
  canAct: boolean;
  onEdit: (row: FeeRow) => void;
  onDelete: (row: FeeRow) => void;
}) {
  return (
    <ListTable
      head={['Title', 'Amount', 'Charged', 'Diet', 'Course headers', 'Paid', 'Status', 'Actions']}
      busy={busy}
      empty="No fee matches."
      isEmpty={page.items.length === 0}
    >
      {page.items.map((row) => (
        <tr key={row.id} data-testid={`fee-${row.id}`}>
          <th scope="row" className="px-4 py-2 text-left font-medium">
            {row.title}
            <span className="block text-xs font-normal text-slate-500">{FEE_KIND_LABELS[row.kind]}</span>
          </th>
          <td className="px-4 py-2">{money(row.amount_kobo)}</td>
          <td className="px-4 py-2">{FEE_BASIS_LABELS[row.basis]}</td>
          <td className="px-4 py-2 font-mono">{row.diet.code}</td>
          <td className="px-4 py-2">
            {row.course_headers.length ? row.course_headers.map((h) => h.code).join(', ') : 'All'}
          </td>
          <td className="px-4 py-2">{row.paid_payments}</td>
          <td className="px-4 py-2">
            <RowStatusToggle
              list={list}
              row={row}
              choices={FEE_STATUS_CHOICES}
              label={`Status of ${row.title}`}
              confirm={{
                title: `Stop collecting ${row.title}?`,
                text: 'Schools will no longer be able to pay it.',
                action: 'Make inactive',
              }}
            />
          </td>
          <td className="px-4 py-2 whitespace-nowrap">
            <Button variant="link" aria-label={`Edit ${row.title}`} onClick={() => onEdit(row)}>
              Edit
            </Button>{' '}
            <Button
              variant="link"
              aria-label={`Delete ${row.title}`}
              disabled={!canAct || row.paid_payments > 0}
              title={
                row.paid_payments > 0 ? 'Paid fees cannot be deleted: make it inactive instead.' : undefined
              }
              onClick={() => onDelete(row)}
            >
              Delete
            </Button>
          </td>
        </tr>
      ))}
    </ListTable>
  );
}

function CourseHeaderChoices({ chosen }: { chosen: string[] }) {
  const options = useFormOptions();
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">Course headers (none ticked: all)</legend>
      <div className="mt-1 grid grid-cols-3 gap-1 sm:grid-cols-5">
        {options.course_headers.map((header) => (
          <label key={header.code} className="flex items-center gap-1 text-sm">
            <input
              type="checkbox"
              name="course_headers"
              value={header.code}
              defaultChecked={chosen.includes(header.code)}
            />
            {header.code}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function FeeDialog({ dialog }: { dialog: FormDialogRef }) {
  const row = useDialogSubject<FeeRow>(dialog);
  const locked = !!row && row.paid_payments > 0;
  return (
    <PageFormDialog
      actor={dialog}
      title={row ? `Edit ${row.title}` : 'Add a fee'}
      submitLabel="Save"
      busyLabel="Saving…"
      closeLabel="Cancel"
    >
      {(error) => (
        <>
          {row && <input type="hidden" name="id" value={row.id} />}
          <TextField
            label="Title"
            name="title"
            defaultValue={row?.title}
            autoComplete="off"
            error={error('title')}
          />
          <SelectField
            label="Kind"
            name="kind"
            defaultValue={row?.kind ?? 'registration'}
            error={error('kind')}
          >
            {FEE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {FEE_KIND_LABELS[kind]}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Amount (₦)"
            name="amount"
            inputMode="decimal"
            defaultValue={row ? koboToNaira(row.amount_kobo) : ''}
            autoComplete="off"
            readOnly={locked}
            error={error('amount')}
            hint={
              locked
                ? 'This fee has been paid, so its amount is fixed. Make it inactive and add a new fee to change it.'
                : 'In naira, like 15,000 or 2500.50.'
            }
          />
          <SelectField
            label="Charged"
            name="basis"
            defaultValue={row?.basis ?? 'candidate'}
            error={error('basis')}
          >
            {FEE_BASES.map((basis) => (
              <option key={basis} value={basis}>
                {FEE_BASIS_LABELS[basis]}
              </option>
            ))}
          </SelectField>
          <DietField role="admin" error={error('diet')} value={row?.diet.code} />
          <Suspense fallback={<p className="text-sm text-slate-500">Loading course headers…</p>}>
            <CourseHeaderChoices chosen={row?.course_headers.map((h) => h.code) ?? []} />
          </Suspense>
          {error('course_headers') && <p className="text-sm text-red-700">{error('course_headers')}</p>}
        </>
      )}
    </PageFormDialog>
  );
}
