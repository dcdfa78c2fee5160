import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chartJson, toChartData } from './chartData';
import { MACHINES, toMermaid } from './statecharts';

/**
 * `npm run charts`: writes docs/statecharts/<name>.mmd (Mermaid, for the repository) and <name>.json (the
 * laid-out chart /statecharts draws) for every machine in MACHINES, and removes charts whose machine is
 * gone (the folder holds generated files only; tests/statecharts.test.ts checks both).
 */
const CHARTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'statecharts');

mkdirSync(CHARTS_DIR, { recursive: true });
const names = new Set(MACHINES.map(({ name }) => name));
for (const { name, machine } of MACHINES) {
  const file = join(CHARTS_DIR, `${name}.mmd`);
  writeFileSync(file, toMermaid(machine));
  console.log(`wrote ${relative(process.cwd(), file)}`);
  const data = join(CHARTS_DIR, `${name}.json`);
  writeFileSync(data, chartJson(toChartData(name, machine)));
  console.log(`wrote ${relative(process.cwd(), data)}`);
}
for (const file of readdirSync(CHARTS_DIR)) {
  const chart = /^(.*)\.(mmd|json)$/.exec(file);
  if (chart && !names.has(chart[1])) {
    rmSync(join(CHARTS_DIR, file));
    console.log(`removed ${relative(process.cwd(), join(CHARTS_DIR, file))} (no such machine)`);
  }
}
