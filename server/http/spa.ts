import fs from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { CACHE } from './cache';
import type { AppEnv } from './context';

/** Hashed assets change name when they change: a browser keeps them for a year. */
const IMMUTABLE = CACHE.immutableAsset;
/** Other static files (the favicon, the placeholder photo) keep their names: a day, then asked again. */
const A_DAY = CACHE.fixedNameAsset;
/** index.html names the assets of the release: asked for again at every load (1.2 KB compressed). */
const REVALIDATE = CACHE.index;

/**
 * The built SPA: hashed assets cached for a year, every other path answered with index.html. Text files
 * were compressed at build (vite.config.ts writes a `.br` and a `.gz` beside each), so the one the
 * browser accepts goes out as it is, with `Vary: Accept-Encoding`; nothing is compressed per request.
 */
export function spaRoutes(distDir: string) {
  const app = new Hono<AppEnv>();
  const indexFile = path.join(distDir, 'index.html');
  const root = path.relative(process.cwd(), distDir) || '.';
  const cacheFor = (value: string) => (_path: string, c: Context) => {
    c.header('Cache-Control', value);
  };
  // Without a build (API tests, a fresh clone before `npm start`) only the fallback below answers.
  if (fs.existsSync(distDir)) {
    app.use('/assets/*', serveStatic({ root, precompressed: true, onFound: cacheFor(IMMUTABLE) }));
    app.use(
      '*',
      serveStatic({
        root,
        precompressed: true,
        onFound: (file, c) =>
          cacheFor(path.basename(file).startsWith('index.html') ? REVALIDATE : A_DAY)(file, c),
      }),
    );
  }
  // Made at the first request that finds a build: serveStatic complains at once of a missing root.
  let index: MiddlewareHandler<AppEnv> | null = null;
  app.get('*', async (c, next) => {
    if (!fs.existsSync(indexFile)) {
      return c.text('The portal has not been built yet: run `npm start`, which builds it.', 503);
    }
    index ??= serveStatic<AppEnv>({
      root,
      path: 'index.html',
      precompressed: true,
      onFound: cacheFor(REVALIDATE),
    });
    return index(c, next);
  });
  return app;
}
