import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import { formatDateTime } from '../../../contract/format';
import { PAYMENT_HISTORY_LISTS } from '../../../contract/lists';
import {
  PAID_WHEN,
  PAID_WHEN_LABELS,
  PAYMENT_STATUS_LABELS,
  PAYMENT_STATUSES,
  receiptPage,
  type PaymentRow,
} from '../../../contract/payments';
import { verifyAction } from '../../api/payments';
import { Button, SelectField, TextField } from '../../ui/controls';
import { ListTable, ListView, SearchForm } from '../../ui/ListView';
import { useList } from '../pagedList';
import { useRole } from '../../app/actors';
import { money, PaymentTabs } from './paymentsShared';

/** Payment histories (both roles). */
export function HistoriesPage() {
  const role = useRole() ?? 'school_admin';
  const definition = PAYMENT_HISTORY_LISTS[role];
  // Checking a payment again (a school admin's own; the board's any, by hand) is the list's row action:
  // the server settles it with the provider, the list says the outcome and shows the row as it is now.
  const list = useList(definition, { act: verifyAction(role) });
  const view = useSelector(list, (s) => ({
    filters: s.context.query.filters,
    canAct: s.matches('loaded'),
    acting: s.matches('acting'),
  }));
  const filters = view.filters;
  const verify = (reference: string) =>
    list.send({ type: 'list.act', action: 'verify', payload: { reference } });
  return (
    <section>
      <PaymentTabs current="histories" />
      <h1 className="text-2xl font-semibold">Payment histories</h1>
      {role === 'admin' && (
        <form
          className="mt-3 flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            const reference = String(new FormData(event.currentTarget).get('reference') ?? '').trim();
            if (reference) verify(reference);
          }}
        >
          <div className="w-72 max-w-full">
            <TextField
              label="Verify a reference by hand"
              name="reference"
              id="verify-reference"
              autoComplete="off"
              hint="Asks the provider and settles it, as the webhook would."
            />
          </div>
          <Button
            type="submit"
            variant="secondary"
            busy={view.acting}
            busyLabel="Verifying…"
            disabled={!view.canAct}
          >
            Verify
          </Button>
        </form>
      )}
      <SearchForm
        className="my-4 flex flex-wrap items-end gap-3"
        onSearch={(next) => list.send({ type: 'list.filter', filters: next })}
      >
        <div className="w-56 max-w-full">
          <TextField
            label="Reference or receipt"
            name="search"
            type="search"
            defaultValue={filters.search ?? ''}
          />
        </div>
        <div className="w-40">
          <SelectField label="Status" name="status" defaultValue={filters.status ?? ''}>
            <option value="">Any status</option>
            {PAYMENT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {PAYMENT_STATUS_LABELS[status]}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="w-40">
          <SelectField label="When paid" name="paid" defaultValue={filters.paid ?? ''}>
            <option value="">Any time</option>
            {PAID_WHEN.map((when) => (
              <option key={when} value={when}>
                {PAID_WHEN_LABELS[when]}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="w-32">
          <TextField label="Diet code" name="diet" defaultValue={filters.diet ?? ''} autoComplete="off" />
        </div>
        {role === 'admin' && (
          <div className="w-32">
            <TextField
              label="School code"
              name="school"
              defaultValue={filters.school ?? ''}
              autoComplete="off"
            />
          </div>
        )}
      </SearchForm>
      <ListView<PaymentRow> list={list} definition={definition}>
        {(page, busy) => (
          <ListTable
            head={[
              'Reference',
              'Status',
              'Amount',
              'Fee',
              ...(role === 'admin' ? ['School'] : []),
              'Candidates',
              'Started',
              'Actions',
            ]}
            busy={busy}
            empty="No payment matches."
            isEmpty={page.items.length === 0}
          >
            {page.items.map((row) => (
              <tr key={row.id}>
                <th scope="row" className="px-4 py-2 text-left font-mono text-xs font-medium">
                  {row.transaction_ref}
                  {row.receipt_number && (
                    <span className="block font-sans text-slate-600">Receipt {row.receipt_number}</span>
                  )}
                </th>
                <td className="px-4 py-2">
                  {PAYMENT_STATUS_LABELS[row.status]}
                  {row.gateway_response && row.status !== 'paid' && (
                    <span className="block text-xs text-slate-500">{row.gateway_response}</span>
                  )}
                </td>
                <td className="px-4 py-2">{money(row.amount_kobo)}</td>
                <td className="px-4 py-2">
                  {row.fee.title} <span className="text-xs text-slate-500">({row.diet.code})</span>
                </td>
                {role === 'admin' && <td className="px-4 py-2 font-mono">{row.school.code}</td>}
                <td className="px-4 py-2">{row.candidates || '—'}</td>
                <td className="px-4 py-2 whitespace-nowrap">{formatDateTime(row.created_at)}</td>
                <td className="px-4 py-2 whitespace-nowrap">
                  {row.status === 'paid' ? (
                    <Link href={receiptPage(row.transaction_ref)} className="text-brand-700 underline">
                      Receipt
                    </Link>
                  ) : (
                    <Button
                      variant="link"
                      disabled={!view.canAct}
                      aria-label={`${role === 'admin' ? 'Verify' : 'Check again'} ${row.transaction_ref}`}
                      onClick={() => verify(row.transaction_ref)}
                    >
                      {role === 'admin' ? 'Verify' : 'Check again'}
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </ListTable>
        )}
      </ListView>
    </section>
  );
}
