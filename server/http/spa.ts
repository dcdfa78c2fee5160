import fs from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { AppEnv } from './context';

/** The built SPA: hashed assets cached for a year, every other path answered with index.html. */
export function spaRoutes(distDir: string) {
  const app = new Hono<AppEnv>();
  const indexFile = path.join(distDir, 'index.html');
  const root = path.relative(process.cwd(), distDir) || '.';
  // Without a build (API tests, a fresh clone before `npm start`) only the fallback below answers.
  if (fs.existsSync(distDir)) {
    app.use(
      '/assets/*',
      serveStatic({
        root,
        onFound: (_path, c) => {
          c.header('Cache-Control', 'public, max-age=31536000, immutable');
        },
      }),
    );
    app.use('*', serveStatic({ root }));
  }
  app.get('*', (c) => {
    if (!fs.existsSync(indexFile)) {
      return c.text('The portal has not been built yet: run `npm start`, which builds it.', 503);
    }
    c.header('Cache-Control', 'no-cache');
    return c.html(fs.readFileSync(indexFile, 'utf8'));
  });
  return app;
}
