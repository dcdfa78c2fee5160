import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type {
  FeeBasis,
  FeeKind,
  FeeStatus,
  PaymentIssueKind,
  PaymentStatus,
  ProviderFailureKind,
} from '../../../contract/payments';
import { users } from './auth';
import { candidates } from './candidates';
import { createdAt, updatedAt } from './columns';
import { diets } from './diets';
import { trainingSchools } from './schools';

/**
 * Fees and payments (contract/payments.ts). Money is integer kobo. A payment is one provider transaction
 * (its reference is the spec's transaction_ref) for one fee, covering the items it lists; an item is
 * `credited` only by the settle path (server/payments/settle.ts), and the partial unique indexes make a
 * candidate (or, for a per-school fee, the school) credited once per fee however many payments reach it.
 */
export const fees = pgTable(
  'fees',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    kind: text('kind').$type<FeeKind>().notNull(),
    basis: text('basis').$type<FeeBasis>().notNull(),
    amountKobo: integer('amount_kobo').notNull(),
    dietId: integer('diet_id')
      .notNull()
      .references(() => diets.id),
    /** The course headers it applies to; empty: every one. */
    courseHeaderIds: integer('course_header_ids')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    status: text('status').$type<FeeStatus>().notNull().default('active'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('fees_diet_idx').on(t.dietId, t.status)],
);

/** Receipt numbers are issued from this sequence by the one caller that credits a payment. */
export const paymentReceiptSeq = pgSequence('payment_receipt_seq', { startWith: 1 });

export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    reference: text('reference').notNull(),
    provider: text('provider').$type<'paystack' | 'sandbox'>().notNull(),
    feeId: integer('fee_id')
      .notNull()
      .references(() => fees.id),
    trainingSchoolId: integer('training_school_id')
      .notNull()
      .references(() => trainingSchools.id),
    /** What was ordered, in kobo, and its currency: the provider's verify must say the same to credit. */
    amountKobo: integer('amount_kobo').notNull(),
    currency: text('currency').notNull().default('NGN'),
    status: text('status').$type<PaymentStatus>().notNull(),
    /**
     * The provider's access code (opens its popup). Null until the provider has answered: the payment is
     * recorded before the provider is asked, so a webhook that comes first finds it.
     */
    accessCode: text('access_code'),
    email: text('email').notNull(),
    receiptNumber: text('receipt_number'),
    /** What the provider last reported the payer was charged (the order, plus fees passed on to them). */
    paidAmountKobo: integer('paid_amount_kobo'),
    /** The provider's fees for the transaction (Paystack's `fees`), as it last reported them. */
    feesKobo: integer('fees_kobo'),
    channel: text('channel'),
    gatewayResponse: text('gateway_response'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** The re-query job's schedule: asked again from this moment (null: not any more). */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }),
    checks: integer('checks').notNull().default(0),
    initiatedBy: integer('initiated_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payments_reference_key').on(t.reference),
    uniqueIndex('payments_receipt_key').on(t.receiptNumber),
    index('payments_school_idx').on(t.trainingSchoolId, t.id),
    index('payments_fee_idx').on(t.feeId),
    // The dashboard's money in today and this week.
    index('payments_paid_at_idx')
      .on(t.paidAt)
      .where(sql`${t.status} = 'paid'`),
    index('payments_next_check_idx')
      .on(t.nextCheckAt)
      .where(sql`${t.nextCheckAt} is not null`),
  ],
);

export const paymentItems = pgTable(
  'payment_items',
  {
    id: serial('id').primaryKey(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    feeId: integer('fee_id')
      .notNull()
      .references(() => fees.id),
    trainingSchoolId: integer('training_school_id')
      .notNull()
      .references(() => trainingSchools.id),
    /** Null for a per-school fee. */
    candidateId: integer('candidate_id').references(() => candidates.id),
    amountKobo: integer('amount_kobo').notNull(),
    credited: boolean('credited').notNull().default(false),
    /**
     * Whether this item holds its candidate (or, per school, its school) for its fee: set by the start,
     * cleared by the settle path when its payment fails, is abandoned or goes to review. At most one
     * live item a fee and candidate (the partial unique indexes below), so one payment at a time.
     */
    live: boolean('live').notNull().default(false),
  },
  (t) => [
    index('payment_items_payment_idx').on(t.paymentId),
    uniqueIndex('payment_items_candidate_credit_key')
      .on(t.feeId, t.candidateId)
      .where(sql`${t.credited} and ${t.candidateId} is not null`),
    uniqueIndex('payment_items_school_credit_key')
      .on(t.feeId, t.trainingSchoolId)
      .where(sql`${t.credited} and ${t.candidateId} is null`),
    uniqueIndex('payment_items_candidate_live_key')
      .on(t.feeId, t.candidateId)
      .where(sql`${t.live} and ${t.candidateId} is not null`),
    uniqueIndex('payment_items_school_live_key')
      .on(t.feeId, t.trainingSchoolId)
      .where(sql`${t.live} and ${t.candidateId} is null`),
    index('payment_items_candidate_idx').on(t.candidateId, t.feeId),
  ],
);

/** The reconciliation queue: what needs a person. One open item a reference and kind. */
export const paymentIssues = pgTable(
  'payment_issues',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<PaymentIssueKind>().notNull(),
    reference: text('reference').notNull(),
    paymentId: integer('payment_id').references(() => payments.id),
    detail: text('detail').notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: integer('resolved_by').references(() => users.id),
    resolution: text('resolution'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payment_issues_open_key')
      .on(t.reference, t.kind)
      .where(sql`${t.resolvedAt} is null`),
    index('payment_issues_created_idx').on(t.createdAt),
  ],
);

/**
 * The sandbox provider's own book (server/payments/sandbox/): the transactions it was asked to
 * initialise, as Paystack would hold them. Only the sandbox reads or writes it.
 */
export const sandboxTransactions = pgTable(
  'sandbox_transactions',
  {
    reference: text('reference').primaryKey(),
    accessCode: text('access_code').notNull(),
    amountKobo: integer('amount_kobo').notNull(),
    currency: text('currency').notNull(),
    email: text('email').notNull(),
    /** Paystack's words: abandoned (not paid yet), ongoing (pending), success, failed, reversed. */
    status: text('status').notNull(),
    gatewayResponse: text('gateway_response'),
    metadata: jsonb('metadata'),
    /** Whether the payer is charged Paystack's fees on top (an account that passes them on). */
    passFees: boolean('pass_fees').notNull().default(false),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('sandbox_transactions_access_code_key').on(t.accessCode)],
);

/**
 * Whether the payment provider is failing now (server/payments/health.ts), one row a provider: since
 * when, why (contract/payments.ts ProviderFailureKind) and what it last answered; `alertedAt` when the
 * board was told (a refused key at once, another cause after PROVIDER_ALERT_MINUTES). The next call it
 * answers clears it. No secret is kept: a cause, a status, times.
 */
export const providerHealth = pgTable('provider_health', {
  provider: text('provider').primaryKey(),
  failingSince: timestamp('failing_since', { withTimezone: true }),
  cause: text('cause').$type<ProviderFailureKind>(),
  httpStatus: integer('http_status'),
  failures: integer('failures').notNull().default(0),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }),
  alertedAt: timestamp('alerted_at', { withTimezone: true }),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  updatedAt: updatedAt(),
});
