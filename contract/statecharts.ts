import { STATECHARTS_PATH } from './paths';

/**
 * Where the portal shows its statecharts, and how one machine or one transition is linked to there.
 * Public (the page holds no data). The page, the generated chart data (scripts/statecharts.ts) and the
 * audit log's links all take their anchors from here, so a link to a transition cannot drift from the
 * anchor the page gives it.
 *
 * A transition is named as the charts name it, relative to its machine:
 * `updating --done: updateStatus--> ready.saved` (source state path, `trigger [guard]`, target paths; the
 * machine's own transitions start from the machine's name, and a transition that stays says `(stays)`).
 */

/** One transition of one charted machine: where a machine-driven action comes from. */
export interface MachineStep {
  /** The machine's name in MACHINES (scripts/statecharts.ts), also its section's id on the page. */
  machine: string;
  /** The transition's name, as above. */
  transition: string;
}

/** The id of a machine's section (its name), or of one of its transitions on /statecharts. */
export function statechartAnchor(machine: string, transition?: string): string {
  if (!transition) return machine;
  const slug = transition
    .replace(/[^A-Za-z0-9._]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/\.+$/, '');
  return `${machine}-${slug}`;
}

/** The link to a machine, or to one of its transitions, on /statecharts. */
export function statechartHref(machine: string, transition?: string): string {
  return `${STATECHARTS_PATH}#${statechartAnchor(machine, transition)}`;
}

/**
 * One machine as the page draws and lists it: written by `npm run charts` to docs/statecharts/<name>.json
 * from the machine itself (laid out in Node, so the browser only draws boxes and paths), drift-tested like
 * the Mermaid charts.
 */
export interface ChartData {
  name: string;
  width: number;
  height: number;
  states: ChartState[];
  transitions: ChartTransition[];
  /** Pseudo-states drawn but not states: a compound state's start dot and its "any state" node. */
  marks: ChartMark[];
  /** The event types the machine handles (not timers or actor answers). */
  events: string[];
  guards: string[];
  delays: Array<{ name: string; ms: number | null }>;
  /** `invoke id (src)` of every invoking state, with where. */
  actors: Array<{ state: string; actor: string }>;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface ChartState {
  /** `ready.saved`; the coverage file's key. */
  path: string;
  key: string;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  /** Tags, invoked actors, entry and exit emits, in words. */
  notes: string[];
  initial: string | null;
  box: Box;
}

export interface ChartTransition {
  /** 1-based, as the diagram numbers it. */
  n: number;
  /** The transition's name (see above); the coverage file's key. */
  name: string;
  anchor: string;
  source: string;
  targets: string[];
  trigger: string;
  guard: string | null;
  /** `emit notify`, `send unread.start to unreadCount`. */
  effects: string[];
  /** One drawn arrow per target: an SVG path and where its number sits. */
  arrows: Array<{ d: string; x: number; y: number }>;
}

export interface ChartMark {
  kind: 'initial' | 'any';
  /** The state it belongs to (the machine's name for the top level). */
  state: string;
  box: Box;
  /** A start dot's arrow to the state it starts in. */
  d?: string;
}

/** What the model-based path tests cover of one machine: docs/statecharts/coverage/<name>.json. */
export interface ChartCoverage {
  machine: string;
  states: Record<string, boolean>;
  transitions: Record<string, boolean>;
}
