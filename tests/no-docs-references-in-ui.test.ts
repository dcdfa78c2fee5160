import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Help text in the UI is plain guidance, never a pointer to the project's docs such as '(docs: …)'
 * (issue 22): the person reading it has no docs folder. Any file under src/ holding one fails here.
 */

const SRC = path.resolve(import.meta.dirname, '..', 'src');

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    );
}

describe('the UI', () => {
  it("has no '(docs:' in any file under src/", () => {
    const files = filesUnder(SRC);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (line.includes('(docs:') ? [`${path.relative(SRC, file)}:${i + 1}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
