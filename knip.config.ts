import type { KnipConfig } from 'knip';

/**
 * Dead code (`npm run knip`, part of `npm run check`): files no entry reaches, exports nobody imports
 * (an export only its own file uses loses its `export`), and dependencies nothing imports. Knip finds
 * most entries itself from package.json's scripts and its plugins (vite reads index.html, so
 * src/main.tsx; vitest, playwright, eslint and drizzle-kit read their configs); these are the ones it
 * cannot see.
 */
const config: KnipConfig = {
  entry: [
    // Built by scripts/start.mjs with esbuild, and run by tsx in the tests' portal processes.
    'server/main.ts',
    // Run as a worker thread by URL (server/candidates/zip.ts), copied beside the built server.
    'server/candidates/zipWorker.mjs',
    // The PDF drawing's worker thread, bundled beside the server by scripts/start.mjs (or, from the
    // sources, by server/documents/pdfThread.ts) and started by URL.
    'server/documents/pdfWorker.ts',
    // Run with tsx by hand or by npm scripts (bench-*, statecharts through charts).
    'scripts/*.ts',
    // Spawned as its own process by tests/api/attacks/crash-safety.test.ts. (The test files themselves
    // come from the vitest and playwright configs, so the helpers they import are checked too.)
    'tests/fixtures/storage-writer.ts',
  ],
  project: ['**/*.{ts,tsx,js,mjs,css}'],
  // The scripts' and the tests' exports are checked too: nothing imports an entry by accident.
  includeEntryExports: true,
  // System programs the benchmarks and the start-error test run, not npm packages.
  ignoreBinaries: ['wrk', 'mount', 'umount', 'psql'],
  // Read as font files by path (server/documents/pdfText.ts require.resolve), never imported.
  ignoreDependencies: ['dejavu-fonts-ttf'],
};

export default config;
