import { ADMIN, PUBLIC, SCHOOL_ADMIN, endpoint, shape } from './endpoint';
import { FEES_LIST, PAYMENT_HISTORY_LISTS, PAYMENT_ISSUES_LIST } from './lists';
import type {
  FeeRow,
  PayableFees,
  PaymentDetail,
  PaymentIssueRow,
  PaymentQuote,
  PaymentStart,
  ProviderHealth,
  UnpaidCandidate,
} from './payments';
import {
  feeStatusValidator,
  feeValidator,
  issueResolutionValidator,
  paymentChoiceValidator,
} from './payments.validators';

/**
 * Everything the browser may ask of fees and payments: the board's fees, histories and reconciliation
 * queue, a school's payable fees, quote and payment, both roles' receipt and verify, and the provider's
 * webhook. The sandbox provider's own pages (server/payments/sandbox.ts, under /sandbox-paystack) are
 * the provider's, not the portal's API, so they are not here.
 */
export const PAYMENT_ENDPOINTS = {
  fees: FEES_LIST,
  histories: PAYMENT_HISTORY_LISTS,
  issues: PAYMENT_ISSUES_LIST,

  createFee: endpoint({
    method: 'POST',
    path: '/api/admin/fees',
    roles: ADMIN,
    summary: 'Add a fee',
    input: { in: 'json', validator: feeValidator },
    answer: shape<FeeRow>(),
  }),
  updateFee: endpoint({
    method: 'POST',
    path: '/api/admin/fees/:id',
    roles: ADMIN,
    summary: 'Edit a fee (its amount only while nobody has paid it)',
    input: { in: 'json', validator: feeValidator },
    answer: shape<FeeRow>(),
  }),
  feeStatus: endpoint({
    method: 'POST',
    path: '/api/admin/fees/:id/status',
    roles: ADMIN,
    summary: 'Turn a fee on or off',
    input: { in: 'json', validator: feeStatusValidator },
    answer: shape<FeeRow>(),
  }),
  deleteFee: endpoint({
    method: 'POST',
    path: '/api/admin/fees/:id/delete',
    roles: ADMIN,
    summary: 'Delete a fee nobody has paid',
    answer: shape<void>(),
  }),

  payableFees: endpoint({
    method: 'GET',
    path: '/api/training-school-admin/fees',
    roles: SCHOOL_ADMIN,
    summary: "The school's payable fees, with what each still owes, and the payment provider",
    answer: shape<PayableFees>(),
  }),
  unpaid: endpoint({
    method: 'GET',
    path: '/api/training-school-admin/fees/:id/unpaid-candidates',
    roles: SCHOOL_ADMIN,
    summary: "The school's candidates a fee covers who have not paid it",
    answer: shape<UnpaidCandidate[]>(),
  }),
  quote: endpoint({
    method: 'POST',
    path: '/api/training-school-admin/payments/quote',
    roles: SCHOOL_ADMIN,
    summary: 'What paying a fee for these candidates would cost',
    input: { in: 'json', validator: paymentChoiceValidator },
    answer: shape<PaymentQuote>(),
  }),
  start: endpoint({
    method: 'POST',
    path: '/api/training-school-admin/payments',
    roles: SCHOOL_ADMIN,
    summary: "Start a payment: its reference and the provider popup's access code",
    input: { in: 'json', validator: paymentChoiceValidator },
    answer: shape<PaymentStart>(),
  }),

  payment: {
    admin: endpoint({
      method: 'GET',
      path: '/api/admin/payments/:reference',
      roles: ADMIN,
      summary: 'One payment and what it covers (the receipt)',
      answer: shape<PaymentDetail>(),
    }),
    school_admin: endpoint({
      method: 'GET',
      path: '/api/training-school-admin/payments/:reference',
      roles: SCHOOL_ADMIN,
      summary: "One of the school's payments and what it covers (the receipt)",
      answer: shape<PaymentDetail>(),
    }),
  },
  verify: {
    admin: endpoint({
      method: 'POST',
      path: '/api/admin/payments/:reference/verify',
      roles: ADMIN,
      summary: 'Ask the provider about any payment and settle it (verify by hand)',
      answer: shape<PaymentDetail>(),
    }),
    school_admin: endpoint({
      method: 'POST',
      path: '/api/training-school-admin/payments/:reference/verify',
      roles: SCHOOL_ADMIN,
      summary: "Ask the provider about one of the school's payments and settle it",
      answer: shape<PaymentDetail>(),
    }),
  },

  providerHealth: endpoint({
    method: 'GET',
    path: '/api/admin/payment-provider',
    roles: ADMIN,
    summary: 'Whether the payment provider is failing now, why and since when',
    answer: shape<ProviderHealth>(),
  }),
  resolveIssue: endpoint({
    method: 'POST',
    path: '/api/admin/payment-issues/:id/resolve',
    roles: ADMIN,
    summary: 'Resolve an item of the reconciliation queue, with a note',
    input: { in: 'json', validator: issueResolutionValidator },
    answer: shape<PaymentIssueRow>(),
  }),

  // No input: the body is the provider's signed event, believed only when its `x-paystack-signature`
  // is the HMAC of the raw body, so the handler reads the raw text itself.
  webhook: endpoint({
    method: 'POST',
    path: '/api/paystack/webhook',
    roles: PUBLIC,
    summary: "The provider's webhook: its signed event, checked by its signature, queues a settle",
    answer: shape<void>(),
  }),
} as const;
