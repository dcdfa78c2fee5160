import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { createMiddleware } from 'hono/factory';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv, Deps } from './http/context';
import { authorise, provide, requestLog } from './http/middleware';
import { refuse } from './http/respond';
import { spaRoutes } from './http/spa';
import { authRoutes } from './routes/auth';
import { candidateRoutes } from './routes/candidates';
import { courseRoutes } from './routes/courses';
import { fileRoutes } from './routes/files';
import { healthRoutes } from './routes/health';
import { listRoutes } from './lists';
import { impersonateRoutes, switchBackRoutes } from './routes/impersonation';
import { messageBoardRoutes, notificationRoutes } from './routes/notifications';
import { offenderRoutes } from './routes/offenders';
import { passwordResetRoutes } from './routes/passwordReset';
import { adminProfileRoutes, profileRoutes, schoolProfileRoutes } from './routes/profile';
import { referenceRoutes } from './routes/reference';
import { boardRegistrationRoutes, schoolRegistrationRoutes } from './routes/registration';
import { boardResitRoutes, schoolResitRoutes } from './routes/resits';
import { schoolRoutes } from './routes/schools';

/** JSON bodies are small; multipart bodies carry at most a handful of 2,000,000-byte uploads. */
export const JSON_BODY_LIMIT = 256 * 1024;
export const MULTIPART_BODY_LIMIT = 24 * 1024 * 1024;

/** Smaller answers gain less from compression than its header and the work cost. */
const COMPRESS_ABOVE = 1024;

/**
 * Content-Length on JSON answers (Hono leaves it to the socket), so compression can leave the small
 * ones as they are: hono/compress judges size by that header.
 */
const jsonLength = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const type = c.res.headers.get('content-type') ?? '';
  if (!type.startsWith('application/json') || c.res.headers.has('content-length')) return;
  const size = (await c.res.clone().arrayBuffer()).byteLength;
  c.res.headers.set('content-length', String(size));
});

/** The API routes, composed from one module an area; who may call each is server/access.ts. */
export function apiRoutes() {
  return (
    new Hono<AppEnv>()
      .route('/health', healthRoutes)
      .route('/auth', authRoutes)
      .route('/auth', switchBackRoutes)
      .route('/auth', passwordResetRoutes)
      // Both roles, each under its own prefix.
      .route('/admin', profileRoutes)
      .route('/training-school-admin', profileRoutes)
      .route('/admin', referenceRoutes)
      .route('/training-school-admin', referenceRoutes)
      // Board admins.
      .route('/admin', adminProfileRoutes)
      .route('/admin', impersonateRoutes)
      .route('/admin', schoolRoutes)
      .route('/admin', notificationRoutes)
      .route('/admin', candidateRoutes)
      .route('/admin', boardRegistrationRoutes)
      .route('/admin', offenderRoutes)
      .route('/admin', boardResitRoutes)
      .route('/admin', courseRoutes)
      // School admins.
      .route('/training-school-admin', schoolProfileRoutes)
      .route('/training-school-admin', messageBoardRoutes)
      .route('/training-school-admin', schoolRegistrationRoutes)
      .route('/training-school-admin', schoolResitRoutes)
      // Every list of every area, each from its definition (server/lists/).
      .route('/', listRoutes)
  );
}

export function createApp(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', provide(deps), requestLog);
  // JSON and any text made per request, gzipped above 1 KB for the slow links school admins are on.
  // Skipped by the middleware itself: images and PDFs (stored files are compressed formats already),
  // and responses that already carry a Content-Encoding (the SPA's files, compressed at build).
  app.use('*', compress({ threshold: COMPRESS_ABOVE }), jsonLength);
  app.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        // VineJS compiles its validators with new Function; nothing else is loosened.
        scriptSrc: ["'self'", "'unsafe-eval'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
      crossOriginEmbedderPolicy: false,
      // A response that sets its own header keeps it: stored files send a stricter CSP.
      overwrite: false,
    }),
  );
  app.use('/api/*', async (c, next) => {
    const multipart = (c.req.header('content-type') ?? '').startsWith('multipart/form-data');
    return bodyLimit({
      maxSize: multipart ? MULTIPART_BODY_LIMIT : JSON_BODY_LIMIT,
      onError: (c) => refuse(c, 413, 'The request is too large.'),
    })(c, next);
  });
  app.use('/api/*', authorise);
  app.route('/api', apiRoutes());
  app.onError((error, c) => {
    deps.log.error('request.failed', {
      id: c.get('requestId'),
      path: c.req.path,
      error: String(error.stack ?? error),
    });
    return c.json({ success: false, message: 'Something went wrong on our side. Please try again.' }, 500);
  });
  // Stored files: signed-in users only (server/routes/files.ts), never the SPA's fallback.
  app.route('/files', fileRoutes);
  app.route('/', spaRoutes(deps.config.distDir));
  return app;
}
