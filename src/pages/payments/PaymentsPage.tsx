import { useActorRef, useSelector } from '@xstate/react';
import { Suspense, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { fromPromise } from 'xstate';
import { formatDateTime } from '../../../contract/format';
import { FEES_LIST, PAYMENT_HISTORY_LISTS, PAYMENT_ISSUES_LIST } from '../../../contract/lists';
import type { Page } from '../../../contract/pagination';
import {
  FEE_BASIS_LABELS,
  FEE_BASES,
  FEE_KIND_LABELS,
  FEE_KINDS,
  PAYMENT_ISSUE_KINDS,
  PAYMENT_ISSUE_LABELS,
  PAYMENT_STATUS_LABELS,
  PAYMENT_STATUSES,
  formatNaira,
  koboToNaira,
  receiptPage,
  type FeeRow,
  type PayableFee,
  type PaymentIssueRow,
  type PaymentProviderInfo,
  type PaymentRow,
} from '../../../contract/payments';
import type { Role } from '../../../contract/roles';
import { confirmDialogMachine } from '../../../machines/confirmDialog.machine';
import { formDialogMachine } from '../../../machines/formDialog.machine';
import { paymentMachine } from '../../../machines/payment.machine';
import { statusToggleMachine } from '../../../machines/statusToggle.machine';
import {
  feeActions,
  loadPayableFees,
  loadPayment,
  loadProviderScript,
  loadUnpaid,
  openPopup,
  quotePayment,
  resolveIssue,
  saveFee,
  saveFeeStatus,
  startPayment,
  verifyAction,
  verifyPayment,
} from '../../api/payments';
import { useSession } from '../../app/actors';
import { useNotify } from '../../app/notify';
import { useResource } from '../../app/resource';
import { useFormOptions } from '../../app/formOptions';
import { Alert, Button, SelectField, TextAreaField, TextField } from '../../ui/controls';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ListTable, ListView, SearchForm } from '../../ui/ListView';
import { PageFormDialog, useDialogSubject, type FormDialogRef } from '../../ui/PageFormDialog';
import { PageTabs } from '../../ui/PageTabs';
import { RowStatusToggle, type ListRef } from '../../ui/StatusToggle';
import { SuspendedSchoolNotice } from '../../ui/SuspendedSchoolNotice';
import { DietField } from '../diets/DietField';
import { useList } from '../pagedList';

/**
 * Payments (spec: /payments, admin and school admin). The board: fees (add, edit, status, delete), every
 * school's payment histories, and the reconciliation queue. A school admin: paying for a fee (the
 * payment machine drives the flow; this view only renders its states) and its own payment histories.
 * A receipt prints from its own page.
 */

const useRole = () => useSession((s) => s.context.user?.user_role ?? null) as Role | null;

function PaymentTabs({ current }: { current: 'home' | 'histories' | 'reconciliation' }) {
  const role = useRole();
  const tabs = [
    { href: '/payments', label: role === 'admin' ? 'Fees' : 'Pay', current: current === 'home' },
    { href: '/payments/histories', label: 'Payment histories', current: current === 'histories' },
    ...(role === 'admin'
      ? [{ href: '/payments/reconciliation', label: 'Reconciliation', current: current === 'reconciliation' }]
      : []),
  ];
  return <PageTabs label="Payments" tabs={tabs} />;
}

const money = (kobo: number) => <span className="whitespace-nowrap tabular-nums">{formatNaira(kobo)}</span>;

export default function PaymentsPage() {
  const role = useRole();
  return role === 'admin' ? <FeesPage /> : <PayPage />;
}

// ---------------------------------------------------------------------------------------------------
// The board's fees.

const FEE_STATUS_CHOICES = [
  { value: 'active', label: 'active' },
  { value: 'inactive', label: 'inactive' },
];

function FeesPage() {
  const list = useList(FEES_LIST, {
    act: feeActions,
    row: statusToggleMachine.provide({
      actors: { updateStatus: fromPromise(({ input }) => saveFeeStatus(input)) },
    }),
    rowInput: { field: 'status', confirmValues: ['inactive'] },
  });
  const dialog = useActorRef(
    formDialogMachine.provide({
      actors: {
        submit: fromPromise(async ({ input }) => {
          const saved = await saveFee(input);
          list.send({ type: 'list.refresh' });
          return saved;
        }),
      },
    }),
    { input: { successMessage: 'Fee saved.' } },
  );
  useNotify(dialog);
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

// ---------------------------------------------------------------------------------------------------
// A school pays.

function PayPage() {
  return (
    <section>
      <PaymentTabs current="home" />
      <h1 className="mb-4 text-2xl font-semibold">Payments</h1>
      <SuspendedSchoolNotice />
      <Suspense fallback={<p className="text-slate-500">Loading fees…</p>}>
        <PayableFees />
      </Suspense>
    </section>
  );
}

function PayableFees() {
  const payable = useResource('payable-fees', loadPayableFees);
  const [feeId, setFeeId] = useState<number | null>(null);
  const fee = payable.fees.find((f) => f.id === feeId) ?? null;
  if (!payable.fees.length) {
    return (
      <p className="rounded-md bg-white p-6 text-slate-600 ring-1 ring-slate-200">
        The board is not collecting any fee now.
      </p>
    );
  }
  return (
    <>
      <h2 className="mb-2 font-semibold">Fees to pay</h2>
      <ul className="mb-6 grid gap-3 sm:grid-cols-2">
        {payable.fees.map((f) => (
          <li key={f.id} className="rounded-md bg-white p-4 ring-1 ring-slate-200">
            <p className="font-medium">{f.title}</p>
            <p className="text-sm text-slate-600">
              {money(f.amount_kobo)} {f.basis === 'candidate' ? 'a candidate' : 'for the school'} ·{' '}
              {f.diet.name}
            </p>
            <p className="mt-1 text-sm" data-testid={`unpaid-${f.id}`}>
              {f.basis === 'candidate'
                ? `${f.unpaid} unpaid, ${f.paid} paid`
                : f.unpaid
                  ? 'Not paid yet'
                  : 'Paid'}
            </p>
            <Button
              className="mt-2"
              variant={feeId === f.id ? 'primary' : 'secondary'}
              disabled={f.unpaid === 0}
              aria-pressed={feeId === f.id}
              onClick={() => setFeeId(f.id)}
            >
              {f.unpaid === 0 ? 'Nothing to pay' : `Pay ${f.title}`}
            </Button>
          </li>
        ))}
      </ul>
      {fee && <PayFee key={fee.id} fee={fee} provider={payable.provider} />}
    </>
  );
}

function PayFee({ fee, provider }: { fee: PayableFee; provider: PaymentProviderInfo }) {
  const [, navigate] = useLocation();
  const payment = useActorRef(
    paymentMachine.provide({
      actors: {
        quotePayment,
        loadScript: loadProviderScript(provider.script_url),
        startPayment,
        openPopup,
        verifyPayment: verifyPayment('school_admin'),
      },
    }),
  );
  useNotify(payment);
  const view = useSelector(payment, (s) => ({
    state: typeof s.value === 'string' ? s.value : '',
    busy: s.hasTag('busy'),
    quote: s.context.quote,
    error: s.context.error,
    paid: s.context.payment,
    reference: s.context.reference,
    canResume: s.can({ type: 'payment.resume' }),
  }));

  if (view.state === 'choosing' || view.state === 'quoting') {
    const choose = (all: boolean, form?: HTMLFormElement) => {
      const ids = form ? new FormData(form).getAll('candidate').map(Number) : [];
      payment.send({
        type: 'payment.quote',
        choice: all ? { fee_id: fee.id, all: true } : { fee_id: fee.id, candidate_ids: ids },
      });
    };
    return (
      <div className="rounded-md bg-white p-4 ring-1 ring-slate-200">
        <h2 className="font-semibold">{fee.title}</h2>
        {view.error && (
          <Alert tone="error">{view.error.fields.candidate_ids?.[0] ?? view.error.message}</Alert>
        )}
        {fee.basis === 'school' ? (
          <Button
            className="mt-3"
            busy={view.busy}
            busyLabel="Working out the amount…"
            onClick={() => choose(true)}
          >
            See what to pay
          </Button>
        ) : (
          <Suspense fallback={<p className="text-slate-500">Loading your unpaid candidates…</p>}>
            <CandidatePicker fee={fee} busy={view.busy} onChoose={choose} />
          </Suspense>
        )}
      </div>
    );
  }

  if (
    view.state === 'confirming' ||
    view.state === 'loadingScript' ||
    view.state === 'initialising' ||
    view.state === 'scriptFailed'
  ) {
    const quote = view.quote!;
    return (
      <div className="rounded-md bg-white p-4 ring-1 ring-slate-200" aria-live="polite">
        <h2 className="font-semibold">Confirm your payment</h2>
        {view.error && <Alert tone="error">{view.error.message}</Alert>}
        <p className="mt-2 text-lg">
          You will pay <strong data-testid="quote-amount">{formatNaira(quote.amount_kobo)}</strong> for{' '}
          {quote.fee.title}
          {quote.candidates.length
            ? ` (${quote.candidates.length} candidate${quote.candidates.length === 1 ? '' : 's'})`
            : ''}
          .
        </p>
        {quote.candidates.length > 0 && (
          <details className="mt-2 text-sm">
            <summary>Candidates covered</summary>
            <ul className="mt-1 list-disc pl-5">
              {quote.candidates.map((c) => (
                <li key={c.id}>
                  {c.candidate_index} {c.name}
                </li>
              ))}
            </ul>
          </details>
        )}
        <div className="mt-4 flex flex-wrap gap-2">
          {view.state === 'scriptFailed' ? (
            <Button onClick={() => payment.send({ type: 'payment.retry' })}>Try again</Button>
          ) : (
            <Button
              busy={view.busy}
              busyLabel="Opening the payment page…"
              onClick={() => payment.send({ type: 'payment.confirm' })}
            >
              Pay {formatNaira(quote.amount_kobo)}
            </Button>
          )}
          <Button
            variant="secondary"
            disabled={view.busy}
            onClick={() => payment.send({ type: 'payment.back' })}
          >
            Back
          </Button>
        </div>
      </div>
    );
  }

  const detail = view.paid;
  const outcome: Record<string, { title: string; tone: 'info' | 'error' }> = {
    paying: { title: 'Complete the payment in the payment window.', tone: 'info' },
    verifying: { title: 'Checking your payment with the provider…', tone: 'info' },
    popupFailed: { title: view.error?.message ?? 'The payment window could not be opened.', tone: 'error' },
    verifyFailed: {
      title: `We could not check your payment: ${view.error?.message ?? ''} It is safe: nothing is charged twice, and we check again in a few seconds.`,
      tone: 'error',
    },
    pending: {
      title:
        'Your payment is pending with the provider. We check again every 30 seconds; you may leave this page.',
      tone: 'info',
    },
    paid: { title: 'Payment received.', tone: 'info' },
    failed: { title: 'The payment was declined. Nothing was credited.', tone: 'error' },
    cancelled: { title: 'The payment was not completed. Nothing was charged.', tone: 'error' },
    review: {
      title:
        'The provider reported a different amount. The board will look into it; nothing was credited yet.',
      tone: 'error',
    },
  };
  const shown = outcome[view.state] ?? { title: '', tone: 'info' as const };
  return (
    <div
      className="rounded-md bg-white p-4 ring-1 ring-slate-200"
      aria-live="polite"
      data-testid="payment-outcome"
    >
      <h2 className="font-semibold">{shown.title}</h2>
      {view.reference && (
        <p className="mt-1 text-sm text-slate-600">
          Reference: <span className="font-mono">{view.reference}</span>
        </p>
      )}
      {detail?.receipt_number && (
        <p className="mt-2">
          Receipt <strong>{detail.receipt_number}</strong> for {formatNaira(detail.amount_kobo)}.{' '}
          <Link href={receiptPage(detail.transaction_ref)} className="text-brand-700 underline">
            View and print the receipt
          </Link>
        </p>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        {view.canResume && (
          <Button onClick={() => payment.send({ type: 'payment.resume' })}>Try the payment again</Button>
        )}
        {(view.state === 'verifyFailed' || view.state === 'popupFailed' || view.state === 'pending') && (
          <Button variant="secondary" onClick={() => payment.send({ type: 'payment.retry' })}>
            Check now
          </Button>
        )}
        {['paid', 'failed', 'cancelled', 'review', 'pending'].includes(view.state) && (
          <Button
            variant="secondary"
            onClick={() => {
              payment.send({ type: 'payment.done' });
              navigate('/payments/histories');
            }}
          >
            See payment histories
          </Button>
        )}
      </div>
    </div>
  );
}

function CandidatePicker({
  fee,
  busy,
  onChoose,
}: {
  fee: PayableFee;
  busy: boolean;
  onChoose: (all: boolean, form?: HTMLFormElement) => void;
}) {
  const unpaid = useResource(`unpaid-${fee.id}`, () => loadUnpaid(fee.id));
  if (!unpaid.length)
    return <p className="mt-2 text-slate-600">Every candidate this fee covers is paid for.</p>;
  return (
    <form
      className="mt-2"
      onSubmit={(event) => {
        event.preventDefault();
        onChoose(false, event.currentTarget);
      }}
    >
      <fieldset>
        <legend className="text-sm text-slate-700">
          Your unpaid candidates ({unpaid.length}). Tick those this payment covers.
        </legend>
        <ul className="mt-2 max-h-80 overflow-y-auto rounded-md ring-1 ring-slate-200">
          {unpaid.map((c) => (
            <li key={c.id} className="border-b border-slate-100 px-3 py-2 last:border-0">
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="candidate" value={c.id} />
                <span className="font-mono">{c.candidate_index}</span> {c.name} ({c.course_header})
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button type="submit" busy={busy} busyLabel="Working out the amount…">
          Pay for the ticked candidates
        </Button>
        <Button type="button" variant="secondary" disabled={busy} onClick={() => onChoose(true)}>
          Pay for all {unpaid.length} unpaid
        </Button>
      </div>
    </form>
  );
}

// ---------------------------------------------------------------------------------------------------
// Payment histories (both roles).

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

// ---------------------------------------------------------------------------------------------------
// The reconciliation queue (admin).

export function ReconciliationPage() {
  const list = useList(PAYMENT_ISSUES_LIST);
  const filters = useSelector(list, (s) => s.context.query.filters);
  const dialog = useActorRef(
    formDialogMachine.provide({
      actors: {
        submit: fromPromise(async ({ input }) => {
          const saved = await resolveIssue(input);
          list.send({ type: 'list.refresh' });
          return saved;
        }),
      },
    }),
    { input: { successMessage: 'Marked as resolved.' } },
  );
  useNotify(dialog);
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

// ---------------------------------------------------------------------------------------------------
// A receipt (printable).

export function ReceiptPage() {
  const [location] = useLocation();
  const reference = decodeURIComponent(location.split('/')[3] ?? '');
  if (!reference) {
    return (
      <section>
        <PaymentTabs current="histories" />
        <h1 className="text-2xl font-semibold">Receipt</h1>
        <p className="mt-2 text-slate-600">Choose a paid payment in Payment histories to see its receipt.</p>
      </section>
    );
  }
  return (
    <Suspense fallback={<p className="text-slate-500">Loading the receipt…</p>}>
      <Receipt reference={reference} />
    </Suspense>
  );
}

function Receipt({ reference }: { reference: string }) {
  const role = useRole() ?? 'school_admin';
  const payment = useResource(`payment-${reference}`, () => loadPayment(role, reference));
  if (payment.status !== 'paid') {
    return (
      <Alert tone="info">
        This payment is {PAYMENT_STATUS_LABELS[payment.status].toLowerCase()}: there is no receipt for it.
      </Alert>
    );
  }
  return (
    <article
      className="mx-auto max-w-2xl rounded-md bg-white p-6 ring-1 ring-slate-200 print:ring-0"
      aria-labelledby="receipt-title"
    >
      <header className="flex flex-wrap items-start justify-between gap-2 border-b border-slate-200 pb-3">
        <div>
          <h1 id="receipt-title" className="text-xl font-semibold">
            Receipt {payment.receipt_number}
          </h1>
          <p className="text-sm text-slate-600">Examinations Board · Payments</p>
        </div>
        <Button variant="secondary" className="print:hidden" onClick={() => window.print()}>
          Print
        </Button>
      </header>
      <dl className="mt-4 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">School</dt>
        <dd>
          {payment.school.name} ({payment.school.code})
        </dd>
        <dt className="text-slate-600">Fee</dt>
        <dd>
          {payment.fee.title} · {payment.diet.code}
        </dd>
        <dt className="text-slate-600">Amount</dt>
        <dd className="font-semibold">{formatNaira(payment.amount_kobo)}</dd>
        <dt className="text-slate-600">Paid at</dt>
        <dd>{payment.paid_at ? formatDateTime(payment.paid_at) : ''}</dd>
        <dt className="text-slate-600">Reference</dt>
        <dd className="font-mono break-all">{payment.transaction_ref}</dd>
        {payment.paid_by && (
          <>
            <dt className="text-slate-600">Paid by</dt>
            <dd>{payment.paid_by}</dd>
          </>
        )}
      </dl>
      {payment.covered.length > 0 && (
        <>
          <h2 className="mt-4 font-semibold">Candidates ({payment.covered.length})</h2>
          <table className="mt-2 w-full text-left text-sm">
            <thead>
              <tr>
                <th scope="col" className="py-1">
                  Index number
                </th>
                <th scope="col" className="py-1">
                  Name
                </th>
                <th scope="col" className="py-1">
                  Course
                </th>
              </tr>
            </thead>
            <tbody>
              {payment.covered.map((c) => (
                <tr key={c.id} className="border-t border-slate-100">
                  <td className="py-1 font-mono">{c.candidate_index}</td>
                  <td className="py-1">{c.name}</td>
                  <td className="py-1">{c.course_header}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </article>
  );
}
