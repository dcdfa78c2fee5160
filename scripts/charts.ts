import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MACHINES, toMermaid } from './statecharts';

/**
 * `npm run charts`: writes docs/statecharts/<name>.mmd for every machine in MACHINES, and removes charts
 * whose machine is gone (the folder holds generated files only; tests/statecharts.test.ts checks both).
 */
const CHARTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'statecharts');

mkdirSync(CHARTS_DIR, { recursive: true });
const names = new Set(MACHINES.map(({ name }) => name));
for (const { name, machine } of MACHINES) {
  const file = join(CHARTS_DIR, `${name}.mmd`);
  writeFileSync(file, toMermaid(machine));
  console.log(`wrote ${relative(process.cwd(), file)}`);
}
for (const file of readdirSync(CHARTS_DIR)) {
  if (file.endsWith('.mmd') && !names.has(file.slice(0, -'.mmd'.length))) {
    rmSync(join(CHARTS_DIR, file));
    console.log(`removed ${relative(process.cwd(), join(CHARTS_DIR, file))} (no such machine)`);
  }
}
