import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PaymentProviderInfo } from '../../contract/payments';
import type { Config } from '../config';
import { ProviderFailure, ProviderUnavailable } from '../errors';
import type { Logger } from '../log';
import {
  PAYMENT_MESSAGES as M,
  PROVIDER_FAILURE_MESSAGES,
  type ProviderFailureKind,
} from '../../contract/payments';

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

interface PaymentOrder {
  reference: string;
  email: string;
  amountKobo: number;
  currency: string;
  metadata: Record<string, unknown>;
}

// The request's context (server/http/context.ts) holds the provider; declared here, so that the HTTP
// layer imports nothing of the payments.
declare module '../http/context' {
  interface Deps {
    /** The payment provider: Paystack, or the portal's own sandbox (server/payments/sandbox.ts). */
    payments: PaymentProvider;
  }
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

const PAYSTACK_API = 'https://api.paystack.co';
const PAYSTACK_SCRIPT = 'https://js.paystack.co/v2/inline.js';
/**
 * The sandbox's secret key: random for each start of the process, known only to this process's provider
 * client. The sandbox's API answers only calls that carry it (as Paystack's requires its secret key), and
 * its webhooks are signed with it, so nobody else can ask it, drive it, or sign a webhook the portal takes.
 */
const newSandboxSecret = () => `sk_sandbox_${randomBytes(32).toString('hex')}`;
export const SANDBOX_PREFIX = '/sandbox/paystack';

/** How long a call to the provider may take, answer read whole, before it counts as a timeout. */
const PROVIDER_TIMEOUT_MS = 15_000;

/**
 * How a request reaches the provider: `fetch` over the network for Paystack; for the sandbox, the
 * sandbox's own Hono app called in this process (its `fetch`), so the same paths, shapes and key check
 * are exercised without a socket to ourselves (docs/decisions.md "Payments": verify under load).
 */
export type ProviderTransport = (request: Request) => Promise<Response>;

/** What each call to the provider came to: answered (whatever it said), or failed and why. */
export type ProviderOutcome = { ok: true } | { ok: false; failure: ProviderFailure };

/** A path as logged: its words kept, a reference (or any other value) replaced, e.g. `/transaction/verify/:reference`. */
const loggedPath = (path: string) =>
  path
    .split('?')[0]
    .split('/')
    .map((part) => (part === '' || /^[a-z_]{1,24}$/.test(part) ? part : ':reference'))
    .join('/');

/** A 429's Retry-After: seconds, or an HTTP date; null when absent or unreadable. */
function retryAfterOf(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

interface PaystackEnvelope<T> {
  status: boolean;
  message: string;
  data?: T;
}

export function signBody(secretKey: string, rawBody: string): string {
  return createHmac('sha512', secretKey).update(rawBody).digest('hex');
}

/**
 * A client of Paystack's API at `baseUrl`, reached through `transport` (the network, or the sandbox's
 * app in this process), each call bounded by `timeoutMs`.
 */
export function paystackClient({
  baseUrl,
  secretKey,
  info,
  transport = (request) => fetch(request),
  timeoutMs = PROVIDER_TIMEOUT_MS,
  log,
  onOutcome,
}: {
  baseUrl: () => string;
  secretKey: string;
  info: PaymentProviderInfo;
  transport?: ProviderTransport;
  timeoutMs?: number;
  /** Where a failure is logged, with its cause, status and path (never a header nor a body). */
  log?: Pick<Logger, 'error'>;
  /** Told of every call's outcome (the provider's health, server/payments/health.ts). */
  onOutcome?: (outcome: ProviderOutcome) => Promise<void>;
}): PaymentProvider {
  /**
   * One call, answered or failed by cause (ProviderFailure): a refused key (401), a rate limit (429,
   * with its Retry-After), the provider's own error (5xx), an answer that is not its JSON, no answer
   * within `timeoutMs` (the body read whole), or no connection. Other answers (2xx, and 4xx refusals
   * with Paystack's `{ status: false }` body) are the caller's to read.
   */
  async function request<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: PaystackEnvelope<T> }> {
    const started = performance.now();
    const operation = path.startsWith('/transaction/initialize') ? 'start' : 'verify';
    const fail = (
      kind: ProviderFailureKind,
      httpStatus: number | null,
      retryAfterSeconds: number | null = null,
    ) =>
      new ProviderFailure(kind, PROVIDER_FAILURE_MESSAGES[operation][kind], {
        method,
        path: loggedPath(path),
        httpStatus,
        retryAfterSeconds,
        ms: Math.round(performance.now() - started),
      });
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The transport in this process (the sandbox's app) does not heed the signal: the race ends the wait.
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(fail('timeout', null));
      }, timeoutMs);
    });
    const call = async () => {
      let response: Response;
      try {
        response = await transport(
          new Request(`${baseUrl()}${path}`, {
            method,
            headers: {
              authorization: `Bearer ${secretKey}`,
              ...(body ? { 'content-type': 'application/json' } : {}),
            },
            body: body ? JSON.stringify(body) : undefined,
            signal: controller.signal,
          }),
        );
      } catch {
        throw controller.signal.aborted ? fail('timeout', null) : fail('unreachable', null);
      }
      const status = response.status;
      if (status === 401) throw fail('key_refused', status);
      if (status === 429)
        throw fail('rate_limited', status, retryAfterOf(response.headers.get('retry-after')));
      if (status >= 500) throw fail('server_error', status);
      const text = await response.text().catch(() => {
        throw controller.signal.aborted ? fail('timeout', status) : fail('unreachable', status);
      });
      let json: PaystackEnvelope<T> | null = null;
      try {
        json = JSON.parse(text) as PaystackEnvelope<T>;
      } catch {
        // Not JSON: a proxy's or a maintenance page.
      }
      if (!json || typeof json !== 'object' || typeof json.status !== 'boolean')
        throw fail('not_json', status);
      return { status, json };
    };
    try {
      const answered = await Promise.race([call(), timedOut]);
      await onOutcome?.({ ok: true });
      return answered;
    } catch (error) {
      if (error instanceof ProviderFailure) {
        const { detail } = error;
        log?.error('payment.provider_failed', {
          provider: info.name,
          cause: error.kind,
          status: detail.httpStatus,
          method: detail.method,
          path: detail.path,
          ms: detail.ms,
          ...(detail.retryAfterSeconds !== null ? { retry_after: detail.retryAfterSeconds } : {}),
        });
        await onOutcome?.({ ok: false, failure: error });
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
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

/** How the portal reaches its provider; tests point Paystack's client elsewhere (a local fake). */
export interface ProviderWiring {
  /** The sandbox's API as this process serves it (server/payments/sandbox.ts), called without a socket. */
  sandbox: () => ProviderTransport;
  log?: Pick<Logger, 'error'>;
  onOutcome?: (outcome: ProviderOutcome) => Promise<void>;
  /** Paystack's API address (a test's fake of it), and the calls' timeout. */
  paystackUrl?: string;
  timeoutMs?: number;
}

/**
 * Paystack when its keys are set; else the sandbox, reached in this process: a verify never waits for a
 * socket to ourselves while this process's database is busy with the other verifies.
 */
export function createPaymentProvider(config: Config, wiring: ProviderWiring): PaymentProvider {
  const { log, onOutcome, timeoutMs } = wiring;
  if (config.paystack) {
    return paystackClient({
      baseUrl: () => wiring.paystackUrl ?? PAYSTACK_API,
      secretKey: config.paystack.secretKey,
      info: { name: 'paystack', script_url: PAYSTACK_SCRIPT },
      log,
      onOutcome,
      timeoutMs,
    });
  }
  return paystackClient({
    // Never resolved: the sandbox's app sees only the path.
    baseUrl: () => 'http://sandbox.invalid',
    transport: (request) => wiring.sandbox()(request),
    secretKey: config.sandboxSecretKey ?? newSandboxSecret(),
    info: { name: 'sandbox', script_url: `${SANDBOX_PREFIX}/inline.js` },
    log,
    onOutcome,
    timeoutMs,
  });
}
