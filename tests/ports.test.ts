import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * The test suites' ports are chosen free at run time (issue 22, scripts/ports.ts), so two checkouts
 * run their suites side by side. Each config is read here in fresh Node processes, as the runners read
 * them: two runs at once get two ports; a process the run starts (Playwright's workers, vitest's forks)
 * reads the config again and gets the run's port; a port given in the environment is kept.
 */

const run = promisify(execFile);

/** What a config exports as its port, read in a new Node process, which then reads it once more in a child. */
async function portsOf(
  config: 'playwright.config.ts' | 'vitest.config.ts',
  name: string,
  env: NodeJS.ProcessEnv,
) {
  const script = `
    const { execFileSync } = await import('node:child_process');
    const { ${name} } = await import('./${config}');
    const child = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e',
      "const m = await import('./${config}'); process.stdout.write(String(m.${name}))"], { encoding: 'utf8' });
    process.stdout.write(JSON.stringify({ port: ${name}, env: process.env.${name}, child: Number(child) }));
  `;
  const childEnv = { ...process.env, ...env };
  if (!(name in env)) delete childEnv[name];
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: childEnv,
    encoding: 'utf8',
  });
  return JSON.parse(stdout.slice(stdout.indexOf('{'))) as { port: number; env: string; child: number };
}

describe.each([
  ['playwright.config.ts', 'E2E_PORT'],
  ['vitest.config.ts', 'UI_PORT'],
] as const)('%s', (config, name) => {
  it(`without ${name}, two runs at once choose two free ports, each kept for the processes it starts`, async () => {
    const [first, second] = await Promise.all([portsOf(config, name, {}), portsOf(config, name, {})]);
    for (const seen of [first, second]) {
      expect(seen.port).toBeGreaterThan(1023);
      expect(seen.env).toBe(String(seen.port));
      expect(seen.child).toBe(seen.port);
    }
    expect(first.port).not.toBe(second.port);
  }, 60_000);

  it(`with ${name} set, that port`, async () => {
    const seen = await portsOf(config, name, { [name]: '3251' });
    expect(seen).toEqual({ port: 3251, env: '3251', child: 3251 });
  }, 60_000);
});
