import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * /login's first load carries the app's entry and what it imports statically, whole (issue 28, item 2:
 * within 1.2x the bytes of a one-form React page). A module the entry reaches for one constant brings
 * every export any later chunk uses: the sidebar and its labels once came with LOGIN_PATH, the date
 * field's formatting with the controls, two areas' contracts with their page paths. This walks the
 * entry's static imports (not `import()`, not `import type`) and holds those out.
 */
const root = path.resolve(__dirname, '../..');

function staticImports(file: string): string[] {
  const source = fs.readFileSync(file, 'utf8');
  const specifiers = [...source.matchAll(/^import\s+(?!type\b)(?:[^'";]*?\s+from\s+)?'([^']+)';/gm)].map(
    (m) => m[1],
  );
  return specifiers
    .filter((s) => s.startsWith('.'))
    .map((s) => resolve(path.resolve(path.dirname(file), s)))
    .filter((f): f is string => f !== null);
}

function resolve(base: string): string | null {
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`])
    if (/\.tsx?$/.test(candidate) && fs.existsSync(candidate)) return candidate;
  return null; // a stylesheet or an asset
}

function reachedFrom(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    staticImports(file).forEach(visit);
  };
  visit(path.join(root, entry));
  return new Set([...seen].map((file) => path.relative(root, file)));
}

describe("/login's entry", () => {
  const reached = reachedFrom('src/main.tsx');

  it('is walked through its imports (the pages it renders and the paths it reads)', () => {
    expect(reached).toContain('src/pages/LoginPage.tsx');
    expect(reached).toContain('src/ui/controls.tsx');
    expect(reached).toContain('contract/paths.ts');
  });

  it.each([
    ['contract/navigation.ts', 'the sidebar, the sub-pages and the print titles'],
    ['src/ui/DateField.tsx', 'the date field and the board-date formatting'],
    ['contract/format.ts', "the board's clock and formats"],
    ['contract/broadcasts.ts', "the broadcasts' contract"],
    ['contract/statecharts.ts', "the statecharts' anchors"],
    ['contract/formValidator.ts', 'VineJS'],
  ])('does not import %s (%s)', (module) => {
    expect(reached).not.toContain(module);
  });
});
