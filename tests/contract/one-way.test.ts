import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One way per concept (issue 24): every validator is made by formValidator, a date written YYYY-MM-DD is
 * checked by the one rule in contract/dates.ts, and a diet code becomes a diet in server/diets/byCode.ts
 * alone. Each check reads the sources and names the lines that go another way.
 */

const ROOT = path.resolve(import.meta.dirname, '..', '..');

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    )
    .filter((file) => /\.tsx?$/.test(file));
}

const sources = ['contract', 'server', 'src'].flatMap((dir) =>
  filesUnder(path.join(ROOT, dir)).map((file) => ({
    file: path.relative(ROOT, file),
    lines: fs.readFileSync(file, 'utf8').split('\n'),
  })),
);

/** `file:line` of every line matching `pattern`, outside the files allowed to. */
const linesMatching = (pattern: RegExp, allowed: string[]) =>
  sources
    .filter(({ file }) => !allowed.includes(file))
    .flatMap(({ file, lines }) =>
      lines.flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}`] : [])),
    );

/** A line of code, not of a comment: a path named in a sentence is not a path written. */
const isComment = (line: string) => /^\s*(\/\/|\/?\*)/.test(line);

describe('one way per concept', () => {
  it('reads the sources', () => {
    expect(sources.length).toBeGreaterThan(200);
  });

  it('makes every validator with formValidator', () => {
    expect(
      linesMatching(/vine\.create\(|vine\.compile\(|new Vine\(|new VineValidator\(|messagesProvider\s*=/, [
        'contract/formValidator.ts',
      ]),
    ).toEqual([]);
  });

  it('keeps validators in the contract, where the SPA can run them too: no route file builds one', () => {
    const routeFiles = sources.filter(({ file }) => file.startsWith('server/routes/'));
    expect(routeFiles.length).toBeGreaterThan(10);
    expect(
      routeFiles.flatMap(({ file, lines }) =>
        lines.flatMap((line, i) =>
          /from '@vinejs\/vine'|formValidator\(/.test(line) ? [`${file}:${i + 1}`] : [],
        ),
      ),
    ).toEqual([]);
  });

  it('checks a YYYY-MM-DD date in contract/dates.ts only', () => {
    expect(linesMatching(/\\d\{4\}\)?-\(?\\d\{2\}/, ['contract/dates.ts'])).toEqual([]);
  });

  it('turns a diet code into a diet in server/diets/byCode.ts only', () => {
    expect(linesMatching(/eq\(diets\.code\b|\$\{diets\.code\}\s*=/, ['server/diets/byCode.ts'])).toEqual([]);
  });

  it('writes every API path once, in its endpoint definition: none in a route file or the SPA’s calls', () => {
    const files = sources.filter(
      ({ file }) => file.startsWith('server/routes/') || file.startsWith('src/api/'),
    );
    expect(files.length).toBeGreaterThan(30);
    expect(
      files.flatMap(({ file, lines }) =>
        lines.flatMap((line, i) =>
          !isComment(line) && /['"`]\/api\//.test(line) ? [`${file}:${i + 1}`] : [],
        ),
      ),
    ).toEqual([]);
  });

  it('calls the API through send alone: no cast answer, no `.data!`, no check by hand', () => {
    expect(
      linesMatching(/\bcall<|\bcall\(|\.data!|checkInBrowser/, [
        'src/api/client.ts',
        'src/api/send.ts',
      ]).filter((where) => where.startsWith('src/') || where.startsWith('machines/')),
    ).toEqual([]);
  });
});
