/**
 * The benches' HTTP client for a request timed against its SQL (issue 28 item 4). A browser keeps its
 * connection open, asks for compressed answers, receives every byte, inflates them and parses the
 * JSON; so does this client, on node:http with a keep-alive agent and zlib's one-call inflate. Node's
 * own fetch (undici behind web streams) does the same work with far more CPU of its own, and in a bench
 * that CPU is spent in the bench's process on the same two cores, so it was counted as the portal's
 * latency; `viaFetch` keeps it as a side to compare.
 */
import http from 'node:http';
import zlib from 'node:zlib';

export interface Asked {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Answer {
  status: number;
  /** The answer's JSON, parsed (null for an empty body). */
  json: unknown;
  /** Milliseconds from sending to the parsed JSON. */
  elapsed: number;
}

/** One connection kept open per portal, as a browser's to one origin. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** What a browser asks for; the portal gives gzip (or nothing, under 1 KB). */
const ACCEPT_ENCODING = 'gzip, deflate, br';

function inflate(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'gzip') return zlib.gunzipSync(body);
  if (encoding === 'br') return zlib.brotliDecompressSync(body);
  if (encoding === 'deflate') return zlib.inflateSync(body);
  return body;
}

/** The request through node:http: every byte received, inflated and parsed before the clock stops. */
export function viaHttp(url: string, { method = 'GET', headers = {}, body }: Asked = {}): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        agent,
        method,
        headers: {
          'accept-encoding': ACCEPT_ENCODING,
          ...headers,
          ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          try {
            const text = inflate(Buffer.concat(chunks), response.headers['content-encoding']).toString();
            const json: unknown = text ? JSON.parse(text) : null;
            resolve({ status: response.statusCode ?? 0, json, elapsed: performance.now() - started });
          } catch (error) {
            reject(error as Error);
          }
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The same request through Node's fetch (it inflates itself), parsed as JSON before the clock stops. */
export async function viaFetch(
  url: string,
  { method = 'GET', headers = {}, body }: Asked = {},
): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(url, {
    method,
    headers: { 'accept-encoding': ACCEPT_ENCODING, ...headers },
    body,
  });
  const text = await response.text();
  const json: unknown = text ? JSON.parse(text) : null;
  return { status: response.status, json, elapsed: performance.now() - started };
}

/** Closes the kept connections (so the bench's process can end). */
export const closeClient = () => agent.destroy();
