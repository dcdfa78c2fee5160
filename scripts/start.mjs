// `npm start`: rebuild what is stale (the SPA with Vite, the server bundle with esbuild), then run the
// portal. Plain JavaScript on purpose: it starts in milliseconds, and the bundled server loads in a
// fraction of the time a TypeScript loader would take (docs/performance.md).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.resolve(process.env.DIST_DIR ?? path.join(root, 'dist'));
// Inside the project, so the bundle finds node_modules; a second checkout of the build (parallel
// browser suites on one machine) names its own with SERVER_BUILD_DIR.
const serverOut = path.resolve(root, process.env.SERVER_BUILD_DIR ?? 'dist-server');
const serverEntry = path.join(serverOut, 'main.mjs');

function newestChange(entry) {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(entry)
    .reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), 0);
}

const builtAt = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);
const changedAt = (entries) => Math.max(...entries.map((entry) => newestChange(path.join(root, entry))));

async function buildSpaWhenStale() {
  const sources = [
    'src',
    'machines',
    'contract',
    'docs/statecharts', // the charts /statecharts draws
    'public',
    'index.html',
    'vite.config.ts',
    'package-lock.json',
  ];
  if (builtAt(path.join(distDir, 'index.html')) >= changedAt(sources)) return;
  console.log('Building the web app (its sources changed since the last build)...');
  const { build } = await import('vite');
  await build({ root, logLevel: 'warn', build: { outDir: distDir, emptyOutDir: true } });
}

async function buildServerWhenStale() {
  // The OpenAPI document is bundled in (server/routes/meta.ts).
  const sources = ['server', 'contract', 'docs/openapi.json', 'package-lock.json', 'scripts/start.mjs'];
  if (builtAt(serverEntry) >= changedAt(sources)) return;
  const esbuild = await import('esbuild');
  fs.rmSync(serverOut, { recursive: true, force: true });
  await esbuild.build({
    // The PDF drawing's worker thread runs from a bundle of its own beside the server's
    // (server/documents/pdfThread.ts).
    entryPoints: [
      { in: path.join(root, 'server/main.ts'), out: 'main' },
      { in: path.join(root, 'server/documents/pdfWorker.ts'), out: 'pdfWorker' },
    ],
    outdir: serverOut,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  // The bundle finds its migrations beside itself, as server/db/client.ts does in the sources.
  fs.cpSync(path.join(root, 'server/db/migrations'), path.join(serverOut, 'migrations'), { recursive: true });
  // The zip reader's worker thread runs from a file of its own, found beside the bundle as beside its
  // caller in the sources (server/candidates/zip.ts).
  fs.copyFileSync(path.join(root, 'server/candidates/zipWorker.mjs'), path.join(serverOut, 'zipWorker.mjs'));
}

await Promise.all([buildSpaWhenStale(), buildServerWhenStale()]);
await import(pathToFileURL(serverEntry).href);
