import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Fewer, larger chunks for the pages after /login. Left to rolldown's automatic chunks (one chunk per
 * set of importers), a Dashboard opened cold was 45 scripts and the Index Form reached from the sidebar
 * 22 more, each a round trip queued on HTTP/1.1's six connections (Lighthouse's 150 ms, slow 3G's
 * 400 ms). Four groups, computed from the module graph when it is complete, so a module joins its group
 * without a list to keep:
 * - `appActors`: what every page but /login runs, the public ones (/verify from a QR code on a phone)
 *   included, and what its HTML preloads: the app's actors, the pages' router, the page chunks' table;
 * - `common`: what every signed-in page runs beyond that, the printable page (which has no shell)
 *   included: what the shell and the printable page share, and what half the pages or more use with the
 *   Dashboard or the printable page (the clock's formats, the diets', schools' and payments' contracts);
 * - `Shell`: the signed-in frame and the rest of what it imports;
 * - `lists`: what two pages or more share (the list machinery, the areas' list definitions, the tabs
 *   and the history), but not what the Dashboard or the printable page uses: they do not load it.
 * No group takes a module /login's entry holds (the entry stays as it is: issue 28's /login within
 * 1.2x). What is grouped by counting the pages that use it (`common`'s most-used modules and `lists`)
 * is never a package's module nor one that imports VineJS (the forms' checks, which the Dashboard and
 * the Registered list are drawn without). The pages' own modules stay automatic.
 */
const ENTRY = 'src/main.tsx';
/** Every page's HTML but /login's preloads these and what they import (scripts/prerenderLogin.ts). */
export const EVERY_PAGE = ['src/app/appActors.ts', 'src/Pages.tsx', 'src/shell/pageChunks.ts'];
const SHELL = 'src/shell/Shell.tsx';
/** Its dynamic imports are the pages' chunks. */
const PAGE_TABLE = 'src/shell/pageTable.ts';
/** A printable document: a signed-in page without the shell. */
const PRINTABLE = 'src/pages/PrintDocumentPage.tsx';
const WITHOUT_LISTS = ['src/pages/dashboard/DashboardPage.tsx', PRINTABLE];

/** The chunks' names (`appActors` and `Shell`: the modules that started them before). */
export type ChunkGroup = 'appActors' | 'common' | 'Shell' | 'lists';

/** A module and every module it imports statically, transitively. */
function staticClosure(imports: (id: string) => readonly string[], roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...imports(id));
  }
  return seen;
}

const isPackage = (id: string) => id.includes('/node_modules/');
const isVine = (id: string) => id.includes('/node_modules/@vinejs/');

/**
 * The plugin reads the module graph once it is complete (buildEnd); `groupOf` answers rolldown's
 * chunking, which runs after it (vite.config.ts's `codeSplitting.groups`).
 */
export function chunkGroups(): { plugin: Plugin; groupOf(id: string): ChunkGroup | null } {
  const groups = new Map<string, ChunkGroup>();
  let root = '';
  return {
    groupOf: (id) => groups.get(id) ?? null,
    plugin: {
      name: 'portal:chunk-groups',
      apply: 'build',
      configResolved(config) {
        root = config.root;
      },
      buildEnd() {
        groups.clear();
        const imports = (id: string) => this.getModuleInfo(id)?.importedIds ?? [];
        const closure = (ids: readonly string[]) => staticClosure(imports, ids);
        // A root renamed or moved would leave its group silently empty: the build stops instead.
        const resolved = (files: string[]) =>
          files.map((file) => {
            const id = path.resolve(root, file);
            if (!this.getModuleInfo(id)) this.error(`chunk-groups: ${file} is not in the module graph`);
            return id;
          });
        const entry = closure(resolved([ENTRY]));
        const shell = closure(resolved([SHELL]));
        const printable = closure(resolved([PRINTABLE]));
        const withoutLists = closure(resolved(WITHOUT_LISTS));
        const pages = this.getModuleInfo(resolved([PAGE_TABLE])[0])?.dynamicallyImportedIds ?? [];
        const reached = new Map<string, string[]>();
        const reachedFrom = (id: string) => reached.get(id) ?? reached.set(id, [...closure([id])]).get(id)!;
        const groupable = (id: string) => !entry.has(id) && !isPackage(id) && !reachedFrom(id).some(isVine);
        // How many pages use each module, from their static imports.
        const uses = new Map<string, number>();
        for (const page of pages) for (const id of closure([page])) uses.set(id, (uses.get(id) ?? 0) + 1);

        for (const id of closure(resolved(EVERY_PAGE))) groups.set(id, 'appActors');
        for (const id of shell) if (!groups.has(id)) groups.set(id, printable.has(id) ? 'common' : 'Shell');
        for (const [id, count] of uses) {
          if (groups.has(id) || !groupable(id)) continue;
          if (withoutLists.has(id)) {
            // Not one that needs the shell's modules: the printable page runs without the shell.
            const withoutShell = reachedFrom(id).every((other) => groups.get(other) !== 'Shell');
            if (count * 2 >= pages.length && withoutShell) groups.set(id, 'common');
          } else if (count >= 2) groups.set(id, 'lists');
        }
        for (const id of entry) groups.delete(id);
      },
    },
  };
}
