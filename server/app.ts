import { Hono, type ErrorHandler, type Handler, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import { inlineHashes } from './http/inlineHashes';
import type { AppEnv, Deps } from './http/context';
import { cachePolicy } from './http/cache';
import { compressAnswers, jsonAnswer } from './http/compress';
import { authorise, loggedPath, provide, requestLog } from './http/middleware';
import { DomainError } from './errors';
import { describeError, type Logger } from './log';
import { refuse } from './http/respond';
import { spaRoutes } from './http/spa';
import type { Route } from './http/route';
import { BODY_TOO_LARGE, bodyLimitOfForm, takesFiles } from './http/validate';
import { findRule } from './access';
import { callerOfToken } from './auth/tokens';
import { API_ROUTES } from './routes';
import { fileRoutes } from './routes/files';
import { SANDBOX_PREFIX } from './payments/provider';
import { sandboxRoutes } from './payments/sandbox';

/** JSON bodies are small; multipart bodies (routes that take files only) carry a handful of 2,000,000-byte uploads. */
const JSON_BODY_LIMIT = 256 * 1024;
export const MULTIPART_BODY_LIMIT = 24 * 1024 * 1024;

/** Smaller answers gain less from compression than its header and the work cost. */
const COMPRESS_ABOVE = 1024;

/** The API routes (server/routes/index.ts), each behind the access matrix read from the same list. */
function apiRoutes() {
  const api = new Hono<AppEnv>();
  for (const { method, path, handlers } of API_ROUTES)
    api.on(method, path, bodyLimitOf(handlers), ...(handlers as [Handler<AppEnv>]));
  return api;
}

const tooLarge = bodyLimit({
  maxSize: JSON_BODY_LIMIT,
  onError: (c) => refuse(c, 413, BODY_TOO_LARGE),
});
const tooLargeUpload = bodyLimit({
  maxSize: MULTIPART_BODY_LIMIT,
  onError: (c) => refuse(c, 413, BODY_TOO_LARGE),
});

/**
 * A route's body limit, by what the route takes, never by what the request's Content-Type claims: a
 * route that takes files (its form says so) allows a multipart body of a few uploads; every other
 * route reads JSON only, within JSON_BODY_LIMIT.
 */
function bodyLimitOf(handlers: Route['handlers']): MiddlewareHandler<AppEnv> {
  return withBody(limitOf(handlers));
}

/**
 * A GET or HEAD has no body to limit (@hono/node-server gives their requests none), and asking for it
 * makes @hono/node-server build the whole Fetch Request it otherwise leaves unmade: on a list's GET,
 * a tenth of a millisecond and garbage, for nothing (docs/performance.md, "An endpoint beside its SQL").
 */
const withBody =
  (limit: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> =>
  (c, next) =>
    c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limit(c, next);

function limitOf(handlers: Route['handlers']): MiddlewareHandler<AppEnv> {
  if (!takesFiles(handlers)) return tooLarge;
  // A form that says its own limit (bulk indexing's CSV and zip) has it; it alone. Its multipart body
  // is read as a stream by the form's reader (server/http/validate.ts), which counts the bytes of a
  // body sent without a Content-Length; here only the header is checked, so nothing reads the body
  // twice or holds all of it before the form's own caps (hono's bodyLimit buffers such a body whole).
  const own = bodyLimitOfForm(handlers);
  const upload: MiddlewareHandler<AppEnv> = own
    ? async (c, next) =>
        Number(c.req.header('content-length') ?? 0) > own ? refuse(c, 413, BODY_TOO_LARGE) : next()
    : tooLargeUpload;
  return (c, next) =>
    (c.req.header('content-type') ?? '').startsWith('multipart/form-data')
      ? upload(c, next)
      : tooLarge(c, next);
}

/** The sentence of every 500: it says nothing of what failed (the log line does, without secrets). */
export const SERVER_FAILURE = 'Something went wrong on our side. Please try again.';

/**
 * Errors into the envelope, in one place: refusals are thrown as domain errors (server/errors.ts) and
 * answered as they say; anything else is our failure, logged and answered with SERVER_FAILURE.
 */
export const answerError =
  (log: Logger): ErrorHandler<AppEnv> =>
  (error, c) => {
    if (error instanceof DomainError) return jsonAnswer(c, error.body(), error.status);
    log.error('request.failed', {
      id: c.get('requestId'),
      path: loggedPath(c.req.path),
      ...describeError(error),
    });
    return jsonAnswer(c, { success: false, message: SERVER_FAILURE }, 500);
  };

/** Paystack's inline script, its checkout frame, the styles the script injects, and its API. */
const PAYSTACK_ORIGINS = {
  script: ['https://js.paystack.co'],
  frame: ['https://checkout.paystack.com'],
  style: ["'unsafe-inline'"],
  // The inline script checks the access code with Paystack's API before it opens the checkout.
  connect: ['https://api.paystack.co'],
};

function securityHeaders(
  provider: typeof PAYSTACK_ORIGINS | null,
  inline: { script: string[]; style: string[] } = { script: [], style: [] },
) {
  return {
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      // VineJS compiles its validators with new Function; the built pages' own inline blocks are allowed
      // by their hashes (server/http/inlineHashes.ts); nothing else is loosened.
      scriptSrc: ["'self'", "'unsafe-eval'", ...inline.script, ...(provider?.script ?? [])],
      // A hash beside 'unsafe-inline' would switch 'unsafe-inline' off: Paystack's styles keep it alone.
      styleSrc: ["'self'", ...(provider?.style ?? inline.style)],
      imgSrc: ["'self'", 'data:', 'blob:'],
      connectSrc: ["'self'", ...(provider?.connect ?? [])],
      fontSrc: ["'self'"],
      frameSrc: ["'self'", ...(provider?.frame ?? [])],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
    },
    crossOriginEmbedderPolicy: false,
    // A response that sets its own header keeps it: stored files send a stricter CSP, the sandbox's
    // checkout lets the portal frame it.
    overwrite: false,
  };
}

export function createApp(deps: Deps) {
  const app = new Hono<AppEnv>();
  // Cache-Control by kind of answer (server/http/cache.ts), outermost: it sees what finally leaves.
  app.use('*', cachePolicy, provide(deps), requestLog);
  // JSON and any text made per request, gzipped above 1 KB for the slow links school admins are on.
  // Skipped by the middleware itself: images and PDFs (stored files are compressed formats already),
  // and responses that already carry a Content-Encoding (the SPA's files, compressed at build).
  app.use('*', compressAnswers(COMPRESS_ABOVE));
  const strict = secureHeaders(securityHeaders(null));
  // Read once: the built HTML files' inline blocks, for the SPA's pages with or without Paystack.
  const inline = inlineHashes(deps.config.distDir);
  const pages = secureHeaders(securityHeaders(null, inline));
  // With Paystack's keys the SPA's pages may load Paystack's script and frame its checkout; the API,
  // the stored files and the sandbox keep the strict policy (docs/decisions.md "Payments").
  const withProvider = deps.config.paystack
    ? secureHeaders(securityHeaders(PAYSTACK_ORIGINS, inline))
    : pages;
  app.use('*', (c, next) =>
    c.req.path.startsWith('/api/') ||
    c.req.path.startsWith('/files/') ||
    c.req.path.startsWith(SANDBOX_PREFIX)
      ? strict(c, next)
      : withProvider(c, next),
  );
  app.use('/api/*', authorise({ findRule, callerOfToken }));
  app.route('/', apiRoutes());
  app.onError(answerError(deps.log));
  // Stored files: signed-in users only (server/routes/files.ts), never the SPA's fallback.
  app.route('/files', fileRoutes);
  // The sandbox payment provider, only when no Paystack keys are set (server/payments/sandbox.ts).
  if (!deps.config.paystack) app.route(SANDBOX_PREFIX, sandboxRoutes(deps));
  app.route('/', spaRoutes(deps.config.distDir));
  return app;
}
