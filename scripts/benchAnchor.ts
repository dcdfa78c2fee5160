import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The one-form React login that /login is measured beside (issue 28): ../shared/anchors/lean-login,
 * or BENCH_ANCHOR_DIR for another copy of its source. Used by the firstload and Lighthouse parts.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ANCHOR_SRC = path.resolve(
  process.env.BENCH_ANCHOR_DIR ?? path.join(root, '../shared/anchors/lean-login'),
);

/**
 * Builds the anchor into `outDir` as its README says: copied inside the project (so its imports resolve
 * to the project's node_modules), built with the project's Vite and its own config, the copy removed.
 * Served by a portal started with DIST_DIR=outDir.
 */
export function buildAnchor(outDir: string): void {
  const copy = path.join(root, `.lean-login-bench-${process.pid}`);
  fs.cpSync(ANCHOR_SRC, copy, { recursive: true });
  try {
    // The source is read-only in CI: the copy is made writable so Vite can use it and it can be removed.
    for (const name of ['', ...fs.readdirSync(copy, { recursive: true, encoding: 'utf8' })])
      fs.chmodSync(path.join(copy, name), 0o755);
    execFileSync(
      process.execPath,
      [
        path.join(root, 'node_modules/vite/bin/vite.js'),
        'build',
        copy,
        '--config',
        path.join(copy, 'vite.config.mjs'),
        '--outDir',
        outDir,
        '--emptyOutDir',
        '--logLevel',
        'warn',
      ],
      { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
  // scripts/start.mjs rebuilds DIST_DIR with the portal's app when a source is newer than its
  // index.html (an edit while the bench runs): dated a day ahead, the anchor stays what is served.
  const ahead = new Date(Date.now() + 86_400_000);
  fs.utimesSync(path.join(outDir, 'index.html'), ahead, ahead);
}
