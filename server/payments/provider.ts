import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PaymentProviderInfo } from '../../contract/payments';
import type { Config } from '../config';
import { ProviderUnavailable } from '../errors';
import { PAYMENT_MESSAGES as M } from '../../contract/payments';

/**
 * The payment provider as the portal uses it: Paystack's HTTP API (initialise a transaction, verify it
 * by reference, amounts in kobo) and its webhook signature. One client speaks it; it talks to Paystack
 * when PAYSTACK_SECRET_KEY and PAYSTACK_PUBLIC_KEY are set, and otherwise to the portal's own sandbox
 * (server/payments/sandbox.ts), which answers the same paths with the same shapes. Nothing here trusts
 * the browser: only `verify` says whether money arrived.
 */

/** What the provider says of a transaction (Paystack's `data` of /transaction/verify). */
export interface ProviderTransaction {
  reference: string;
  /** Paystack's words: success, failed, abandoned, ongoing, pending, processing, queued, reversed. */
  status: string;
  /** What the payer was charged (Paystack's `amount`): the order, plus the fees when the account passes them on. */
  amountKobo: number;
  /** What was ordered (Paystack's `requested_amount`; its `amount` when it does not say). */
  requestedAmountKobo: number;
  /** Paystack's `fees` for the transaction, when it says. */
  feesKobo: number | null;
  currency: string;
  gatewayResponse: string | null;
  paidAt: string | null;
  channel: string | null;
}

export interface PaymentOrder {
  reference: string;
  email: string;
  amountKobo: number;
  currency: string;
  metadata: Record<string, unknown>;
}

export interface PaymentProvider {
  info: PaymentProviderInfo;
  /** Creates the transaction at the provider; its access code opens the popup (resumeTransaction). */
  initialize(order: PaymentOrder): Promise<{ accessCode: string }>;
  /** The transaction as the provider holds it, or null when it knows no such reference. */
  verify(reference: string): Promise<ProviderTransaction | null>;
  /** Whether a webhook's `x-paystack-signature` is the HMAC-SHA512 of its raw body under our secret key. */
  signatureValid(rawBody: string, signature: string | undefined): boolean;
  /** The secret the webhook is signed with (the sandbox signs its own deliveries with it). */
  sign(rawBody: string): string;
  /** The Authorization header this client sends (`Bearer <secret key>`); never logged. */
  authorization(): string;
  /** Whether an Authorization header carries this client's secret key (compared in constant time). */
  keyValid(authorization: string | undefined): boolean;
}

export const PAYSTACK_API = 'https://api.paystack.co';
export const PAYSTACK_SCRIPT = 'https://js.paystack.co/v2/inline.js';
/**
 * The sandbox's secret key: random for each start of the process, known only to this process's provider
 * client. The sandbox's API answers only calls that carry it (as Paystack's requires its secret key), and
 * its webhooks are signed with it, so nobody else can ask it, drive it, or sign a webhook the portal takes.
 */
export const newSandboxSecret = () => `sk_sandbox_${randomBytes(32).toString('hex')}`;
export const SANDBOX_PREFIX = '/sandbox/paystack';

const TIMEOUT_MS = 15_000;

interface PaystackEnvelope<T> {
  status: boolean;
  message: string;
  data?: T;
}

export function signBody(secretKey: string, rawBody: string): string {
  return createHmac('sha512', secretKey).update(rawBody).digest('hex');
}

/**
 * A client of Paystack's API at `baseUrl` (a function: the sandbox's is the portal's own address, known
 * once it listens).
 */
export function paystackClient({
  baseUrl,
  secretKey,
  info,
}: {
  baseUrl: () => string;
  secretKey: string;
  info: PaymentProviderInfo;
}): PaymentProvider {
  async function request<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: PaystackEnvelope<T> }> {
    let response: Response;
    try {
      response = await fetch(`${baseUrl()}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${secretKey}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      throw new ProviderUnavailable(M.providerDown);
    }
    if (response.status >= 500) throw new ProviderUnavailable(M.providerDown);
    const json = (await response.json().catch(() => null)) as PaystackEnvelope<T> | null;
    if (!json || typeof json.status !== 'boolean') throw new ProviderUnavailable(M.providerDown);
    return { status: response.status, json };
  }

  const sign = (rawBody: string) => signBody(secretKey, rawBody);
  const authorization = () => `Bearer ${secretKey}`;
  const expectedKey = createHmac('sha256', 'key').update(authorization()).digest();

  return {
    info,
    async initialize(order) {
      const { json } = await request<{ access_code: string; reference: string }>(
        'POST',
        '/transaction/initialize',
        {
          email: order.email,
          amount: order.amountKobo,
          currency: order.currency,
          reference: order.reference,
          metadata: order.metadata,
        },
      );
      if (!json.status || !json.data?.access_code) throw new ProviderUnavailable(M.providerDown);
      return { accessCode: json.data.access_code };
    },
    async verify(reference) {
      const { status, json } = await request<{
        reference: string;
        status: string;
        amount: number;
        requested_amount?: number | null;
        fees?: number | null;
        currency: string;
        gateway_response: string | null;
        paid_at: string | null;
        channel: string | null;
      }>('GET', `/transaction/verify/${encodeURIComponent(reference)}`);
      // Paystack answers an unknown reference with status false ('Transaction reference not found').
      if (!json.status || !json.data) {
        if (status === 400 || status === 404) return null;
        throw new ProviderUnavailable(M.providerDown);
      }
      const data = json.data;
      const kobo = (value: unknown) =>
        value === null || value === undefined || !Number.isFinite(Number(value)) ? null : Number(value);
      return {
        reference: data.reference,
        status: data.status,
        amountKobo: Number(data.amount),
        // An account that passes its fees on is charged amount = requested_amount + fees (Paystack's
        // verify example: 40333 = 30050 + 10283); what was ordered is requested_amount.
        requestedAmountKobo: kobo(data.requested_amount) ?? Number(data.amount),
        feesKobo: kobo(data.fees),
        currency: data.currency,
        gatewayResponse: data.gateway_response ?? null,
        paidAt: data.paid_at ?? null,
        channel: data.channel ?? null,
      };
    },
    signatureValid(rawBody, signature) {
      if (!signature || !/^[0-9a-f]{128}$/i.test(signature)) return false;
      const expected = Buffer.from(sign(rawBody), 'hex');
      return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
    },
    sign,
    authorization,
    keyValid(header) {
      if (typeof header !== 'string') return false;
      // Digests of equal length, so the comparison takes the same time whatever was sent.
      return timingSafeEqual(expectedKey, createHmac('sha256', 'key').update(header).digest());
    },
  };
}

/**
 * Paystack when its keys are set; else the sandbox served by this portal at `selfUrl()` (the address
 * this process listens at, known after it starts listening).
 */
export function createPaymentProvider(config: Config, selfUrl: () => string): PaymentProvider {
  if (config.paystack) {
    return paystackClient({
      baseUrl: () => PAYSTACK_API,
      secretKey: config.paystack.secretKey,
      info: { name: 'paystack', script_url: PAYSTACK_SCRIPT },
    });
  }
  return paystackClient({
    baseUrl: () => `${selfUrl()}${SANDBOX_PREFIX}`,
    secretKey: config.sandboxSecretKey ?? newSandboxSecret(),
    info: { name: 'sandbox', script_url: `${SANDBOX_PREFIX}/inline.js` },
  });
}
