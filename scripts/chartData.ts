import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import {
  statechartAnchor,
  type Box,
  type ChartData,
  type ChartMark,
  type ChartState,
  type ChartTransition,
} from '../contract/statecharts';
import {
  describeGuard,
  describeTrigger,
  descendantsOf,
  effectsOf,
  notesOf,
  ownTransitionsOf,
  statePathOf,
  transitionName,
} from './statecharts';

/**
 * A machine as data the /statecharts page draws cheaply (contract/statecharts.ts `ChartData`): its states
 * as nested boxes laid out here, in Node, its transitions as numbered arrows, and the words that list
 * them. No layout library: each compound state's children are ranked top to bottom by a longest path from
 * its start (back edges found by a depth-first walk), each rank a centred row; a compound state's box holds
 * its children's layout. Arrows are straight or gently curved (several between the same two states fan
 * out; arrows going back up bow to the side), each with its number in a circle halfway, which links to
 * the transition in the list. Deterministic, so the committed file is drift-tested.
 */

const CHAR = 7; // px per character of a 12px label
const NOTE_CHAR = 6.2; // of an 11px note
const LINE = 14;
const HEADER = 26;
const PAD = 12;
const ROW_GAP = 46;
const COL_GAP = 28;
const MARK = 16;

interface Item {
  /** A child state, or a pseudo-state of the compound being laid out. */
  node?: AnyStateNode;
  mark?: ChartMark['kind'];
  w: number;
  h: number;
  /** Position inside its parent's content. */
  x: number;
  y: number;
}

interface Laid {
  w: number;
  h: number;
  items: Item[];
}

const round = (n: number) => Math.round(n * 10) / 10;

function isWithin(node: AnyStateNode, ancestor: AnyStateNode): boolean {
  for (let current: AnyStateNode | undefined = node; current; current = current.parent) {
    if (current === ancestor) return true;
  }
  return false;
}

/** The child of `parent` that is, or holds, `node`. */
function childHolding(parent: AnyStateNode, node: AnyStateNode): AnyStateNode | undefined {
  for (let current: AnyStateNode | undefined = node; current; current = current.parent) {
    if (current.parent === parent) return current;
  }
  return undefined;
}

/** Whether a compound state (or the root) has transitions of its own that stay inside it. */
function hasInnerTransitions(node: AnyStateNode): boolean {
  return ownTransitionsOf(node).some((t) => {
    const targets = t.target?.length ? t.target : [node];
    return targets.some((target) => isWithin(target, node));
  });
}

export function toChartData(name: string, machine: AnyStateMachine): ChartData {
  const { root } = machine;
  const all = [root, ...descendantsOf(root)];
  const transitions = all.flatMap((node) => ownTransitionsOf(node));
  const laid = new Map<AnyStateNode, Laid>();
  const sizes = new Map<AnyStateNode, { w: number; h: number }>();

  const textWidth = (node: AnyStateNode) =>
    Math.max(node.key.length * CHAR, ...notesOf(node).map((note) => note.length * NOTE_CHAR)) + 2 * PAD;

  const measure = (node: AnyStateNode): { w: number; h: number } => {
    const children = Object.values(node.states);
    const notes = node === root ? [] : notesOf(node);
    if (!children.length) {
      const size = { w: Math.max(80, textWidth(node)), h: 28 + LINE * notes.length };
      sizes.set(node, size);
      return size;
    }
    const inner = layOut(node);
    const header = node === root ? 0 : HEADER + LINE * notes.length;
    const w = Math.max(inner.w + 2 * PAD, node === root ? 0 : textWidth(node));
    const size = { w, h: header + inner.h + 2 * PAD };
    sizes.set(node, size);
    return size;
  };

  /** Ranks and places the children of one compound or parallel state (or the root). */
  const layOut = (parent: AnyStateNode): Laid => {
    const children = Object.values(parent.states);
    const items: Item[] = [];
    if (parent.type !== 'parallel' && parent.initial?.target.length) {
      items.push({ mark: 'initial', w: MARK, h: MARK, x: 0, y: 0 });
    }
    if (hasInnerTransitions(parent)) items.push({ mark: 'any', w: 80, h: 28, x: 0, y: 0 });
    for (const child of children) items.push({ node: child, ...measure(child), x: 0, y: 0 });
    const index = new Map<AnyStateNode | string, number>();
    items.forEach((item, i) => index.set(item.node ?? item.mark!, i));

    // Edges between items, for ranking only.
    const edges: Array<[number, number]> = [];
    if (items[0]?.mark === 'initial') {
      const first = childHolding(parent, parent.initial!.target[0]);
      if (first) edges.push([0, index.get(first)!]);
    }
    if (parent.type !== 'parallel') {
      for (const t of transitions) {
        const targets = t.target?.length ? t.target : [t.source];
        for (const target of targets) {
          const from = t.source === parent ? index.get('any') : childHolding(parent, t.source);
          const to = childHolding(parent, target);
          const a = typeof from === 'number' ? from : from ? index.get(from) : undefined;
          const b = to ? index.get(to) : undefined;
          if (a !== undefined && b !== undefined && a !== b) edges.push([a, b]);
        }
      }
    }
    const out = items.map((_, i) => edges.filter(([a]) => a === i).map(([, b]) => b));

    // Depth-first from the start (then any item not reached), dropping edges back to the walk's path.
    const state = items.map(() => 0); // 0 new, 1 on the path, 2 done
    const forward: Array<[number, number]> = [];
    const visit = (i: number) => {
      state[i] = 1;
      for (const j of out[i]) {
        if (state[j] === 1) continue;
        forward.push([i, j]);
        if (state[j] === 0) visit(j);
      }
      state[i] = 2;
    };
    items.forEach((_, i) => {
      if (state[i] === 0) visit(i);
    });
    const rank = items.map(() => 0);
    // Longest path on the acyclic forward edges (a few passes suffice for charts this size).
    for (let pass = 0; pass < items.length; pass++) {
      let changed = false;
      for (const [a, b] of forward) {
        if (rank[b] < rank[a] + 1) {
          rank[b] = rank[a] + 1;
          changed = true;
        }
      }
      if (!changed) break;
    }

    const rows: number[][] = [];
    items.forEach((_, i) => (rows[rank[i]] ??= []).push(i));
    const order = new Map<number, number>();
    let y = 0;
    let w = 0;
    const placedRows = rows.filter(Boolean);
    for (const row of placedRows) {
      // Under the states they come from, as far as the order of the row above allows.
      const weight = (i: number) => {
        const from = forward.filter(([, b]) => b === i).map(([a]) => order.get(a) ?? 0);
        return from.length ? from.reduce((s, v) => s + v, 0) / from.length : Number.MAX_SAFE_INTEGER;
      };
      row.sort((a, b) => weight(a) - weight(b) || a - b);
      row.forEach((i, position) => order.set(i, position));
      const height = Math.max(...row.map((i) => items[i].h));
      let x = 0;
      for (const i of row) {
        items[i].x = x;
        items[i].y = y + (height - items[i].h) / 2;
        x += items[i].w + COL_GAP;
      }
      w = Math.max(w, x - COL_GAP);
      y += height + ROW_GAP;
    }
    // Centre each row.
    for (const row of placedRows) {
      const last = items[row[row.length - 1]];
      const shift = (w - (last.x + last.w)) / 2;
      for (const i of row) items[i].x += shift;
    }
    const result = { w, h: Math.max(0, y - ROW_GAP), items };
    laid.set(parent, result);
    return result;
  };

  const size = measure(root);

  // Absolute boxes.
  const boxes = new Map<AnyStateNode, Box>();
  const marks: ChartMark[] = [];
  const anyBox = new Map<AnyStateNode, Box>();
  const place = (node: AnyStateNode, box: Box) => {
    boxes.set(node, box);
    const inner = laid.get(node);
    if (!inner) return;
    const header = node === root ? 0 : HEADER + LINE * notesOf(node).length;
    const left = box.x + (box.w - inner.w) / 2;
    const top = box.y + header + PAD;
    for (const item of inner.items) {
      const at = { x: round(left + item.x), y: round(top + item.y), w: round(item.w), h: round(item.h) };
      if (item.node) place(item.node, at);
      else {
        marks.push({ kind: item.mark!, state: statePathOf(node), box: at });
        if (item.mark === 'any') anyBox.set(node, at);
      }
    }
  };
  place(root, { x: 0, y: 0, w: round(size.w), h: round(size.h) });

  const center = (b: Box) => ({ x: b.x + b.w / 2, y: b.y + b.h / 2 });
  /** Where the line from the box's centre towards `to` leaves the box. */
  const border = (b: Box, to: { x: number; y: number }) => {
    const c = center(b);
    const dx = to.x - c.x;
    const dy = to.y - c.y;
    if (dx === 0 && dy === 0) return c;
    const scale = Math.min(dx ? b.w / 2 / Math.abs(dx) : Infinity, dy ? b.h / 2 / Math.abs(dy) : Infinity);
    return { x: c.x + dx * scale, y: c.y + dy * scale };
  };

  const pairCount = new Map<string, number>();
  const loops = new Map<Box, number>();
  const anchors = new Set<string>();
  const chartTransitions: ChartTransition[] = transitions.map((t: AnyTransitionDefinition, i) => {
    const name_ = transitionName(t);
    const anchor = statechartAnchor(name, name_);
    if (anchors.has(anchor)) throw new Error(`Two transitions of "${name}" share the anchor "${anchor}".`);
    anchors.add(anchor);
    const targets = t.target?.length ? t.target : [t.source];
    const arrows = targets.map((target) => {
      const inside = isWithin(target, t.source) && anyBox.has(t.source);
      const from = inside ? anyBox.get(t.source)! : boxes.get(t.source)!;
      const to = target === t.source && inside ? from : boxes.get(target)!;
      if (from === to) {
        // A loop on the box's right side; further loops on the same box grow.
        const k = loops.get(from) ?? 0;
        loops.set(from, k + 1);
        const x = from.x + from.w;
        const y1 = from.y + Math.min(8, from.h / 3);
        const y2 = from.y + from.h - Math.min(8, from.h / 3);
        const reach = 24 + 24 * k;
        return {
          d: `M${round(x)} ${round(y1)} C${round(x + reach)} ${round(y1 - 6)} ${round(x + reach)} ${round(y2 + 6)} ${round(x)} ${round(y2)}`,
          x: round(x + reach * 0.75),
          y: round((y1 + y2) / 2),
        };
      }
      const start = border(from, center(to));
      const end = border(to, center(from));
      const pair = `${start.x},${start.y}>${end.x},${end.y}`;
      const k = pairCount.get(pair) ?? 0;
      pairCount.set(pair, k + 1);
      const dx = end.x - start.x;
      const dy = end.y - start.y;
      const length = Math.hypot(dx, dy) || 1;
      // Fan out repeated arrows, alternating sides; arrows going up bow out to the right.
      const fan = (k % 2 ? -1 : 1) * Math.ceil(k / 2) * 26;
      const control = (bow: number) => ({
        x: (start.x + end.x) / 2 + (-dy / length) * bow,
        y: (start.y + end.y) / 2 + (dx / length) * bow,
      });
      // Bow around the states in the way: of a few curves, the one crossing the fewest boxes that hold
      // neither end (the straightest among equals).
      const obstacles = [...boxes.entries()]
        .filter(([node]) => node !== root && !isWithin(t.source, node) && !isWithin(target, node))
        .map(([, box]) => box);
      const crossings = (bow: number) => {
        const c = control(bow);
        let hits = 0;
        // Never out of the drawing.
        for (let step = 1; step < 16; step++) {
          const u = step / 16;
          const x = (1 - u) ** 2 * start.x + 2 * (1 - u) * u * c.x + u ** 2 * end.x;
          const y = (1 - u) ** 2 * start.y + 2 * (1 - u) * u * c.y + u ** 2 * end.y;
          if (x < 0 || y < 0 || x > size.w || y > size.h) return Infinity;
        }
        for (const box of obstacles) {
          for (let step = 1; step < 16; step++) {
            const u = step / 16;
            const x = (1 - u) ** 2 * start.x + 2 * (1 - u) * u * c.x + u ** 2 * end.x;
            const y = (1 - u) ** 2 * start.y + 2 * (1 - u) * u * c.y + u ** 2 * end.y;
            if (x > box.x && x < box.x + box.w && y > box.y && y < box.y + box.h) {
              hits += 1;
              break;
            }
          }
        }
        return hits;
      };
      const base = (dy < 0 ? 36 : 0) + fan;
      const bow = [0, 50, -50, 100, -100, 160, -160, 240, -240, 320, -320]
        .map((extra) => ({ bow: base + extra, hits: crossings(base + extra) }))
        .reduce((best, option) => (option.hits < best.hits ? option : best)).bow;
      const { x: cx, y: cy } = control(bow);
      return {
        d: `M${round(start.x)} ${round(start.y)} Q${round(cx)} ${round(cy)} ${round(end.x)} ${round(end.y)}`,
        x: round(0.25 * start.x + 0.5 * cx + 0.25 * end.x),
        y: round(0.25 * start.y + 0.5 * cy + 0.25 * end.y),
      };
    });
    return {
      n: i + 1,
      name: name_,
      anchor,
      source: statePathOf(t.source),
      targets: (t.target ?? []).map(statePathOf),
      trigger: describeTrigger(t),
      guard: describeGuard(t.guard) ?? null,
      effects: effectsOf(t),
      arrows,
    };
  });

  // Loops and bows may reach past the root's box: the drawing grows to hold them.
  const extent = chartTransitions
    .flatMap((t) => t.arrows)
    .flatMap((a) => a.d.match(/-?\d+(\.\d+)?/g)!.map(Number))
    .reduce(
      (acc, value, i) =>
        i % 2 ? { ...acc, h: Math.max(acc.h, value) } : { ...acc, w: Math.max(acc.w, value) },
      { w: size.w, h: size.h },
    );

  // Each start dot's arrow to the state it starts in.
  for (const mark of marks) {
    if (mark.kind !== 'initial') continue;
    const owner = all.find((node) => statePathOf(node) === mark.state)!;
    const first = boxes.get(owner.initial!.target[0])!;
    const start = border(mark.box, center(first));
    const end = border(first, center(mark.box));
    mark.d = `M${round(start.x)} ${round(start.y)} L${round(end.x)} ${round(end.y)}`;
  }

  const states: ChartState[] = descendantsOf(root).map((node) => ({
    path: statePathOf(node),
    key: node.key,
    type: node.type as ChartState['type'],
    notes: notesOf(node),
    initial: node.type === 'compound' && node.initial?.target[0] ? statePathOf(node.initial.target[0]) : null,
    box: boxes.get(node)!,
  }));

  const SPECIAL = /^(always|after |done|error: |snapshot: )/;
  const events = [...new Set(transitions.map(describeTrigger).filter((trigger) => !SPECIAL.test(trigger)))];
  const guards = [
    ...new Set(transitions.map((t) => describeGuard(t.guard)).filter((g): g is string => g !== undefined)),
  ];
  const delays = Object.entries((machine.implementations.delays ?? {}) as Record<string, unknown>).map(
    ([delay, value]) => ({ name: delay, ms: typeof value === 'number' ? value : null }),
  );
  for (const t of transitions) {
    const { delay } = t as { delay?: unknown };
    if (typeof delay === 'number' && !delays.some((d) => d.name === `${delay}ms`)) {
      delays.push({ name: `${delay}ms`, ms: delay });
    }
  }
  const actors = all.flatMap((node) =>
    node.invoke.map((invoke) => {
      const src = typeof invoke.src === 'string' ? invoke.src : 'inline actor';
      return { state: statePathOf(node), actor: invoke.id === src ? src : `${invoke.id} (${src})` };
    }),
  );

  return {
    name,
    width: Math.ceil(extent.w + 8),
    height: Math.ceil(extent.h + 8),
    states,
    transitions: chartTransitions,
    marks,
    events,
    guards,
    delays,
    actors,
  };
}

/** The committed form of a chart's data (what the drift test compares). */
export function chartJson(data: ChartData): string {
  return `${JSON.stringify(data, null, 1)}\n`;
}
