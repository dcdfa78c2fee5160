import dagre, { graphlib } from '@dagrejs/dagre';
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
 * as nested boxes, its transitions as numbered arrows, and the words that list them. The layout is
 * dagre's (@dagrejs/dagre, a compound graph: a compound state is a cluster holding its children), run
 * here in Node so no layout code reaches the browser. Each arrow is a smooth path (a B-spline) through
 * dagre's edge points, its number where that path passes the middle point. dagre lays out edges between
 * leaves only: an arrow from or to a compound state is laid out from or to the state it starts in, then
 * cut where it crosses the compound's border. A loop (a transition back to its own state) keeps the room
 * dagre leaves for it on the box's right and is drawn there. Layout options that looked wrong here (in
 * dagre 3.1.3): edge labels with a size (their places drift off the arrows inside clusters), extra nodes
 * tied to a cluster's children by edges (edges then cross other clusters) and a lone node at the top
 * level beside clusters (dagre throws): so numbers are placed on the path, a compound's name gets room
 * in its start dot's node, and the machine itself is a cluster too (never drawn).
 * Deterministic, so the committed file is drift-tested.
 */

const CHAR = 7; // px per character of a 12px label
const NOTE_CHAR = 6.2; // of an 11px note
const LINE = 14;
const PAD = 12;
const MARK = 16;
const ANY = 28; // the height of an "any state" node
const ROOT = 'root';

type Point = { x: number; y: number };

const round = (n: number) => Math.round(n * 10) / 10;

function isWithin(node: AnyStateNode, ancestor: AnyStateNode): boolean {
  for (let current: AnyStateNode | undefined = node; current; current = current.parent) {
    if (current === ancestor) return true;
  }
  return false;
}

/** Whether a compound state (or the root) has transitions of its own that stay inside it. */
function hasInnerTransitions(node: AnyStateNode): boolean {
  return ownTransitionsOf(node).some((t) => {
    const targets = t.target?.length ? t.target : [node];
    return targets.some((target) => isWithin(target, node));
  });
}

/** The leaf an arrow to (or from) a state is laid out to: the state itself, or the state it starts in. */
function leafOf(node: AnyStateNode): AnyStateNode {
  const children = Object.values(node.states);
  if (!children.length) return node;
  const first = node.type !== 'parallel' && node.initial?.target[0];
  return leafOf(first || children[0]);
}

/** A smooth SVG path, in whole pixels, through the points (a B-spline from the first point to the last, as d3's curveBasis). */
function smoothPath(points: Point[]): string {
  const p = points.map(({ x, y }) => ({ x: Math.round(x), y: Math.round(y) }));
  if (p.length < 3) return `M${p[0].x} ${p[0].y} L${p[p.length - 1].x} ${p[p.length - 1].y}`;
  let d = `M${p[0].x} ${p[0].y} L${Math.round((5 * p[0].x + p[1].x) / 6)} ${Math.round((5 * p[0].y + p[1].y) / 6)}`;
  for (let i = 1; i < p.length - 1; i++) {
    const [a, b, c] = [p[i - 1], p[i], p[i + 1]];
    d += ` C${Math.round((2 * a.x + b.x) / 3)} ${Math.round((2 * a.y + b.y) / 3)} ${Math.round((a.x + 2 * b.x) / 3)} ${Math.round((a.y + 2 * b.y) / 3)} ${Math.round((a.x + 4 * b.x + c.x) / 6)} ${Math.round((a.y + 4 * b.y + c.y) / 6)}`;
  }
  const [a, b] = [p[p.length - 2], p[p.length - 1]];
  d += ` C${Math.round((2 * a.x + b.x) / 3)} ${Math.round((2 * a.y + b.y) / 3)} ${Math.round((a.x + 2 * b.x) / 3)} ${Math.round((a.y + 2 * b.y) / 3)} ${b.x} ${b.y}`;
  return d;
}

/** Where an arrow's number sits: on the smooth path, at its middle point (where the B-spline passes). */
function middleOf(points: Point[]): Point {
  if (points.length < 3) {
    const [a, b] = [points[0], points[points.length - 1]];
    return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  }
  const i = Math.floor((points.length - 1) / 2);
  const [a, b, c] = [points[i - 1], points[i], points[i + 1]];
  return { x: (a.x + 4 * b.x + c.x) / 6, y: (a.y + 4 * b.y + c.y) / 6 };
}

const inside = (b: Box, { x, y }: Point) => x > b.x && x < b.x + b.w && y > b.y && y < b.y + b.h;

/** The points up to where they first enter the box, that crossing point last. */
function cutAtEntry(points: Point[], box: Box): Point[] {
  const i = points.findIndex((point) => inside(box, point));
  if (i <= 0) return points;
  const [a, b] = [points[i - 1], points[i]];
  // The largest step from `a` towards `b` that stays on or outside the box.
  const steps = [box.x, box.x + box.w]
    .map((x) => (b.x === a.x ? Infinity : (x - a.x) / (b.x - a.x)))
    .concat([box.y, box.y + box.h].map((y) => (b.y === a.y ? Infinity : (y - a.y) / (b.y - a.y))))
    .filter((u) => u >= 0 && u <= 1)
    .filter((u) => {
      const x = a.x + u * (b.x - a.x);
      const y = a.y + u * (b.y - a.y);
      return x >= box.x - 0.01 && x <= box.x + box.w + 0.01 && y >= box.y - 0.01 && y <= box.y + box.h + 0.01;
    });
  const u = steps.length ? Math.min(...steps) : 0;
  return [...points.slice(0, i), { x: a.x + u * (b.x - a.x), y: a.y + u * (b.y - a.y) }];
}

export function toChartData(name: string, machine: AnyStateMachine): ChartData {
  const { root } = machine;
  const all = [root, ...descendantsOf(root)];
  const transitions = all.flatMap((node) => ownTransitionsOf(node));

  const textWidth = (node: AnyStateNode) =>
    Math.max(node.key.length * CHAR, ...notesOf(node).map((note) => note.length * NOTE_CHAR)) + 2 * PAD;

  /** Room above a compound state's start dot and "any state" node for its name and notes. */
  const headRoom = (node: AnyStateNode) => (node === root ? 0 : LINE * (1 + notesOf(node).length));

  const g = new graphlib.Graph({ compound: true, multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 28, edgesep: 12, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  // The root is a cluster too, never drawn (an isolated node beside clusters at the top level trips dagre).
  const id = (node: AnyStateNode) => (node === root ? ROOT : `s:${statePathOf(node)}`);
  const parentOf = (node: AnyStateNode) => (node.parent ? id(node.parent) : undefined);
  const marks: ChartMark[] = [];
  const anyOf = new Map<AnyStateNode, string>();

  for (const node of all) {
    const children = Object.values(node.states);
    const nodeId = id(node);
    if (nodeId === ROOT) g.setNode(ROOT, {});
    else {
      if (children.length) g.setNode(nodeId, {});
      else
        g.setNode(nodeId, { width: Math.max(80, textWidth(node)), height: 28 + LINE * notesOf(node).length });
      const parent = parentOf(node);
      if (parent) g.setParent(nodeId, parent);
    }
    if (!children.length) continue;
    const path = statePathOf(node);
    const inner: string[] = [];
    if (node.type !== 'parallel' && node.initial?.target.length) {
      // The start dot's node also keeps room for the compound's name and notes, drawn at its top left.
      const mark = `initial:${path}`;
      g.setNode(mark, { width: node === root ? MARK : textWidth(node), height: MARK + headRoom(node) });
      inner.push(mark);
      g.setEdge(mark, id(leafOf(node.initial.target[0]))!, {}, mark);
    }
    if (hasInnerTransitions(node)) {
      const mark = `any:${path}`;
      g.setNode(mark, { width: 80, height: ANY + headRoom(node) });
      inner.push(mark);
      anyOf.set(node, mark);
    }
    for (const mark of inner) g.setParent(mark, nodeId);
  }

  // One edge per arrow, between leaves (or marks), with room for its number.
  const arrowEnds = transitions.map((t: AnyTransitionDefinition, i) => {
    const targets = t.target?.length ? t.target : [t.source];
    return targets.map((target, k) => {
      const fromAny = isWithin(target, t.source) && anyOf.has(t.source);
      const from = fromAny ? anyOf.get(t.source)! : id(leafOf(t.source))!;
      const to = target === t.source && fromAny ? from : id(leafOf(target))!;
      const edge = `t${i}.${k}`;
      g.setEdge(from, to, {}, edge);
      return { from, to, edge, source: fromAny ? undefined : t.source, target };
    });
  });

  dagre.layout(g);

  const boxOf = (nodeId: string): Box => {
    const { x = 0, y = 0, width, height } = g.node(nodeId);
    return { x: round(x - width / 2), y: round(y - height / 2), w: round(width), h: round(height) };
  };
  const boxes = new Map<AnyStateNode, Box>();
  for (const node of all) {
    if (node !== root) boxes.set(node, boxOf(id(node)));
  }
  for (const node of all) {
    if (!Object.values(node.states).length) continue;
    const path = statePathOf(node);
    if (g.hasNode(`initial:${path}`)) {
      const points = g.edge(
        `initial:${path}`,
        id(leafOf(node.initial!.target[0]))!,
        `initial:${path}`,
      ).points!;
      const first = node.initial!.target[0];
      const cut = Object.values(first.states).length ? cutAtEntry(points, boxes.get(first)!) : points;
      const room = boxOf(`initial:${path}`);
      const dot = {
        x: round(room.x + room.w / 2 - MARK / 2),
        y: round(room.y + room.h - MARK),
        w: MARK,
        h: MARK,
      };
      marks.push({ kind: 'initial', state: path, box: dot, d: smoothPath(cut) });
    }
    if (anyOf.has(node)) {
      const room = boxOf(anyOf.get(node)!);
      marks.push({ kind: 'any', state: path, box: { ...room, y: round(room.y + room.h - ANY), h: ANY } });
    }
  }

  const anchors = new Set<string>();
  const loops = new Map<string, number>();
  const chartTransitions: ChartTransition[] = transitions.map((t: AnyTransitionDefinition, i) => {
    const name_ = transitionName(t);
    const anchor = statechartAnchor(name, name_);
    if (anchors.has(anchor)) throw new Error(`Two transitions of "${name}" share the anchor "${anchor}".`);
    anchors.add(anchor);
    const arrows = arrowEnds[i].map(({ from, to, edge, source, target }) => {
      if (from === to) {
        // A loop on the right of its box, in the room dagre keeps there; further loops on the box grow.
        const box = from.startsWith('s:')
          ? boxes.get(target)!
          : marks.find((m) => m.kind === 'any' && `any:${m.state}` === from)!.box;
        const k = loops.get(from) ?? 0;
        loops.set(from, k + 1);
        const x = box.x + box.w;
        const y1 = box.y + Math.min(8, box.h / 3);
        const y2 = box.y + box.h - Math.min(8, box.h / 3);
        const reach = 24 + 22 * k;
        return {
          d: `M${round(x)} ${round(y1)} C${round(x + reach)} ${round(y1 - 6)} ${round(x + reach)} ${round(y2 + 6)} ${round(x)} ${round(y2)}`,
          x: round(x + reach * 0.75),
          y: round((y1 + y2) / 2),
        };
      }
      let points = g.edge(from, to, edge).points!;
      // From or to a compound state: cut where the arrow crosses its border (unless it holds the other end).
      if (target !== root && Object.values(target.states).length && !(source && isWithin(source, target))) {
        points = cutAtEntry(points, boxes.get(target)!);
      }
      if (source && source !== root && Object.values(source.states).length && !isWithin(target, source)) {
        points = cutAtEntry([...points].reverse(), boxes.get(source)!).reverse();
      }
      const middle = middleOf(points);
      return { d: smoothPath(points), x: round(middle.x), y: round(middle.y) };
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
  const { width = 0, height = 0 } = g.graph();

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
    width: Math.ceil(width),
    height: Math.ceil(height),
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
