import { constants, deflateSync, gzipSync } from 'node:zlib';
import { compress } from 'hono/compress';
import { createMiddleware } from 'hono/factory';
import type { AppContext, AppEnv } from './context';

/**
 * Answers compressed for the slow links school admins are on, above `threshold` bytes (issue 8), at a
 * cost that stays small beside the SQL (issue 28).
 *
 * A JSON answer made by `jsonAnswer` (the envelope's `ok`, every refusal) keeps its text here: it is
 * measured, and gzipped in one call when the client takes gzip (deflate when only that), and leaves as
 * one buffer with its Content-Length, written to the socket in one go. Before, hono/compress piped
 * every answer above 1 KB through a CompressionStream (a stream, so the headers and the body went out
 * in separate chunked writes), after a middleware had cloned the answer and read it once more just to
 * learn its length.
 *
 * Anything else (a CSV export streamed, a text made per request, another JSON answer) goes the way it
 * went: its length is learnt when it is JSON, and hono/compress compresses it as a stream.
 */
const texts = new WeakMap<Response, string>();

/** A JSON answer whose text the compression reads as it is, never parsing or reading the body again. */
export function jsonAnswer(c: AppContext, value: unknown, status: number): Response {
  const text = JSON.stringify(value);
  const response = c.body(text, status as 200, { 'Content-Type': 'application/json' });
  texts.set(response, text);
  return response;
}

/**
 * Level 6 (zlib's default, as CompressionStream used) costs about twice level 1 and saves a few per cent
 * more of a list page; the link, not the CPU, is what school admins wait on, so the default stays.
 */
const LEVEL = constants.Z_DEFAULT_COMPRESSION;

/** As hono/compress chooses: gzip first, else deflate, by the client's Accept-Encoding and its q-values. */
function encodingOf(header: string | undefined): 'gzip' | 'deflate' | null {
  if (!header) return null;
  const accepts = header.split(',').map((part) => {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return { name: name.trim().toLowerCase(), q: q ? Number(q.slice(2)) : 1 };
  });
  const wildcard = accepts.find((a) => a.name === '*')?.q;
  let best: { encoding: 'gzip' | 'deflate'; q: number } | null = null;
  for (const encoding of ['gzip', 'deflate'] as const) {
    const q = accepts.find((a) => a.name === encoding)?.q ?? wildcard ?? 0;
    if (q === 1) return encoding;
    if (q > 0 && (!best || q > best.q)) best = { encoding, q };
  }
  return best?.encoding ?? null;
}

export const compressAnswers = (threshold: number) => {
  const streamed = compress({ threshold });
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    const text = texts.get(c.res);
    if (text === undefined) return otherAnswer(c, streamed);
    const res = c.res;
    if (c.req.method === 'HEAD' || res.headers.has('Content-Encoding')) return;
    const size = Buffer.byteLength(text);
    if (size < threshold) return;
    const vary = res.headers.get('Vary');
    if (vary !== '*' && !/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary ?? '')) {
      res.headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    }
    const encoding = encodingOf(c.req.header('Accept-Encoding'));
    if (!encoding) return;
    const body = encoding === 'gzip' ? gzipSync(text, { level: LEVEL }) : deflateSync(text, { level: LEVEL });
    const headers = new Headers(res.headers);
    headers.set('Content-Encoding', encoding);
    headers.set('Content-Length', String(body.byteLength));
    // Undefined first: Hono would otherwise merge the old answer's headers (its length) into the new.
    c.res = undefined;
    c.res = new Response(body, { status: res.status, headers });
  });
};

/** What was done to every answer before: JSON's length learnt by reading it, then hono/compress. */
async function otherAnswer(c: AppContext, streamed: ReturnType<typeof compress>) {
  const type = c.res.headers.get('content-type') ?? '';
  if (type.startsWith('application/json') && !c.res.headers.has('content-length')) {
    const size = (await c.res.clone().arrayBuffer()).byteLength;
    c.res.headers.set('content-length', String(size));
  }
  await streamed(c, async () => {});
}
