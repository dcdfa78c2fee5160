import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../../contract/audit';

/**
 * The audit catalogue's actions are written out where they are made (issue 24): a search for
 * 'payment.credited' finds the catalogue entry and every place that records it. So every action is
 * quoted in server/ at least once, and no template string builds one.
 */

const SERVER = path.resolve(import.meta.dirname, '..', '..', 'server');

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    )
    .filter((file) => file.endsWith('.ts'));
}

const sources = filesUnder(SERVER).map((file) => ({
  file: path.relative(SERVER, file),
  text: fs.readFileSync(file, 'utf8'),
}));

describe('the audit catalogue', () => {
  it('has every action quoted where the server makes it', () => {
    expect(sources.length).toBeGreaterThan(50);
    const unmade = Object.keys(AUDIT_ACTIONS).filter(
      (action) => !sources.some(({ text }) => text.includes(`'${action}'`)),
    );
    expect(unmade).toEqual([]);
  });

  it('has no action built from a template string', () => {
    const built = sources.flatMap(({ file, text }) =>
      text.split('\n').flatMap((line, i) => (/\baction\??:\s*`/.test(line) ? [`${file}:${i + 1}`] : [])),
    );
    expect(built).toEqual([]);
  });
});
