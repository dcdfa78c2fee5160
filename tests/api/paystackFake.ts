import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import examples from '../fixtures/paystack-openapi/examples.json';

/**
 * A local fake of Paystack for the tests: a real HTTP server on 127.0.0.1 that answers as Paystack's
 * documentation does, with its own example bodies (tests/fixtures/paystack-openapi/examples.json):
 * initialize answers its example with the reference it was sent; verify answers its example (amount
 * 40333 = requested_amount 30050 + fees 10283, an account that passes its fees on) for a reference the
 * test has settled, an unpaid transaction for one only initialised, and Paystack's 404 for one it never
 * saw. It sends webhooks signed as Paystack signs them. The portal's real client
 * (server/payments/provider.ts) is pointed at it; nothing of the portal is replaced.
 */

type VerifyData = (typeof examples.verify)['200']['data'];

interface FakeInitialize {
  reference: string;
  contentType: string;
  body: Record<string, unknown>;
}

export interface PaystackFake {
  url: string;
  secretKey: string;
  /** Every initialize received, in order, as sent. */
  initialized: FakeInitialize[];
  /**
   * What verify answers for a reference from now on: the documented example's data with its reference
   * and these fields (a field set to undefined is left out, as an older answer without it).
   */
  answer(reference: string, fields?: Partial<Record<keyof VerifyData, unknown>>): void;
  /** Awaited before initialize answers: what Paystack does meanwhile (a webhook that comes first). */
  beforeInitializeAnswers: ((reference: string) => Promise<void>) | null;
  /** Initialize answers this status and Paystack's error body instead (a provider that fails). */
  failInitialize: number | null;
  /** The body of a webhook for a reference, as Paystack's webhook documentation shows charge.success. */
  webhookBody(event: 'charge.success', reference: string): string;
  /** Posts a signed webhook (`x-paystack-signature`, HMAC-SHA512 of the raw body) to `url`. */
  sendWebhook(url: string, event: 'charge.success', reference: string): Promise<Response>;
  close(): Promise<void>;
}

const NOT_FOUND = {
  status: false,
  message: 'Transaction reference not found',
  meta: {
    nextStep: "Ensure that you're passing the reference of a transaction that exists on this integration",
  },
  type: 'validation_error',
};

export async function startPaystackFake(
  secretKey = 'sk_test_paystack_fake_0123456789abcdef',
): Promise<PaystackFake> {
  const orders = new Map<string, FakeInitialize>();
  const answers = new Map<string, Record<string, unknown>>();

  const dataOf = (reference: string): Record<string, unknown> | null => {
    const answered = answers.get(reference);
    if (answered) return answered;
    const order = orders.get(reference);
    if (!order) return null;
    // Initialised, not paid: Paystack says abandoned until the payer pays.
    return {
      ...examples.verify['200'].data,
      reference,
      status: 'abandoned',
      gateway_response: 'The transaction was not completed',
      amount: Number(order.body.amount),
      requested_amount: Number(order.body.amount),
      fees: null,
      paid_at: null,
      paidAt: null,
      authorization: {},
    };
  };

  const send = (response: http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        if (request.headers.authorization !== `Bearer ${secretKey}`) {
          return send(response, 401, { status: false, message: 'Invalid key' });
        }
        const path = new URL(request.url ?? '/', 'http://fake').pathname;
        const raw = Buffer.concat(chunks).toString('utf8');
        if (request.method === 'POST' && path === '/transaction/initialize') {
          const contentType = request.headers['content-type'] ?? '';
          const body: Record<string, unknown> = contentType.startsWith('application/x-www-form-urlencoded')
            ? Object.fromEntries(new URLSearchParams(raw))
            : JSON.parse(raw);
          const reference = String(body.reference);
          fake.initialized.push({ reference, contentType, body });
          if (fake.failInitialize) {
            return send(response, fake.failInitialize, { status: false, message: 'Service unavailable' });
          }
          orders.set(reference, { reference, contentType, body });
          if (fake.beforeInitializeAnswers) await fake.beforeInitializeAnswers(reference);
          const example = examples.initialize['200'];
          return send(response, 200, { ...example, data: { ...example.data, reference } });
        }
        const verify = /^\/transaction\/verify\/([^/]+)$/.exec(path);
        if (request.method === 'GET' && verify) {
          const data = dataOf(decodeURIComponent(verify[1]));
          if (!data) return send(response, 404, NOT_FOUND);
          return send(response, 200, { ...examples.verify['200'], data });
        }
        send(response, 404, { status: false, message: 'Not found' });
      })().catch((error: unknown) => send(response, 500, { status: false, message: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const fake: PaystackFake = {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    initialized: [],
    beforeInitializeAnswers: null,
    failInitialize: null,
    answer(reference, fields = {}) {
      const data: Record<string, unknown> = { ...examples.verify['200'].data, reference };
      for (const [key, value] of Object.entries(fields)) {
        if (value === undefined) delete data[key];
        else data[key] = value;
      }
      answers.set(reference, data);
    },
    webhookBody(event, reference) {
      return JSON.stringify({ event, data: dataOf(reference) ?? { reference } });
    },
    sendWebhook(url, event, reference) {
      const body = fake.webhookBody(event, reference);
      return fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-paystack-signature': createHmac('sha512', secretKey).update(body).digest('hex'),
        },
        body,
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
