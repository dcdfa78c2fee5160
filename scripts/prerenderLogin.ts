import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { transform } from 'esbuild';
import { compile } from 'tailwindcss';
import { runnerImport, type Plugin } from 'vite';
import { LOGIN_PATH, SHELL_LESS } from '../contract/paths';
import { TOKEN_COOKIE } from '../contract/roles';
import { EARLY_SUBMIT_SCRIPT } from '../src/app/earlySubmit';
import type { renderLogin } from '../src/prerender';

/**
 * /login as a page of its own, written at build time (issue 28): `dist/login/index.html`, which the
 * portal's static handling serves for /login (a folder's index.html; server/http/spa.ts), while every
 * other path still gets `dist/index.html`.
 *
 *  - Its body is the login page rendered with react-dom/server (src/prerender.tsx: the app's root, at
 *    /login, signed out, no actors yet), marked `data-prerendered`, so src/main.tsx hydrates it: the form
 *    is painted with the HTML and typing works before any script has run; a submit made before hydration
 *    is held back by an inline script and made again once React owns the form (src/app/earlySubmit.ts).
 *  - Its styles are only the rules that HTML uses, inline: Tailwind compiles src/styles.css (without
 *    the toasts' sheet) for the class names found in the HTML. The full stylesheet is named in
 *    `<meta name="portal-styles">` and fetched when the user signs in or leaves /login
 *    (src/app/loadActors.ts).
 *  - Every other page's HTML preloads the app actors' chunk (XState, the machines, the API client) and
 *    the pages' chunk (src/Pages.tsx), which the entry no longer carries: those pages wait for the
 *    actors before they render (src/main.tsx).
 */
export function prerenderLogin(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'portal:prerender-login',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const indexFile = path.join(outDir, 'index.html');
      const index = fs.readFileSync(indexFile, 'utf8');

      // Every page but /login: the actors' chunk and what it imports, fetched beside the entry.
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const files = new Set<string>();
      const visit = (file: string) => {
        if (files.has(file) || index.includes(`/${file}"`)) return;
        files.add(file);
        chunks.find((c) => c.fileName === file)?.imports.forEach(visit);
      };
      for (const source of ['/src/app/appActors.ts', '/src/Pages.tsx', '/src/shell/pageChunks.ts']) {
        // The chunk the module starts, or (a module the shell's chunk imports too) the one that holds it.
        const chunk =
          chunks.find((c) => c.facadeModuleId?.endsWith(source)) ??
          chunks.find((c) => c.moduleIds.some((id) => id.endsWith(source)));
        if (!chunk) throw new Error(`prerender-login: the chunk of ${source} is missing`);
        visit(chunk.fileName);
      }
      const preloads = [...files]
        .map((file) => `    <link rel="modulepreload" crossorigin href="/${file}">\n`)
        .join('');
      // VineJS (the forms' checks, in every endpoint's contract): out of the first visit's path, named
      // for the shell to prefetch once the page is up (src/shell/prefetch.ts), on /login's page too.
      const vine = chunks.find((c) => c.moduleIds.some((id) => id.endsWith('/contract/formValidator.ts')));
      if (!vine) throw new Error('prerender-login: the chunk of contract/formValidator.ts is missing');
      const later = `    <meta name="portal-prefetch" content="/${vine.fileName}">\n`;
      const boot = writeShellPreload(
        outDir,
        chunks,
        (file) => files.has(file) || index.includes(`/${file}"`),
      );
      // Named before the entry: among the first requests of the page, so it runs early.
      const entry = '    <script type="module" crossorigin src=';
      if (!index.includes(entry)) throw new Error('prerender-login: index.html names no entry script');
      fs.writeFileSync(
        indexFile,
        index
          .replace(entry, `    <script type="module" async src="/${boot}"></script>\n${entry}`)
          .replace('  </head>', `${preloads}${later}  </head>`),
      );

      // /login: its HTML rendered, its own rules inline, the full sheet named for later.
      const { module } = await runnerImport<{ renderLogin: typeof renderLogin }>(
        path.join(root, 'src/prerender.tsx'),
        { configFile: false, root, logLevel: 'error' },
      );
      // React writes a preload of the form's image ahead of the markup: it belongs in <head>.
      const rendered = module.renderLogin();
      const hints = rendered.match(/^(?:<link [^>]*\/>)*/)![0];
      const body = rendered.slice(hints.length);
      const sheet = /\s*<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/.exec(index);
      if (!sheet) throw new Error('prerender-login: index.html names no stylesheet');
      const css = await loginCss(
        root,
        [...body.matchAll(/class="([^"]*)"/g)].flatMap((m) => m[1].split(/\s+/)),
      );
      const login = index
        .replace(
          sheet[0],
          `\n    <script>${EARLY_SUBMIT_SCRIPT}</script>\n    <style>${css}</style>\n    <meta name="portal-styles" content="${sheet[1]}">`,
        )
        .replace('  </head>', `    ${hints}\n${later}  </head>`)
        .replace('<div id="root"></div>', `<div id="root" data-prerendered="${LOGIN_PATH}">${body}</div>`);
      if (!login.includes(body)) throw new Error('prerender-login: index.html has no empty #root');
      fs.mkdirSync(path.join(outDir, LOGIN_PATH), { recursive: true });
      fs.writeFileSync(path.join(outDir, LOGIN_PATH, 'index.html'), login);
    },
  };
}

/**
 * A signed-in page of the shell opened cold asks for the shell's chunk only once the entry has run
 * (src/main.tsx → src/shell/pageChunks.ts): on slow 3G the entry alone takes some three seconds. This
 * small script, named by every page's HTML but /login's, runs as soon as it arrives and, with a session
 * cookie and a shell page's path, preloads the shell's chunk and what it imports beside the entry. The
 * public pages (/verify on a phone, the print pages) fetch nothing more. Returns the file's name.
 */
function writeShellPreload(
  outDir: string,
  chunks: { fileName: string; imports: string[]; moduleIds: string[] }[],
  preloaded: (file: string) => boolean,
): string {
  const shell = chunks.find((c) => c.moduleIds.some((id) => id.endsWith('/src/shell/Shell.tsx')));
  if (!shell) throw new Error('prerender-login: the chunk of src/shell/Shell.tsx is missing');
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file) || preloaded(file)) return;
    files.add(file);
    chunks.find((c) => c.fileName === file)?.imports.forEach(visit);
  };
  visit(shell.fileName);
  const { paths: exact, prefixes } = SHELL_LESS;
  const code = `const p=location.pathname;if(document.cookie.split("; ").some(c=>c.startsWith(${JSON.stringify(
    `${TOKEN_COOKIE}=`,
  )}))&&!${JSON.stringify(exact)}.includes(p)&&!${JSON.stringify(prefixes)}.some(x=>p.startsWith(x)))for(const f of ${JSON.stringify(
    [...files].map((file) => `/${file}`),
  )})document.head.append(Object.assign(document.createElement("link"),{rel:"modulepreload",crossOrigin:"",href:f}));\n`;
  const name = `assets/shell-preload-${createHash('sha256').update(code).digest('hex').slice(0, 8)}.js`;
  fs.writeFileSync(path.join(outDir, name), code);
  return name;
}

/** The rules of src/styles.css that these class names use (Tailwind's own compiler), minified. */
async function loginCss(root: string, classes: string[]): Promise<string> {
  const require = createRequire(path.join(root, 'package.json'));
  const source = fs
    .readFileSync(path.join(root, 'src/styles.css'), 'utf8')
    // The toasts' sheet: no toast is shown on /login.
    .replace(/^@import 'react-toastify\/[^']+';$/m, '');
  const compiler = await compile(source, {
    base: path.join(root, 'src'),
    loadStylesheet: async (id, base) => {
      const file = id === 'tailwindcss' ? require.resolve('tailwindcss/index.css') : path.resolve(base, id);
      return { path: file, base: path.dirname(file), content: fs.readFileSync(file, 'utf8') };
    },
  });
  const { code } = await transform(compiler.build([...new Set(classes)]), { loader: 'css', minify: true });
  return code.trim();
}
