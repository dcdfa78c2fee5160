/**
 * Paystack's published rules, as the sandbox (server/payments/sandbox.ts) applies them: the references
 * and currencies it accepts, its minimum amounts, its error bodies, and the fees of a local card
 * payment, added to what the payer is charged when the account passes its fees on. Where each comes
 * from is said beside it; the shapes are checked against Paystack's OpenAPI document by
 * tests/api/payments-paystack-shapes.test.ts.
 */

/**
 * A reference Paystack takes: "Only -, ., = and alphanumeric characters allowed" (its OpenAPI document,
 * TransactionInitialize.reference). Paystack publishes no length; the sandbox takes at most 100, as the
 * portal's own references (contract/payments.ts PAYMENT_REFERENCE_PATTERN) do.
 */
export const PAYSTACK_REFERENCE = /^[A-Za-z0-9.=-]{1,100}$/;

/**
 * The currencies Paystack's OpenAPI document lists (components/schemas/Currency), each with the least
 * amount it takes, in the currency's subunit (Paystack's API reference, "Supported currency":
 * https://paystack.com/docs/api/#supported-currency).
 */
export const PAYSTACK_CURRENCY_MINIMUM: Record<string, number> = {
  NGN: 5_000,
  USD: 200,
  GHS: 10,
  ZAR: 100,
  KES: 300,
};

/** Paystack's pricing of a local (Nigerian) card payment, in kobo. */
const LOCAL_CARD = {
  /** 1.5% of the amount... */
  rate: 0.015,
  /** ...plus NGN 100... */
  flatKobo: 10_000,
  /** ...waived for an amount below NGN 2,500... */
  flatFromKobo: 250_000,
  /** ...the whole capped at NGN 2,000. */
  capKobo: 200_000,
} as const;
// Paystack's published pricing for local cards: "Charge per local transaction is 1.5% + NGN 100", "The
// NGN 100 is waived for transactions below NGN 2,500", "Fees for local cards are capped at NGN 2,000"
// (https://paystack.helpscoutdocs.com/article/42-pay-with-card; the same in https://paystack.com/faqs,
// "How much does Paystack charge per transaction?", and https://paystack.com/pricing).

/** Paystack's fee on a local card payment of `amountKobo` (borne by the account). */
export function localCardFee(amountKobo: number): number {
  const flat = amountKobo >= LOCAL_CARD.flatFromKobo ? LOCAL_CARD.flatKobo : 0;
  return Math.min(Math.ceil(amountKobo * LOCAL_CARD.rate + flat), LOCAL_CARD.capKobo);
}

/**
 * The fee added when the account passes it on, so the account still receives `requestedKobo`: Paystack's
 * formula "Final Amount = (Price + Flat fee) / (1 - Decimal Fee)", with the fee "capped at N2,000" for a
 * local payment (https://support.paystack.com/hc/en-us/articles/360009973579). The flat fee applies when
 * the final amount reaches NGN 2,500. Verify then answers amount = requested_amount + fees.
 */
export function passedOnFee(requestedKobo: number): number {
  let final = Math.ceil(requestedKobo / (1 - LOCAL_CARD.rate));
  if (final >= LOCAL_CARD.flatFromKobo) {
    final = Math.ceil((requestedKobo + LOCAL_CARD.flatKobo) / (1 - LOCAL_CARD.rate));
  }
  return Math.min(final - requestedKobo, LOCAL_CARD.capKobo);
}

/**
 * Paystack's error body (its OpenAPI document, components/schemas/Error and
 * TransactionInitializeBadRequestModel; its API reference's sample error: `{ status: false, message,
 * meta: { nextStep }, type: 'validation_error', code: 'missing_params' }`).
 */
export const paystackError = (
  message: string,
  more: { nextStep?: string; type?: string; code?: string } = {},
) => ({
  status: false as const,
  message,
  ...(more.nextStep ? { meta: { nextStep: more.nextStep } } : {}),
  ...(more.type ? { type: more.type } : {}),
  ...(more.code ? { code: more.code } : {}),
});
