/**
 * A flame graph's reading as a table: the frames of a V8 CPU profile (`node --cpu-prof`, one
 * .cpuprofile file) with the most self time and the most inclusive time (a frame and all it called),
 * as a share of the samples, idle time left out. `npx tsx scripts/profile-summary.ts FILE [N]` prints
 * two Markdown tables of N rows each (20 by default); BENCH_PROFILE_FILTER=text keeps only the samples
 * whose stack has a frame whose name or file holds `text` (e.g. a request's own frames).
 */
import fs from 'node:fs';
import path from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const frameName = (node: Node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url ? path.basename(url.replace(/^file:\/\//, '')) : '';
  return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
};

const IDLE = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

function summarise(profile: Profile, rows: number, filter: string | undefined) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [i, id] of profile.samples.entries()) {
    const delta = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') {
      idle += delta;
      continue;
    }
    const stack: Node[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!);
    if (filter && !stack.some((n) => frameName(n).includes(filter))) continue;
    total += delta;
    const leaf = frameName(node);
    self.set(leaf, (self.get(leaf) ?? 0) + delta);
    for (const name of new Set(stack.filter((n) => !IDLE.has(n.callFrame.functionName)).map(frameName))) {
      inclusive.set(name, (inclusive.get(name) ?? 0) + delta);
    }
  }
  const table = (title: string, map: Map<string, number>) => {
    console.log(`\n| ${title} | ms | share |\n|---|---:|---:|`);
    for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
      console.log(`| \`${name}\` | ${(us / 1000).toFixed(0)} | ${((100 * us) / total).toFixed(1)} % |`);
    }
  };
  console.log(
    `CPU on the main thread: ${(total / 1000).toFixed(0)} ms sampled${filter ? ` (stacks holding "${filter}")` : ''}, idle ${(idle / 1000).toFixed(0)} ms`,
  );
  table('self time', self);
  table('inclusive time', inclusive);
}

const [file, rows = '20'] = process.argv.slice(2);
if (!file) throw new Error('usage: tsx scripts/profile-summary.ts FILE.cpuprofile [ROWS]');
summarise(
  JSON.parse(fs.readFileSync(file, 'utf8')) as Profile,
  Number(rows),
  process.env.BENCH_PROFILE_FILTER,
);
