/**
 * Fees and payments (spec sections 2-4: Fee has id and status, and is added, edited and deleted; a
 * payment history has its transaction_ref and is added, or replaced after verification; a reference is
 * held while paying, and a flag records whether the provider's script has loaded). What the spec does
 * not show is in docs/decisions.md "Payments": the kinds of fee, amounts in kobo, the payment's states,
 * the provider (Paystack, or the portal's own sandbox), one settle path and the reconciliation queue.
 */

import { DIET_MESSAGES } from './diets';
import type { Verification } from './documents';

export const FEE_KINDS = ['indexing', 'registration', 'late_registration', 'resit', 'other'] as const;
export type FeeKind = (typeof FEE_KINDS)[number];
export const FEE_KIND_LABELS: Record<FeeKind, string> = {
  indexing: 'Indexing',
  registration: 'Registration',
  late_registration: 'Late registration',
  resit: 'Resit',
  other: 'Other',
};

/** Who a fee is charged for: each candidate it covers, or the school once. */
export const FEE_BASES = ['candidate', 'school'] as const;
export type FeeBasis = (typeof FEE_BASES)[number];
export const FEE_BASIS_LABELS: Record<FeeBasis, string> = {
  candidate: 'Per candidate',
  school: 'Per school',
};

export const FEE_STATUSES = ['active', 'inactive'] as const;
export type FeeStatus = (typeof FEE_STATUSES)[number];

/** The largest fee the form takes, in naira (a guard against a slipped key, not a policy). */
const FEE_AMOUNT_MAX_NAIRA = 5_000_000;
export const FEE_TITLE_MAX = 120;
/** Candidates one payment may cover: a school's whole registered list fits. */
export const PAYMENT_MAX_CANDIDATES = 2000;
export const PAYMENT_CURRENCY = 'NGN';
/** How long a pending payment is asked about again before a person looks at it. */
export const PAYMENT_PENDING_HOURS = 72;
export const PAYMENT_REFERENCE_PATTERN = /^[A-Za-z0-9.=-]{6,100}$/;

/**
 * A payment's life on our side: `initialised` (the provider holds a transaction, nobody has paid yet),
 * `pending` (the provider is still waiting for the money: a transfer), `paid` (credited; final),
 * `failed` (declined), `abandoned` (left before paying), `review` (the provider took money that does not
 * match the order: the reconciliation queue decides). A failed or abandoned payment may still be paid
 * afterwards in the same transaction (Paystack lets the payer try again), so only `paid` is final.
 */
export const PAYMENT_STATUSES = ['initialised', 'pending', 'paid', 'failed', 'abandoned', 'review'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/**
 * The states in which a payment holds its candidates (or its school) for its fee: started, pending, or
 * paid. While one does, no other payment for the same candidate and fee can start; a failed, abandoned
 * or under-review payment lets them go (server/payments/settle.ts).
 */
export const PAYMENT_LIVE_STATUSES = [
  'initialised',
  'pending',
  'paid',
] as const satisfies readonly PaymentStatus[];
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  initialised: 'Started',
  pending: 'Pending',
  paid: 'Paid',
  failed: 'Failed',
  abandoned: 'Abandoned',
  review: 'Needs review',
};

/** What lands in the reconciliation queue: what needs a person. */
export const PAYMENT_ISSUE_KINDS = [
  'amount_mismatch',
  'unknown_reference',
  'duplicate',
  'reversed',
  'stale_pending',
] as const;
export type PaymentIssueKind = (typeof PAYMENT_ISSUE_KINDS)[number];
export const PAYMENT_ISSUE_LABELS: Record<PaymentIssueKind, string> = {
  amount_mismatch: 'Amount mismatch',
  unknown_reference: 'Unknown reference',
  duplicate: 'Duplicate payment',
  reversed: 'Reversed after credit',
  stale_pending: `Pending past ${PAYMENT_PENDING_HOURS} hours`,
};
export const PAYMENT_ISSUE_STATES = ['open', 'resolved'] as const;
export const ISSUE_NOTE_MAX = 1000;

const NAIRA = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' });
/** '₦15,000.00' from 1500000 kobo. */
export const formatNaira = (kobo: number) => NAIRA.format(kobo / 100);

export interface FeeRow {
  id: number;
  title: string;
  kind: FeeKind;
  amount_kobo: number;
  basis: FeeBasis;
  status: FeeStatus;
  diet: { id: number; code: string; name: string };
  /** The course headers it applies to; empty: every course header. */
  course_headers: { id: number; code: string }[];
  /** Payments credited against it: while any, it cannot be deleted nor its amount changed. */
  paid_payments: number;
  created_at: string;
}

/** A fee as a school sees it on its Payments page, with what it still owes. */
export interface PayableFee extends FeeRow {
  /** Per candidate: its registered candidates this fee covers that are not paid for yet. Per school: 0 or 1. */
  unpaid: number;
  paid: number;
}

export interface PaymentProviderInfo {
  name: 'paystack' | 'sandbox';
  /** The provider's inline script (PaystackPop). */
  script_url: string;
}

export interface PayableFees {
  fees: PayableFee[];
  provider: PaymentProviderInfo;
}

export interface UnpaidCandidate {
  id: number;
  candidate_index: string | null;
  name: string;
  course_header: string;
  /** The payment in progress that holds them for this fee (another cannot start), or null. */
  in_payment?: { reference: string; status: PaymentStatus } | null;
}

/** What a school is asked to pay before it pays: the server's sum, never the browser's. */
export interface PaymentQuote {
  fee: { id: number; title: string; basis: FeeBasis };
  amount_kobo: number;
  candidates: UnpaidCandidate[];
}

/** What starting a payment answers: the reference the payment machine holds, and the popup's code. */
export interface PaymentStart {
  reference: string;
  access_code: string;
  amount_kobo: number;
}

export interface PaymentRow {
  id: number;
  /** The spec's transaction_ref. */
  transaction_ref: string;
  status: PaymentStatus;
  amount_kobo: number;
  fee: { id: number; title: string; kind: FeeKind };
  diet: { code: string };
  school: { id: number; code: string; name: string };
  candidates: number;
  receipt_number: string | null;
  paid_at: string | null;
  /** What the provider last said (its gateway response), for a failed or pending payment. */
  gateway_response: string | null;
  provider: 'paystack' | 'sandbox';
  created_at: string;
}

/** One payment with what it covers: the receipt. */
export interface PaymentDetail extends PaymentRow {
  /**
   * What the provider charged the payer (Paystack's `amount`): the order (`amount_kobo`), plus the
   * provider's fees when the board's account passes them on to the payer. Null until it has said.
   */
  charged_kobo: number | null;
  /** The provider's fees for this payment (Paystack's `fees`), or null when it has not said. */
  fees_kobo: number | null;
  covered: UnpaidCandidate[];
  paid_by: string | null;
  channel: string | null;
  /** Whether the portal's sandbox took it (no Paystack keys): simulated, no money moved. */
  simulated: boolean;
  /** What the receipt says of it: SANDBOX_NOTICE for a simulated payment, else null. */
  notice: string | null;
  /**
   * The receipt's code and QR code: /verify/<code> says whether what it certifies (reference, school,
   * amount, status, candidates, date paid) still holds (server/documents/receipts.ts).
   */
  verification: Verification;
}

/** What a receipt says of the provider's fees: who bore them. */
export const feesLabel = (passedOn: boolean) =>
  passedOn ? 'added to the payment by the provider' : 'borne by the board';

/** What every receipt, the sandbox's checkout and the start banner say when no Paystack keys are set. */
export const SANDBOX_NOTICE = 'Sandbox: payments are simulated and no money moves.';

export interface PaymentIssueRow {
  id: number;
  kind: PaymentIssueKind;
  transaction_ref: string;
  payment_id: number | null;
  school: { code: string } | null;
  detail: string;
  created_at: string;
  resolved_at: string | null;
  resolved_by: string | null;
  resolution: string | null;
}

/** The page a receipt is printed from. */
export const receiptPage = (reference: string) => `/payments/receipt/${encodeURIComponent(reference)}`;

/**
 * Why a call to the payment provider failed (server/payments/provider.ts): its key refused (401: revoked
 * or wrong), a rate limit (429), its own failure (5xx), a page that is not its API's JSON (a proxy's or
 * a maintenance page), no answer in time, or no connection at all.
 */
export type ProviderFailureKind =
  'key_refused' | 'rate_limited' | 'server_error' | 'not_json' | 'timeout' | 'unreachable';
export const PROVIDER_FAILURE_LABELS: Record<ProviderFailureKind, string> = {
  key_refused:
    'the provider refuses our secret key, revoked or wrong (set PAYSTACK_SECRET_KEY anew and restart)',
  rate_limited: 'the provider is limiting our requests (429)',
  server_error: 'the provider answers with its own errors (5xx)',
  not_json: 'the provider answers with a page that is not its API (a proxy or maintenance page)',
  timeout: 'the provider does not answer in time',
  unreachable: 'the provider cannot be reached (connection refused or no route)',
};
/** How long the provider may fail before the board is told (a refused key is told at once). */
export const PROVIDER_ALERT_MINUTES = 5;

/** What the board's payments pages show while the provider fails (PAYMENT_ENDPOINTS.providerHealth). */
export interface ProviderHealth {
  provider: 'paystack' | 'sandbox';
  /** Failing now: since when, why, and what it last answered (an HTTP status, or null: no answer). */
  failing: { since: string; kind: ProviderFailureKind; label: string; http_status: number | null } | null;
  /** Whether the board has been told: a refused key, or failing for PROVIDER_ALERT_MINUTES or more. */
  alert: boolean;
}

/**
 * What a school is told when the provider fails, by why and by what it was doing (starting a payment,
 * or checking one): whether to try again now, in a minute, or later.
 */
export const PROVIDER_FAILURE_MESSAGES: Record<'start' | 'verify', Record<ProviderFailureKind, string>> = {
  start: {
    key_refused:
      'Payments cannot be taken at the moment; the board has been told. Nothing was charged: please try again later.',
    rate_limited: 'The payment provider is busy. Nothing was charged: please try again in a minute.',
    server_error:
      'The payment provider is having problems. Nothing was charged: please try again in a few minutes.',
    not_json:
      'The payment provider is having problems. Nothing was charged: please try again in a few minutes.',
    timeout: 'The payment provider took too long to answer. Nothing was charged: please try again now.',
    unreachable:
      'The payment provider could not be reached. Nothing was charged: please try again in a few minutes.',
  },
  verify: {
    key_refused:
      'The payment cannot be checked at the moment; the board has been told. If you paid, it is safe: please try again later.',
    rate_limited: 'The payment provider is busy. If you paid, it is safe: please try again in a minute.',
    server_error:
      'The payment provider is having problems. If you paid, it is safe: please try again in a few minutes.',
    not_json:
      'The payment provider is having problems. If you paid, it is safe: please try again in a few minutes.',
    timeout: 'The payment provider took too long to answer. If you paid, it is safe: please try again now.',
    unreachable:
      'The payment provider could not be reached. If you paid, it is safe: please try again in a few minutes.',
  },
};

/**
 * Paid today or this week, Lagos time (the week from Monday): the payment histories' filter the
 * Dashboard's money links set, counted as the Dashboard counts it.
 */
export const PAID_WHEN = ['today', 'week'] as const;
export type PaidWhen = (typeof PAID_WHEN)[number];
export const PAID_WHEN_LABELS: Record<PaidWhen, string> = { today: 'Paid today', week: 'Paid this week' };

export const PAYMENT_MESSAGES = {
  titleRequired: 'Title is required',
  tooLong: 'This is too long',
  kindInvalid: 'Choose the kind of fee',
  basisInvalid: 'Choose per candidate or per school',
  amountRequired: 'Amount is required',
  amountInvalid: `Enter an amount in naira from 1 to ${FEE_AMOUNT_MAX_NAIRA.toLocaleString('en-NG')}, with at most two decimals`,
  dietRequired: 'Choose the diet',
  dietUnknown: DIET_MESSAGES.dietUnknown,
  courseHeadersInvalid: 'Choose course headers from the list',
  statusInvalid: 'Choose active or inactive',
  statusChoose: 'Choose a status from the list',
  paidWhenChoose: 'Choose today or this week',
  stateChoose: 'Choose from the list',
  feeNotFound: 'There is no such fee.',
  feeCreated: 'Fee added.',
  feeUpdated: 'Fee saved.',
  feeDeleted: 'Fee deleted.',
  feeStatusChanged: (title: string, status: FeeStatus) => `${title} is now ${status}.`,
  /** A paid fee's amount, or its deletion. */
  feePaidLocked:
    'This fee has been paid, so its amount cannot change and it cannot be deleted. Make it inactive and add a new fee instead.',
  feeStartedLocked:
    'Payments have been started for this fee and may still be completed, so it cannot be deleted. Make it inactive instead.',
  feeChoose: 'Choose a fee',
  feeInactive: 'This fee is not being collected now.',
  candidatesRequired: 'Choose the candidates this payment covers',
  candidatesInvalid: 'Choose candidates from your list of unpaid registered candidates',
  tooManyCandidates: `One payment covers at most ${PAYMENT_MAX_CANDIDATES} candidates`,
  nothingToPay: 'There is nothing left to pay for this fee.',
  /** Some chosen candidates were paid for meanwhile (another tab, another admin). */
  alreadyPaid: 'Some of these candidates have been paid for already. Check the list and try again.',
  /** A chosen candidate (or, per school, the school) is in another payment in progress for this fee. */
  inPayment: (who: string, reference: string, status: PaymentStatus) =>
    `${who} is already in payment ${reference} (${PAYMENT_STATUS_LABELS[status].toLowerCase()}); finish or cancel that payment first`,
  inPaymentMeanwhile:
    'Some of these candidates were put in another payment meanwhile. Check the list and try again.',
  schoolInPayment: (reference: string, status: PaymentStatus) =>
    `Your school is already in payment ${reference} (${PAYMENT_STATUS_LABELS[status].toLowerCase()}) for this fee; finish or cancel that payment first`,
  schoolSuspended: 'Your school is suspended, so it cannot pay now. Message the board.',
  started: 'Payment started.',
  notFound: 'There is no payment with this reference.',
  referenceInvalid: 'This is not a payment reference.',
  providerDown: 'The payment provider could not be reached. Nothing was charged; please try again.',
  paid: 'Payment received. Your receipt is ready.',
  pending: 'Your payment is pending with the provider. We will check again and credit it when it arrives.',
  failed: 'The payment was declined. Nothing was credited.',
  abandoned: 'The payment was not completed. Nothing was charged.',
  review: 'The provider reported a different amount. The board will look into it; nothing was credited yet.',
  issueNotFound: 'There is no such item in the reconciliation queue.',
  noteRequired: 'Say how this was resolved',
  issueResolved: 'Marked as resolved.',
  issueAlreadyResolved: 'This was resolved already.',
  webhookRefused: 'Signature refused.',
} as const;

/** What a settled payment's status tells the payer. */
export const SETTLED_MESSAGE: Record<PaymentStatus, string> = {
  initialised: PAYMENT_MESSAGES.abandoned,
  pending: PAYMENT_MESSAGES.pending,
  paid: PAYMENT_MESSAGES.paid,
  failed: PAYMENT_MESSAGES.failed,
  abandoned: PAYMENT_MESSAGES.abandoned,
  review: PAYMENT_MESSAGES.review,
};

/** Naira as typed ('15,000', '15000.5') into kobo; null when it is not an amount the form takes. */
export function nairaToKobo(text: string): number | null {
  const cleaned = text.replace(/[,\s₦]/g, '');
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(cleaned)) return null;
  const [whole, fraction = ''] = cleaned.split('.');
  const kobo = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return kobo >= 100 && kobo <= FEE_AMOUNT_MAX_NAIRA * 100 ? kobo : null;
}

export const koboToNaira = (kobo: number) => (kobo / 100).toFixed(2);
