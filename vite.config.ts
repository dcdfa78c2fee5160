import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';
import { prerenderLogin } from './scripts/prerenderLogin';
import { prerenderSplash } from './scripts/prerenderSplash';
import { chunkGroups } from './scripts/chunkGroups';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** Text the browser fetches; images and fonts of compressed formats gain nothing. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes a `.br` (brotli, best quality) and a `.gz` beside every text file of the build, once, so the
 * server sends the one the browser accepts without compressing per request (server/http/spa.ts).
 * A compressed copy that is not smaller than the file is not written.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'portal:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      // A build that failed wrote nothing: its own error is the one to read, not a missing folder's.
      if (!fs.existsSync(outDir)) return;
      const files = fs.readdirSync(outDir, { recursive: true, encoding: 'utf8' });
      await Promise.all(
        files
          .filter((name) => COMPRESSIBLE.test(name))
          .map(async (name) => {
            const file = path.join(outDir, name);
            const content = fs.readFileSync(file);
            const [br, gz] = await Promise.all([
              brotli(content, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
                },
              }),
              gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
            ]);
            if (br.length < content.length) fs.writeFileSync(`${file}.br`, br);
            if (gz.length < content.length) fs.writeFileSync(`${file}.gz`, gz);
          }),
      );
    },
  };
}

const groups = chunkGroups();

/** The SPA. In development `npm run dev` proxies /api to a portal started with `npm start` on PORT. */
export default defineConfig({
  plugins: [react(), tailwindcss(), groups.plugin, prerenderLogin(), prerenderSplash(), precompress()],
  build: {
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The signed-in pages' shared chunks (scripts/chunkGroups.ts); the rest automatic. A group is
          // already what its roots import: taking its modules' imports too would take the entry's.
          groups: [{ name: (id) => groups.groupOf(id), includeDependenciesRecursively: false }],
        },
      },
    },
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: {
    proxy: { '/api': `http://localhost:${process.env.PORT ?? 3000}` },
  },
});
