import { useSelector } from '@xstate/react';
import { useLiveActorRef } from '../../app/useLiveActorRef';
import { Suspense, useState } from 'react';
import { Link, useLocation } from 'wouter';
import {
  PAYMENT_STATUS_LABELS,
  formatNaira,
  receiptPage,
  type PayableFee,
  type PaymentProviderInfo,
} from '../../../contract/payments';
import { paymentMachine } from '../../../machines/payment.machine';
import {
  loadPayableFees,
  loadProviderScript,
  loadUnpaid,
  openPopup,
  quotePayment,
  startPayment,
  verifyPayment,
} from '../../api/payments';
import { useNotify } from '../../app/notify';
import { useResource } from '../../app/resource';
import { Alert, Button } from '../../ui/controls';
import { SuspendedSchoolNotice } from '../../ui/SuspendedSchoolNotice';
import { money, PaymentTabs } from './paymentsShared';

/** Payments, a school's tab: paying for a fee (the payment machine drives the flow; this view renders its states). */
export function PayPage() {
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

/** The states after the amount is confirmed, each with its sentence (the view asks `matches`, never the value). */
const OUTCOMES = [
  'paying',
  'verifying',
  'popupFailed',
  'verifyFailed',
  'pending',
  'paid',
  'failed',
  'cancelled',
  'review',
] as const;
type Outcome = (typeof OUTCOMES)[number];

function PayFee({ fee, provider }: { fee: PayableFee; provider: PaymentProviderInfo }) {
  const [, navigate] = useLocation();
  const payment = useLiveActorRef(
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
    choosing: s.hasTag('choosing'),
    confirming: s.hasTag('confirming'),
    outcome: OUTCOMES.find((name) => s.matches(name)) ?? null,
    canRetry: s.can({ type: 'payment.retry' }),
    settled: s.hasTag('settled'),
    busy: s.hasTag('busy'),
    quote: s.context.quote,
    error: s.context.error,
    paid: s.context.payment,
    reference: s.context.reference,
    canResume: s.can({ type: 'payment.resume' }),
  }));

  if (view.choosing) {
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

  if (view.confirming) {
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
          {view.canRetry ? (
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
  const outcome: Record<Outcome, { title: string; tone: 'info' | 'error' }> = {
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
  const shown = view.outcome ? outcome[view.outcome] : { title: '', tone: 'info' as const };
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
        {view.canRetry && (
          <Button variant="secondary" onClick={() => payment.send({ type: 'payment.retry' })}>
            Check now
          </Button>
        )}
        {view.settled && (
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
  // Those a payment in progress holds cannot be ticked: the server refuses them until it ends.
  const free = unpaid.filter((c) => !c.in_payment).length;
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
              <label className="flex flex-wrap items-center gap-2 text-sm">
                <input type="checkbox" name="candidate" value={c.id} disabled={!!c.in_payment} />
                <span className="font-mono">{c.candidate_index}</span> {c.name} ({c.course_header})
                {c.in_payment && (
                  <span className="text-slate-600">
                    · in payment <span className="font-mono break-all">{c.in_payment.reference}</span> (
                    {PAYMENT_STATUS_LABELS[c.in_payment.status].toLowerCase()})
                  </span>
                )}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button type="submit" busy={busy} busyLabel="Working out the amount…">
          Pay for the ticked candidates
        </Button>
        <Button type="button" variant="secondary" disabled={busy || !free} onClick={() => onChoose(true)}>
          Pay for all {free} unpaid{free < unpaid.length ? ' not in a payment' : ''}
        </Button>
      </div>
    </form>
  );
}
