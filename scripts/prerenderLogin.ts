import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { transform } from 'esbuild';
import { compile } from 'tailwindcss';
import { runnerImport, type Plugin } from 'vite';
import { LOGIN_PATH, PRINT_DOCUMENT_PREFIX, SHELL_LESS } from '../contract/paths';
import { IMPERSONATION_COOKIE } from '../contract/impersonation';
import { ROLE_COOKIE, TOKEN_COOKIE } from '../contract/roles';
import { EARLY_SUBMIT_SCRIPT } from '../src/app/earlySubmit';
import { EVERY_PAGE } from './chunkGroups';
import type { renderLogin } from '../src/prerender';
import type { COLD_READS } from '../src/shell/coldReads';

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
  let apiUrl = '';
  return {
    name: 'portal:prerender-login',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      apiUrl = String(config.env.VITE_API_URL ?? '');
    },
    async writeBundle(_options, bundle) {
      const indexFile = path.join(outDir, 'index.html');
      const index = fs.readFileSync(indexFile, 'utf8');

      // Every page but /login: the actors' chunk and what it imports, fetched beside the entry.
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const inIndex = (file: string) => index.includes(`/${file}"`);
      const files = chunkClosure(
        chunks,
        EVERY_PAGE.map((file) => chunkHolding(chunks, root, file)),
        inIndex,
      );
      const preloads = files
        .map((file) => `    <link rel="modulepreload" crossorigin href="${file}">\n`)
        .join('');
      // VineJS (the forms' checks, in every endpoint's contract): out of the first visit's path, named
      // for the shell to prefetch once the page is up (src/shell/prefetch.ts), on /login's page too.
      const vine = chunkHolding(chunks, root, 'contract/formValidator.ts');
      const later = `    <meta name="portal-prefetch" content="/${vine}">\n`;
      const boot = await writeShellPreload(
        { root, outDir, apiUrl },
        chunks,
        (file) => files.includes(`/${file}`) || inIndex(file),
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

type Chunk = { fileName: string; imports: string[]; moduleIds: string[] };

/** The file of the chunk holding a module (`file`, from the project's root): its own, or its group's. */
function chunkHolding(chunks: Chunk[], root: string, file: string): string {
  const id = path.join(root, file);
  const chunk = chunks.find((c) => c.moduleIds.includes(id));
  if (!chunk) throw new Error(`prerender-login: the chunk of ${file} is missing`);
  return chunk.fileName;
}

/** Chunks and what they import, transitively, as the paths a page names them by, less what `skip` says. */
function chunkClosure(chunks: Chunk[], starts: string[], skip: (file: string) => boolean): string[] {
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file) || skip(file)) return;
    files.add(file);
    chunks.find((c) => c.fileName === file)?.imports.forEach(visit);
  };
  starts.forEach(visit);
  return [...files].map((file) => `/${file}`);
}

/**
 * A signed-in page opened cold (a bookmark, a reload) asks for its chunks and its first reads only once
 * the entry has run (src/main.tsx): on slow 3G the entry alone takes some three seconds, and the reads
 * then waited for the session's profile. This small script, named by every page's HTML but /login's,
 * runs as soon as it arrives and, with a session cookie, preloads the shell's chunk and the page's own
 * (by src/shell/pageTable.ts's table, the longest page path the address sits under, as the app finds
 * it) or a print page's, and asks for the page's first reads or a print page's document
 * (src/shell/coldReads.ts) with the token,
 * leaving the answers in `__coldReads` for the API client (src/api/coldAnswers.ts). An impersonation
 * gets the chunks only (its page knows whom it shows). The public pages (/verify on a phone,
 * /statecharts) fetch nothing more. Returns the file's name.
 */
async function writeShellPreload(
  at: { root: string; outDir: string; apiUrl: string },
  chunks: Chunk[],
  preloaded: (file: string) => boolean,
): Promise<string> {
  const chunkOf = (id: string) => chunkHolding(chunks, at.root, id);
  /** Chunks and what they import, less what the HTML preloads already. */
  const closure = (...starts: string[]) => chunkClosure(chunks, starts, preloaded);
  const run = <T>(file: string) =>
    runnerImport<T>(path.join(at.root, file), { configFile: false, root: at.root, logLevel: 'error' });
  const [{ module: table }, { module: reads }] = await Promise.all([
    run<typeof import('../src/shell/pageTable')>('src/shell/pageTable.ts'),
    run<{ COLD_READS: typeof COLD_READS }>('src/shell/coldReads.ts'),
  ]);
  // A page's chunk function names its modules: read from its source as the module runner wrote it (a
  // dynamic import becomes `__vite_ssr_dynamic_import__("/src/…")`), following a call of another.
  const loaders = table as unknown as Record<string, unknown>;
  const modulesOf = (loader: () => unknown, seen = new Set<unknown>()): string[] => {
    if (seen.has(loader)) return [];
    seen.add(loader);
    const source = String(loader);
    const own = [...source.matchAll(/__vite_ssr_dynamic_import__\("([^"]+)"\)/g)].map((m) => m[1]);
    const called = [...source.matchAll(/\b(\w+)\(\)/g)]
      .map((m) => loaders[m[1]])
      .filter((f): f is () => unknown => typeof f === 'function');
    return [...own, ...called.flatMap((f) => modulesOf(f, seen))];
  };
  const pages = Object.fromEntries(
    Object.entries(table.PAGE_CHUNKS).map(([page, loader]) => {
      const modules = modulesOf(loader);
      if (modules.length === 0) throw new Error(`prerender-login: no chunk found for ${page}`);
      return [page, closure(...modules.map(chunkOf))];
    }),
  );
  const shell = closure(chunkOf('/src/shell/Shell.tsx'));
  const printed = closure(...modulesOf(table.printDocumentChunk).map(chunkOf));
  // Each file named once (F), the lists as its indices: the pages share most of their chunks.
  const named = [...new Set([...shell, ...printed, ...Object.values(pages).flat()])];
  const indices = (files: string[]) => files.map((file) => named.indexOf(file));
  // A page's list leaves out the shell's, which precedes it.
  const byPage = Object.fromEntries(
    Object.entries(pages).map(([page, files]) => [
      page,
      indices(files.filter((file) => !shell.includes(file))),
    ]),
  );
  const { paths: exact, prefixes } = SHELL_LESS;
  const json = JSON.stringify;
  // Minified by hand: it is the first script of every signed-in page. C: the cookies as sent, c: one of
  // them decoded (as src/api/cookies.ts, only the ones read: another site's odd cookie cannot stop it); s: a shell page.
  const code =
    `const p=location.pathname,C=Object.fromEntries(document.cookie.split("; ").map(x=>{const i=x.indexOf("=");return[x.slice(0,i),x.slice(i+1)]})),c=n=>C[n]&&decodeURIComponent(C[n]),t=c(${json(TOKEN_COOKIE)});` +
    `if(t){const s=!${json(exact)}.includes(p)&&!${json(prefixes)}.some(x=>p.startsWith(x)),F=${json(named)},T=${json(byPage)},` +
    `k=Object.keys(T).filter(x=>p===x||p.startsWith(x+"/")).sort((a,b)=>b.length-a.length)[0],` +
    `f=p.startsWith(${json(PRINT_DOCUMENT_PREFIX)})?${json(indices(printed))}:s?[...${json(indices(shell))},...(k?T[k]:[])]:[];` +
    `for(const h of f)document.head.append(Object.assign(document.createElement("link"),{rel:"modulepreload",crossOrigin:"",href:F[h]}));` +
    `const r=c(${json(ROLE_COOKIE)}),R=${json(reads.COLD_READS)},` +
    // The reads: a shell page's (R.shell, R.pages), or a print page's document (R.print: its ending
    // and its query as src/pages/documents/choice.ts writes it). No reads in an impersonation.
    `e=p.slice(${json(PRINT_DOCUMENT_PREFIX.length)}),P=R.print,Q=new URLSearchParams(location.search),` +
    `d=new URLSearchParams(P.params.filter(x=>Q.get(x)).map(x=>[x,Q.get(x)]))+"",` +
    `q=s?[...(R.shell[r]??[]),...(R.pages[p]?.[r]??[])]:P.paths[r]&&P.endings.includes(e)?[P.paths[r].replace(":ending",encodeURIComponent(e))+(d?"?"+d:"")]:[];` +
    `if(q.length&&!C[${json(IMPERSONATION_COOKIE)}]){const a={};` +
    `for(const x of q){const u=${json(at.apiUrl)}+x,g=fetch(u,{headers:{Accept:"application/json",Authorization:"Bearer "+t}});g.catch(()=>{});a[u]=g}` +
    `globalThis.__coldReads={at:Date.now(),answers:a}}}\n`;
  const name = `assets/shell-preload-${createHash('sha256').update(code).digest('hex').slice(0, 8)}.js`;
  fs.writeFileSync(path.join(at.outDir, name), code);
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
