import { useSelector } from '@xstate/react';
import { formatDateTime } from '../../../contract/format';
import { PAYMENT_ISSUES_LIST } from '../../../contract/lists';
import { PAYMENT_ISSUE_KINDS, PAYMENT_ISSUE_LABELS, type PaymentIssueRow } from '../../../contract/payments';
import { resolveIssue } from '../../api/payments';
import { Button, SelectField, TextAreaField, TextField } from '../../ui/controls';
import { ListTable, ListView, SearchForm } from '../../ui/ListView';
import { PageFormDialog, useDialogSubject } from '../../ui/PageFormDialog';
import { useList, useListDialog } from '../pagedList';
import { PaymentTabs } from './paymentsShared';

/** The reconciliation queue (admin). */
export function ReconciliationPage() {
  const list = useList(PAYMENT_ISSUES_LIST);
  const filters = useSelector(list, (s) => s.context.query.filters);
  const dialog = useListDialog(list, resolveIssue, 'Marked as resolved.');
  const issue = useDialogSubject<PaymentIssueRow>(dialog);
  return (
    <section>
      <PaymentTabs current="reconciliation" />
      <h1 className="text-2xl font-semibold">Reconciliation</h1>
      <p className="mt-1 text-slate-600">
        Payments that need a person: resolve each with a note saying what was done.
      </p>
      <SearchForm
        className="my-4 flex flex-wrap items-end gap-3"
        onSearch={(next) => list.send({ type: 'list.filter', filters: next })}
      >
        <div className="w-56 max-w-full">
          <TextField label="Reference" name="search" type="search" defaultValue={filters.search ?? ''} />
        </div>
        <div className="w-36">
          <SelectField label="State" name="state" defaultValue={filters.state ?? ''}>
            <option value="">Open and resolved</option>
            <option value="open">Open</option>
            <option value="resolved">Resolved</option>
          </SelectField>
        </div>
        <div className="w-48">
          <SelectField label="Kind" name="kind" defaultValue={filters.kind ?? ''}>
            <option value="">Any kind</option>
            {PAYMENT_ISSUE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {PAYMENT_ISSUE_LABELS[kind]}
              </option>
            ))}
          </SelectField>
        </div>
      </SearchForm>
      <ListView<PaymentIssueRow> list={list} definition={PAYMENT_ISSUES_LIST}>
        {(page, busy) => (
          <ListTable
            head={['Opened', 'Kind', 'Reference', 'School', 'Detail', 'Resolution', 'Actions']}
            busy={busy}
            empty="Nothing needs a person."
            isEmpty={page.items.length === 0}
          >
            {page.items.map((row) => (
              <tr key={row.id} data-testid={`issue-${row.id}`}>
                <td className="px-4 py-2 whitespace-nowrap">{formatDateTime(row.created_at)}</td>
                <th scope="row" className="px-4 py-2 text-left font-medium">
                  {PAYMENT_ISSUE_LABELS[row.kind]}
                </th>
                <td className="px-4 py-2 font-mono text-xs">{row.transaction_ref}</td>
                <td className="px-4 py-2 font-mono">{row.school?.code ?? '—'}</td>
                <td className="px-4 py-2 text-sm">{row.detail}</td>
                <td className="px-4 py-2 text-sm">
                  {row.resolved_at
                    ? `${row.resolution} (${row.resolved_by}, ${formatDateTime(row.resolved_at)})`
                    : 'Open'}
                </td>
                <td className="px-4 py-2">
                  {!row.resolved_at && (
                    <Button
                      variant="link"
                      aria-label={`Resolve ${row.transaction_ref}`}
                      onClick={() => dialog.send({ type: 'form.open', subject: row })}
                    >
                      Resolve
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </ListTable>
        )}
      </ListView>
      <PageFormDialog
        actor={dialog}
        title="Resolve"
        submitLabel="Mark as resolved"
        busyLabel="Saving…"
        closeLabel="Cancel"
      >
        {(error) => (
          <>
            {issue && (
              <>
                <input type="hidden" name="id" value={issue.id} />
                <p className="text-sm">
                  {PAYMENT_ISSUE_LABELS[issue.kind]}: {issue.detail}
                </p>
              </>
            )}
            <TextAreaField label="What was done" name="note" error={error('note')} rows={3} />
          </>
        )}
      </PageFormDialog>
    </section>
  );
}
