import fs from 'node:fs';
import path from 'node:path';
import { runnerImport, type Plugin } from 'vite';
import type { renderSplash } from '../src/prerenderSplash';

/**
 * Every page but /login (dist/index.html: the signed-in pages, /verify, the print pages) paints its
 * loading splash from the HTML (issue 28): before, #root stayed empty until the entry, the actors' chunk
 * and React had run, so nothing was painted for some 2.6 s on Lighthouse's phone. The splash is the
 * app's own (src/prerenderSplash.tsx), styled by the stylesheet the HTML links; no inline style or
 * script, so the CSP is unchanged. createRoot replaces it on its first render (src/main.tsx): its nodes
 * are removed, not moved, which is no layout shift.
 *
 * Runs after portal:prerender-login has written both HTML files (that plugin fills /login's empty #root
 * from the same index.html, so this one must come after it) and before the files are compressed.
 */
export function prerenderSplash(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'portal:prerender-splash',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const indexFile = path.join(outDir, 'index.html');
        const index = fs.readFileSync(indexFile, 'utf8');
        const empty = '<div id="root"></div>';
        if (!index.includes(empty)) throw new Error('prerender-splash: index.html has no empty #root');
        const { module } = await runnerImport<{ renderSplash: typeof renderSplash }>(
          path.join(root, 'src/prerenderSplash.tsx'),
          { configFile: false, root, logLevel: 'error' },
        );
        fs.writeFileSync(indexFile, index.replace(empty, `<div id="root">${module.renderSplash()}</div>`));
      },
    },
  };
}
