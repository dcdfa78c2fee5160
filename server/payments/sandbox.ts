import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { html } from 'hono/html';
import { formatNaira, SANDBOX_NOTICE } from '../../contract/payments';
import { PAYMENT_ENDPOINTS } from '../../contract/payments.endpoints';
import type { Database } from '../db/client';
import { sandboxTransactions } from '../db/schema';
import type { Deps } from '../http/context';
import {
  localCardFee,
  passedOnFee,
  paystackError,
  PAYSTACK_CURRENCY_MINIMUM,
  PAYSTACK_REFERENCE,
} from './paystackRules';
import { SANDBOX_PREFIX, type PaymentProvider } from './provider';

/**
 * The sandbox provider, served by the portal itself when no Paystack keys are set: Paystack's HTTP API
 * shapes (`POST /transaction/initialize`, `GET /transaction/verify/:reference`, a bearer secret key,
 * amounts in kobo, `{ status, message, data }`), a script with the same `PaystackPop` contract
 * (`new PaystackPop().resumeTransaction(accessCode, { onSuccess, onCancel, onError, onLoad })`), a
 * checkout page with Pay / Decline / Leave pending / Abandon, and webhooks signed as Paystack signs them
 * (`x-paystack-signature`, HMAC-SHA512 of the raw body), delivered by a job to the portal's real webhook
 * route over HTTP. It moves no money and is never served when Paystack's keys are set. Two calls
 * Paystack makes from its dashboard are here too, for the demo and the tests: completing a pending
 * transfer, and reversing a payment. Its bodies, errors, 404 and refusals are Paystack's published ones
 * (server/payments/paystackRules.ts; checked against Paystack's OpenAPI document by
 * tests/api/payments-paystack-shapes.test.ts), and it charges Paystack's local-card fees, passed on to
 * the payer when SANDBOX_PASS_FEES is set.
 */

type Row = typeof sandboxTransactions.$inferSelect;

/** A stable integer for an id Paystack would number (its transaction and customer ids). */
const numberOf = (text: string) => parseInt(createHash('sha256').update(text).digest('hex').slice(0, 10), 16);
const codeOf = (prefix: string, text: string) =>
  `${prefix}_${createHash('sha256').update(text).digest('hex').slice(0, 15)}`;

/** Whether the payer has been charged (and Paystack has taken its fees). */
const charged = (row: Row) => row.status === 'success' || row.status === 'reversed';

/**
 * The fees of a transaction once charged: added on top when the account passes them on (then amount =
 * requested_amount + fees, as in Paystack's verify example 40333 = 30050 + 10283), else taken from it.
 */
const feesOf = (row: Row) =>
  charged(row) ? (row.passFees ? passedOnFee(row.amountKobo) : localCardFee(row.amountKobo)) : null;

/** What the payer is charged: the order, plus the fees when they are passed on. */
const chargeOf = (row: Row) =>
  row.amountKobo + (row.passFees && charged(row) ? passedOnFee(row.amountKobo) : 0);

/**
 * The transaction as Paystack's verify shows it (`data` of its VerifyResponse, every field its OpenAPI
 * document requires; the webhook's charge.success carries the same).
 */
const asPaystack = (row: Row) => {
  const paidAt = charged(row) ? (row.paidAt ?? row.updatedAt).toISOString() : null;
  const createdAt = row.createdAt.toISOString();
  return {
    id: numberOf(row.reference),
    domain: 'test',
    status: row.status,
    reference: row.reference,
    receipt_number: null,
    amount: chargeOf(row),
    message: null,
    gateway_response: row.gatewayResponse ?? 'The transaction was not completed',
    paid_at: paidAt,
    created_at: createdAt,
    channel: 'card',
    currency: row.currency,
    ip_address: '127.0.0.1',
    metadata: row.metadata ?? '',
    log: null,
    fees: feesOf(row),
    fees_split: null,
    authorization: charged(row)
      ? {
          authorization_code: codeOf('AUTH', row.reference),
          bin: '408408',
          last4: '4081',
          exp_month: '12',
          exp_year: '2030',
          channel: 'card',
          card_type: 'visa ',
          bank: 'TEST BANK',
          country_code: 'NG',
          brand: 'visa',
          reusable: false,
          signature: codeOf('SIG', row.email),
          account_name: null,
        }
      : {},
    customer: {
      id: numberOf(row.email),
      first_name: null,
      last_name: null,
      email: row.email,
      customer_code: codeOf('CUS', row.email),
      phone: null,
      metadata: null,
      risk_action: 'default',
      international_format_phone: null,
    },
    plan: null,
    split: {},
    order_id: null,
    paidAt,
    createdAt,
    requested_amount: row.amountKobo,
    pos_transaction_data: null,
    source: null,
    fees_breakdown: null,
    connect: null,
    transaction_date: createdAt,
    plan_object: {},
    subaccount: {},
  };
};

/** Where each checkout choice leaves the transaction, and what the provider says of it. */
const CHOICES = {
  pay: { status: 'success', gateway: 'Approved', event: 'charge.success' },
  decline: { status: 'failed', gateway: 'Declined by the issuing bank', event: null },
  pending: { status: 'ongoing', gateway: 'Transfer awaiting confirmation', event: null },
  abandon: { status: 'abandoned', gateway: 'The customer left the checkout', event: null },
} as const;
type Choice = keyof typeof CHOICES;

/** The body of a webhook, as Paystack sends it. */
export async function webhookBody(db: Database, event: string, reference: string): Promise<string | null> {
  const [row] = await db
    .select()
    .from(sandboxTransactions)
    .where(eq(sandboxTransactions.reference, reference));
  if (!row) return null;
  // refund.processed as Paystack's webhook documentation shows it (its amount a string there too).
  const data =
    event === 'refund.processed'
      ? {
          status: 'processed',
          transaction_reference: row.reference,
          refund_reference: codeOf('RFD', row.reference),
          amount: String(chargeOf(row)),
          currency: row.currency,
          processor: 'sandbox',
          customer: { first_name: null, last_name: null, email: row.email },
          integration: 1,
          domain: 'test',
        }
      : asPaystack(row);
  return JSON.stringify({ event, data });
}

/** The sandbox's webhook job: signs the body and posts it to this portal's webhook route. */
export async function deliverWebhook(
  { db, provider, selfUrl }: { db: Database; provider: PaymentProvider; selfUrl: () => string },
  { event, reference }: { event: string; reference: string },
) {
  const body = await webhookBody(db, event, reference);
  if (!body) return;
  const response = await fetch(`${selfUrl()}${PAYMENT_ENDPOINTS.webhook.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-paystack-signature': provider.sign(body) },
    body,
    signal: AbortSignal.timeout(15_000),
  });
  // Paystack retries a delivery that is not answered 200; the job queue retries a thrown one.
  if (response.status !== 200) throw new Error(`The webhook was answered ${response.status}`);
}

const refused = (c: Context) => c.json(paystackError('Invalid key'), 401);
/** An unknown reference: 404 with Paystack's error body, as its OpenAPI document says of verify. */
const notFound = (c: Context) =>
  c.json(
    paystackError('Transaction reference not found', {
      nextStep: "Ensure that you're passing the reference of a transaction that exists on this integration",
      type: 'validation_error',
    }),
    404,
  );
/** A refused initialize: 400 with Paystack's TransactionInitializeBadRequestModel. */
const invalid = (c: Context, message: string, code: string, nextStep: string) =>
  c.json(paystackError(message, { nextStep, type: 'validation_error', code }), 400);

/**
 * An initialize's body, JSON or form-encoded (Paystack's OpenAPI document takes both); a form's
 * metadata is JSON text.
 */
async function initializeBody(c: Context): Promise<Record<string, unknown> | null> {
  const type = c.req.header('content-type') ?? '';
  if (type.startsWith('application/x-www-form-urlencoded')) {
    const form = Object.fromEntries(new URLSearchParams(await c.req.text()));
    let metadata: unknown = form.metadata;
    if (typeof metadata === 'string') {
      try {
        metadata = JSON.parse(metadata);
      } catch {
        // Kept as the text it is.
      }
    }
    return { ...form, metadata };
  }
  const json = (await c.req.json().catch(() => null)) as unknown;
  return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
}

export function sandboxRoutes(deps: Pick<Deps, 'config' | 'database' | 'jobs' | 'clock' | 'payments'>) {
  const db = () => deps.database.db;
  // Only the portal's own provider client knows this start's secret key (server/payments/provider.ts).
  const authorised = (c: Context) => deps.payments.keyValid(c.req.header('authorization'));
  const now = () => deps.clock?.() ?? new Date();
  const find = async (column: 'reference' | 'accessCode', value: string) =>
    (await db().select().from(sandboxTransactions).where(eq(sandboxTransactions[column], value)))[0];
  const send = (event: string, reference: string) =>
    deps.jobs?.send('sandbox-webhook', { event, reference }, { retryLimit: 5, retryDelay: 5 });

  const app = new Hono();
  // Paystack's requests are small; the sandbox takes nothing bigger.
  app.use('*', bodyLimit({ maxSize: 16 * 1024, onError: (c) => c.json(paystackError('Too large'), 413) }));

  app.post('/transaction/initialize', async (c) => {
    if (!authorised(c)) return refused(c);
    const body = await initializeBody(c);
    if (!body || typeof body.email !== 'string' || !body.email.includes('@')) {
      return invalid(c, 'Email Address is required', 'missing_params', 'Provide all required params');
    }
    const currency = body.currency === undefined ? 'NGN' : body.currency;
    if (typeof currency !== 'string' || !Object.hasOwn(PAYSTACK_CURRENCY_MINIMUM, currency)) {
      return invalid(
        c,
        'Currency not supported by merchant',
        'unsupported_currency',
        'Use a currency enabled on this integration',
      );
    }
    const amount =
      typeof body.amount === 'string' && /^\d+$/.test(body.amount) ? Number(body.amount) : body.amount;
    if (
      typeof amount !== 'number' ||
      !Number.isSafeInteger(amount) ||
      amount < PAYSTACK_CURRENCY_MINIMUM[currency]
    ) {
      return invalid(
        c,
        'Invalid Amount Sent',
        'invalid_amount',
        `Send a whole amount in the currency's subunit, at least ${PAYSTACK_CURRENCY_MINIMUM[currency]}`,
      );
    }
    if (
      body.reference !== undefined &&
      (typeof body.reference !== 'string' || !PAYSTACK_REFERENCE.test(body.reference))
    ) {
      return invalid(
        c,
        'Invalid transaction reference',
        'invalid_reference',
        'Only -, ., = and alphanumeric characters allowed in a reference',
      );
    }
    const reference =
      typeof body.reference === 'string' ? body.reference : `SBX-${randomBytes(6).toString('hex')}`;
    const accessCode = randomBytes(16).toString('hex');
    const [inserted] = await db()
      .insert(sandboxTransactions)
      .values({
        reference,
        accessCode,
        amountKobo: amount,
        currency,
        email: body.email,
        status: 'abandoned',
        metadata: body.metadata ?? null,
        passFees: deps.config.sandboxPassFees,
      })
      .onConflictDoNothing({ target: sandboxTransactions.reference })
      .returning({ reference: sandboxTransactions.reference });
    if (!inserted) {
      return invalid(
        c,
        'Duplicate Transaction Reference',
        'duplicate_reference',
        'Try and create the Transaction or Charge with a new reference',
      );
    }
    return c.json({
      status: true,
      message: 'Authorization URL created',
      data: {
        authorization_url: `${SANDBOX_PREFIX}/checkout/${accessCode}`,
        access_code: accessCode,
        reference,
      },
    });
  });

  app.get('/transaction/verify/:reference', async (c) => {
    if (!authorised(c)) return refused(c);
    const row = await find('reference', c.req.param('reference'));
    if (!row) return notFound(c);
    return c.json({ status: true, message: 'Verification successful', data: asPaystack(row) });
  });

  /** A pending transfer arrives (what the bank tells Paystack later). */
  app.post('/transaction/:reference/complete', async (c) => {
    if (!authorised(c)) return refused(c);
    const row = await find('reference', c.req.param('reference'));
    if (!row) return notFound(c);
    await db()
      .update(sandboxTransactions)
      .set({ status: 'success', gatewayResponse: 'Approved', paidAt: now(), updatedAt: now() })
      .where(eq(sandboxTransactions.reference, row.reference));
    await send('charge.success', row.reference);
    return c.json({ status: true, message: 'Transaction completed' });
  });

  /** A refund or chargeback after the money arrived. */
  app.post('/transaction/:reference/reverse', async (c) => {
    if (!authorised(c)) return refused(c);
    const row = await find('reference', c.req.param('reference'));
    if (!row || row.status !== 'success') return notFound(c);
    await db()
      .update(sandboxTransactions)
      .set({ status: 'reversed', gatewayResponse: 'Refunded to the customer', updatedAt: now() })
      .where(eq(sandboxTransactions.reference, row.reference));
    await send('refund.processed', row.reference);
    return c.json({ status: true, message: 'Refund processed' });
  });

  app.get('/inline.js', (c) => script(c, INLINE_JS));
  app.get('/checkout.js', (c) => script(c, CHECKOUT_JS));

  app.get('/checkout/:accessCode', async (c) => {
    const row = await find('accessCode', c.req.param('accessCode'));
    // Framed by the portal's own pages only.
    c.header(
      'Content-Security-Policy',
      "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'self'",
    );
    c.header('X-Frame-Options', 'SAMEORIGIN');
    if (!row)
      return c.html(
        page('Payment not found', html`<p>This checkout has expired or does not exist.</p>`),
        404,
      );
    const open = row.status === 'abandoned' || row.status === 'failed';
    return c.html(
      page(
        'Sandbox checkout',
        html`<p class="note"><strong>${SANDBOX_NOTICE}</strong> Choose what the payer does.</p>
          <p>
            Pay
            <strong>${formatNaira(row.amountKobo + (row.passFees ? passedOnFee(row.amountKobo) : 0))}</strong>
            ${row.passFees ? html`(${formatNaira(row.amountKobo)} and ${formatNaira(passedOnFee(row.amountKobo))} of charges)` : ''}
          </p>
          <p class="muted">${row.email} · ${row.reference}</p>
          ${
            open
              ? html`<div
                  class="choices"
                  data-access-code="${row.accessCode}"
                  data-reference="${row.reference}"
                >
                  <button type="button" data-choice="pay">Pay</button>
                  <button type="button" data-choice="decline">Decline</button>
                  <button type="button" data-choice="pending">Leave pending</button>
                  <button type="button" data-choice="abandon">Abandon</button>
                </div>`
              : html`<p>This transaction is ${row.status}.</p>`
          }
          <p role="status" id="said"></p>
          <script src="${SANDBOX_PREFIX}/checkout.js"></script>`,
      ),
    );
  });

  app.post('/checkout/:accessCode/:choice', async (c) => {
    const choice = c.req.param('choice') as Choice;
    const row = await find('accessCode', c.req.param('accessCode'));
    if (!row || !Object.hasOwn(CHOICES, choice)) return c.json({ status: false, message: 'Not found' }, 404);
    if (row.status !== 'abandoned' && row.status !== 'failed') {
      return c.json({ status: false, message: `This transaction is ${row.status}` }, 409);
    }
    const outcome = CHOICES[choice];
    await db()
      .update(sandboxTransactions)
      .set({
        status: outcome.status,
        gatewayResponse: outcome.gateway,
        paidAt: outcome.status === 'success' ? now() : null,
        updatedAt: now(),
      })
      .where(eq(sandboxTransactions.reference, row.reference));
    if (outcome.event) await send(outcome.event, row.reference);
    return c.json({
      status: true,
      message: outcome.gateway,
      data: { reference: row.reference, status: outcome.status },
    });
  });

  return app;
}

const script = (c: Context, source: string) =>
  c.body(source, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' });

const page = (title: string, body: unknown) =>
  html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <style>
          body {
            font-family: system-ui, sans-serif;
            margin: 0;
            padding: 1rem 1rem 0.5rem;
            color: #0f172a;
          }
          h1 {
            font-size: 1.25rem;
            margin: 0 6rem 0.5rem 0;
          }
          p {
            margin: 0.5rem 0;
          }
          .note {
            background: #fef3c7;
            padding: 0.5rem;
            border-radius: 0.375rem;
            font-size: 0.875rem;
          }
          .muted {
            color: #475569;
            font-size: 0.875rem;
            word-break: break-all;
          }
          .choices {
            display: grid;
            gap: 0.5rem;
          }
          button {
            font-size: 1rem;
            padding: 0.6rem;
            border-radius: 0.375rem;
            border: 1px solid #94a3b8;
            background: #fff;
          }
          button[data-choice='pay'] {
            background: #047857;
            color: #fff;
            border-color: #047857;
          }
        </style>
      </head>
      <body>
        <h1>${title}</h1>
        ${body}
      </body>
    </html>`;

/**
 * The checkout page's script: each choice is posted, then the page tells its opener (the inline script in
 * the portal's page) what happened, as Paystack's checkout does.
 */
const CHECKOUT_JS = `(() => {
  const box = document.querySelector('.choices');
  if (!box) return;
  const said = document.getElementById('said');
  const tell = (message) => window.parent.postMessage({ source: 'sandbox-checkout', ...message }, window.location.origin);
  box.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-choice]');
    if (!button) return;
    const choice = button.dataset.choice;
    box.querySelectorAll('button').forEach((b) => (b.disabled = true));
    try {
      const response = await fetch('${SANDBOX_PREFIX}/checkout/' + box.dataset.accessCode + '/' + choice, { method: 'POST' });
      const body = await response.json();
      said.textContent = body.message;
      tell({ choice, reference: box.dataset.reference, ok: response.ok, message: body.message });
    } catch (error) {
      said.textContent = 'The sandbox could not be reached.';
      box.querySelectorAll('button').forEach((b) => (b.disabled = false));
    }
  });
})();
`;

/**
 * PaystackPop, as the sandbox's: resumeTransaction opens the checkout in an overlay frame and calls
 * onLoad, then onSuccess (paid, or left pending: Paystack calls onSuccess when the payer is done and the
 * server's verify says the rest) or onCancel (declined then closed, abandoned, or the overlay closed).
 */
const INLINE_JS = `(() => {
  class PaystackPop {
    resumeTransaction(accessCode, callbacks = {}) {
      const overlay = document.createElement('div');
      overlay.setAttribute('data-sandbox-checkout', '');
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-modal', 'true');
      overlay.setAttribute('aria-label', 'Sandbox checkout');
      overlay.style.cssText = 'position:fixed;inset:0;background:rgba(15,23,42,.6);display:flex;align-items:center;justify-content:center;z-index:2147483647';
      const panel = document.createElement('div');
      panel.style.cssText = 'background:#fff;border-radius:.5rem;width:min(24rem,94vw);position:relative';
      const close = document.createElement('button');
      close.type = 'button';
      close.textContent = 'Close checkout';
      close.style.cssText = 'position:absolute;top:.25rem;right:.25rem;font-size:.8rem';
      const frame = document.createElement('iframe');
      frame.title = 'Sandbox checkout';
      frame.src = '${SANDBOX_PREFIX}/checkout/' + encodeURIComponent(accessCode);
      frame.style.cssText = 'border:0;width:100%;height:min(30rem,calc(100vh - 2rem));border-radius:.5rem;display:block';
      panel.append(close, frame);
      overlay.append(panel);
      let done = false;
      const finish = (then) => {
        if (done) return;
        done = true;
        window.removeEventListener('message', onMessage);
        overlay.remove();
        then();
      };
      const onMessage = (event) => {
        if (event.origin !== window.location.origin || event.source !== frame.contentWindow) return;
        const data = event.data || {};
        if (data.source !== 'sandbox-checkout' || !data.ok) return;
        if (data.choice === 'pay' || data.choice === 'pending') {
          finish(() => callbacks.onSuccess && callbacks.onSuccess({ reference: data.reference, message: data.message }));
        } else {
          finish(() => callbacks.onCancel && callbacks.onCancel());
        }
      };
      window.addEventListener('message', onMessage);
      close.addEventListener('click', () => finish(() => callbacks.onCancel && callbacks.onCancel()));
      frame.addEventListener('load', () => callbacks.onLoad && callbacks.onLoad({ accessCode }), { once: true });
      frame.addEventListener('error', () => finish(() => callbacks.onError && callbacks.onError({ message: 'The checkout could not be loaded' })));
      document.body.append(overlay);
      frame.focus();
      return this;
    }
  }
  window.PaystackPop = PaystackPop;
})();
`;
