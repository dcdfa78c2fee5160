import { Suspense } from 'react';
import { useLocation } from 'wouter';
import { BOARD_NAME } from '../../../contract/constants';
import { formatDateTime } from '../../../contract/format';
import { PAYMENT_STATUS_LABELS, feesLabel, formatNaira } from '../../../contract/payments';
import { loadPayment } from '../../api/payments';
import { useResource } from '../../app/resource';
import { Alert, Button } from '../../ui/controls';
import { useRole } from '../../app/actors';
import { History } from '../auditTrail/History';
import { CandidateLink } from '../candidates/CandidateLink';
import { QrCode } from '../../ui/QrCode';
import { PaymentTabs } from './paymentsShared';

/** A receipt (printable). */
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

/** The receipt, and for the board the payment's history from the audit trail (not printed). */
function Receipt({ reference }: { reference: string }) {
  const role = useRole() ?? 'school_admin';
  const payment = useResource(`payment-${reference}`, () => loadPayment(role, reference));
  return (
    <>
      <ReceiptBody reference={reference} />
      {role === 'admin' && (
        <div className="mx-auto max-w-2xl print:hidden">
          <History entity="payment" id={payment.id} />
        </div>
      )}
    </>
  );
}

function ReceiptBody({ reference }: { reference: string }) {
  const role = useRole() ?? 'school_admin';
  const payment = useResource(`payment-${reference}`, () => loadPayment(role, reference));
  if (payment.status !== 'paid') {
    return (
      <Alert tone="info">
        This payment is {PAYMENT_STATUS_LABELS[payment.status].toLowerCase()}: there is no receipt for it.
      </Alert>
    );
  }
  // The provider's fees were added to what the payer was charged (an account that passes them on).
  const passedOn = payment.charged_kobo !== null && payment.charged_kobo > payment.amount_kobo;
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
          <p className="text-sm text-slate-600">{BOARD_NAME}</p>
        </div>
        <Button variant="secondary" className="print:hidden" onClick={() => window.print()}>
          Print
        </Button>
      </header>
      {payment.notice && (
        <p
          data-testid="receipt-notice"
          className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-semibold text-amber-900"
        >
          {payment.notice}
        </p>
      )}
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
        {payment.fees_kobo !== null && (
          <>
            <dt className="text-slate-600">Provider&apos;s charges</dt>
            <dd data-testid="receipt-fees">
              {formatNaira(payment.fees_kobo)} ({feesLabel(passedOn)})
            </dd>
          </>
        )}
        {passedOn && (
          <>
            <dt className="text-slate-600">Total charged</dt>
            <dd data-testid="receipt-charged">{formatNaira(payment.charged_kobo!)}</dd>
          </>
        )}
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
          {/* Its own frame scrolls sideways on a narrow phone; the columns keep a gap between them. */}
          <div className="mt-2 overflow-x-auto print:overflow-visible">
            <table className="w-full text-left text-sm">
              <thead>
                <tr>
                  <th scope="col" className="py-1 pr-3">
                    Index number
                  </th>
                  <th scope="col" className="py-1 pr-3">
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
                    <td className="py-1 pr-3 font-mono">
                      <CandidateLink id={c.id}>{c.candidate_index}</CandidateLink>
                    </td>
                    <td className="py-1 pr-3">{c.name}</td>
                    <td className="py-1">{c.course_header}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <footer className="mt-4 border-t border-slate-200 pt-3">
        <QrCode verification={payment.verification} />
      </footer>
    </article>
  );
}
