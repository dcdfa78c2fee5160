import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * A signed-in page opened cold needs the actors, the shell and the page. Left to rolldown's automatic
 * chunks (one chunk per set of importers) the first two were 33 files beside the entry, each a round
 * trip queued on HTTP/1.1's six connections (Lighthouse's 150 ms, slow 3G's 400 ms). These groups put
 * them in two files, computed from the module graph, so a module added to the shell joins its group
 * without a list to keep:
 * - `appActors`: what every signed-in page runs, the printable page (which has no shell) included: the app's
 *   actors (src/app/appActors.ts) and what they import, and what the shell and the printable page share;
 * - `Shell`: the signed-in frame (the shell, the page router, the page tables) and the rest of what it
 *   imports.
 * Neither takes a module /login's entry holds: the entry stays as it is (issue 28's /login within 1.2x).
 */
const ENTRY = 'src/main.tsx';
const ACTORS = ['src/app/appActors.ts'];
const SHELL = ['src/shell/Shell.tsx', 'src/Pages.tsx', 'src/shell/pageChunks.ts', 'src/shell/pageTable.ts'];
const WITHOUT_SHELL = ['src/pages/PrintDocumentPage.tsx'];

/** The chunks' names: the modules that start them, now with what they import. */
export type ChunkGroup = 'appActors' | 'Shell';

/** A module and every module it imports statically, transitively. */
function staticClosure(imports: (id: string) => readonly string[], roots: string[]): Set<string> {
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
        const closure = (files: string[]) =>
          staticClosure(
            (id) => this.getModuleInfo(id)?.importedIds ?? [],
            files.map((file) => path.resolve(root, file)),
          );
        const entry = closure([ENTRY]);
        const shell = closure(SHELL);
        const withoutShell = closure(WITHOUT_SHELL);
        for (const id of closure(ACTORS)) groups.set(id, 'appActors');
        for (const id of shell)
          groups.set(id, withoutShell.has(id) ? 'appActors' : (groups.get(id) ?? 'Shell'));
        for (const id of entry) groups.delete(id);
      },
    },
  };
}
