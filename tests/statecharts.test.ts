import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { and, assign, emit, not, setup } from 'xstate';
import { statechartAnchor, statechartHref, type ChartCoverage } from '../contract/statecharts';
import { chartJson, toChartData } from '../scripts/chartData';
import { describeGuard, emittedTypeOf, MACHINES, toMermaid } from '../scripts/statecharts';

const CHARTS_DIR = join(import.meta.dirname, '..', 'docs', 'statecharts');
const REGENERATE = 'run `npm run charts` and commit docs/statecharts';

describe('committed statecharts', () => {
  it.each(MACHINES.map((entry) => [entry.name, entry] as const))(
    'docs/statecharts/%s.mmd matches its machine',
    (name, { machine }) => {
      const file = join(CHARTS_DIR, `${name}.mmd`);
      if (!existsSync(file)) throw new Error(`docs/statecharts/${name}.mmd is missing: ${REGENERATE}.`);
      // A checkout with CRLF line endings is still the same chart.
      const committed = readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
      if (committed !== toMermaid(machine)) {
        throw new Error(`docs/statecharts/${name}.mmd no longer matches its machine: ${REGENERATE}.`);
      }
    },
  );

  it.each(MACHINES.map((entry) => [entry.name, entry] as const))(
    'docs/statecharts/%s.json (what /statecharts draws) matches its machine',
    (name, { machine }) => {
      const file = join(CHARTS_DIR, `${name}.json`);
      if (!existsSync(file)) throw new Error(`docs/statecharts/${name}.json is missing: ${REGENERATE}.`);
      const committed = readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
      if (committed !== chartJson(toChartData(name, machine))) {
        throw new Error(`docs/statecharts/${name}.json no longer matches its machine: ${REGENERATE}.`);
      }
    },
  );

  it('has no chart without a machine', () => {
    const names = new Set(MACHINES.flatMap(({ name }) => [`${name}.mmd`, `${name}.json`]));
    const orphans = readdirSync(CHARTS_DIR).filter((file) => /\.(mmd|json)$/.test(file) && !names.has(file));
    expect(orphans, `charts whose machine is not in MACHINES: ${REGENERATE}`).toEqual([]);
  });
});

describe('toMermaid', () => {
  it('draws the session machine with its initial state, guards, invokes and tags', () => {
    const chart = toMermaid(MACHINES.find(({ name }) => name === 'session')!.machine);
    expect(chart.startsWith('stateDiagram-v2\n')).toBe(true);
    expect(chart).toContain('[*] --> session_starting');
    expect(chart).toContain('session_starting --> session_loadingProfile : always [hasStoredToken]');
    expect(chart).toContain('session_signingIn --> session_awaitingCode : done: signIn');
    expect(chart).toContain('session_confirming --> session_signedOut : error: confirmCode [signInGone]');
    expect(chart).toContain('session_signingIn : tags busy, signedOut');
    expect(chart).toContain('session_signedIn_reloadingProfile : invoke reloadProfile (loadProfile)');
    // A root-level handler applies in every state: drawn from an "any state" node.
    expect(chart).toContain('state "any state" as session');
    expect(chart).toContain('session --> session_signedOut : session.expired');
  });

  it('draws the app machine with what each transition tells its children', () => {
    const chart = toMermaid(MACHINES.find(({ name }) => name === 'app')!.machine);
    expect(chart).toContain(
      'app_account_signedOut --> app_account_admin : app.signedIn [isAdmin] / send unread.start to unreadCount',
    );
    expect(chart).toContain(
      'app_account_signedOut --> app_account_admin : app.signedIn [and(isAdmin, userIdle)] / send unread.startPaused to unreadCount',
    );
    expect(chart).toContain(
      'app_activity_active --> app_activity_idle : app.idle / send unread.pause to unreadCount',
    );
    expect(chart).toContain('app --> app : app.notify / emit notify');
    expect(chart).toContain('app --> app : app.profileSaved / send session.reloadProfile to session');
  });

  const sample = setup({
    types: { events: {} as { type: 'activity' } | { type: 'pay' } | { type: 'close' } },
    delays: { idleTimeout: 10_000 },
    guards: { isOpen: () => true, isPaid: () => false },
  }).createMachine({
    id: 'sample',
    type: 'parallel',
    states: {
      idle: {
        initial: 'active',
        states: {
          active: { after: { idleTimeout: 'idle', 500: 'active' } },
          idle: { tags: ['idle'], on: { activity: 'active' } },
        },
      },
      payment: {
        initial: 'open',
        states: {
          open: {
            on: {
              pay: [{ guard: and(['isOpen', not('isPaid')]), target: 'paid' }, { guard: () => true }],
              close: 'closed',
            },
          },
          paid: { type: 'final' },
          closed: { type: 'final' },
        },
      },
    },
  });

  it('labels named delays, combinators, inline guards, final states and parallel regions', () => {
    const chart = toMermaid(sample);
    expect(chart).toContain('sample_idle_active --> sample_idle_idle : after idleTimeout');
    expect(chart).toContain('sample_idle_active --> sample_idle_active : after 500ms');
    expect(chart).toContain('sample_payment_open --> sample_payment_paid : pay [and(isOpen, not(isPaid))]');
    // A transition without a target stays where it is.
    expect(chart).toContain('sample_payment_open --> sample_payment_open : pay [inline guard]');
    expect(chart).toContain('sample_payment_paid --> [*]');
    // A parallel root keeps its box, whose regions Mermaid separates with '--'.
    expect(chart).toContain('[*] --> sample\n');
    expect(chart).toContain('    --\n');
    expect(chart).not.toContain('any state');
  });

  it('charts every machine in machines/', () => {
    const files = readdirSync(join(import.meta.dirname, '..', 'machines')).filter((file) =>
      file.endsWith('.machine.ts'),
    );
    const charted = new Set(MACHINES.map(({ machine }) => `${machine.id}.machine.ts`));
    expect(
      files.filter((file) => !charted.has(file)),
      'machines missing from MACHINES',
    ).toEqual([]);
  });

  it('names the events a transition emits after its trigger', () => {
    const chart = (name: string) => toMermaid(MACHINES.find((entry) => entry.name === name)!.machine);
    expect(chart('formDialog')).toContain(
      'formDialog_open_submitting --> formDialog_closed : done: submit / emit notify, form.succeeded',
    );
    expect(chart('formDialog')).toContain(
      'formDialog_open_submitting --> formDialog_open_editing : error: submit / emit notify',
    );
    expect(chart('impersonation')).toContain(
      'impersonation_switchingBack --> impersonation_impersonating : error: switchBack / emit notify',
    );
    // Transitions that emit nothing keep their plain label.
    expect(chart('formDialog')).toContain(
      'formDialog_open_editing --> formDialog_open_submitting : form.submit\n',
    );
  });

  it('draws a compound state’s arrows to its own children from an "any state" inside its box', () => {
    const chart = toMermaid(MACHINES.find((entry) => entry.name === 'unreadCount')!.machine);
    expect(chart).toContain(
      [
        '  state unreadCount_running {',
        '    state "any state" as unreadCount_running__any',
        '    state "fetching" as unreadCount_running_fetching',
      ].join('\n'),
    );
    expect(chart).toContain('    unreadCount_running__any --> unreadCount_running_paused : unread.pause\n');
    // Arrows that leave the box still start from the box.
    expect(chart).toContain('\n  unreadCount_running --> unreadCount_stopped : unread.stop\n');
    expect(chart).not.toMatch(/unreadCount_running --> unreadCount_running_/);
  });

  it('reads the type of emitted events: static, computed, named, and entry or exit notes', () => {
    const machine = setup({
      types: {
        events: {} as { type: 'go' },
        emitted: {} as { type: 'started' } | { type: 'moved'; to: string },
      },
      actions: {
        announce: emit({ type: 'started' as const }),
        moved: emit((_, params: { to: string }) => ({ type: 'moved' as const, to: params.to.toUpperCase() })),
        clear: assign({}),
      },
    }).createMachine({
      id: 'emitter',
      initial: 'a',
      states: {
        a: {
          entry: 'announce',
          // Reads context the chart does not have: the stand-in arguments still give its type.
          exit: emit(({ context }) => ({
            type: 'moved' as const,
            to: (context as { never: { deep: string } }).never.deep,
          })),
          on: { go: { target: 'b', actions: ['clear', { type: 'moved', params: { to: 'b' } }] } },
        },
        b: {},
      },
    });
    expect(emittedTypeOf('announce', machine)).toBe('started');
    expect(emittedTypeOf({ type: 'moved', params: { to: 'b' } }, machine)).toBe('moved');
    expect(emittedTypeOf('clear', machine)).toBeUndefined();
    expect(
      emittedTypeOf(
        emit(() => ({ type: 'inline' })),
        machine,
      ),
    ).toBe('inline');
    // An expression that cannot be read without a real context still shows that an event is emitted.
    expect(
      emittedTypeOf(
        emit(() => {
          throw new Error('needs a context');
        }),
        machine,
      ),
    ).toBe('event');
    const chart = toMermaid(machine);
    expect(chart).toContain('emitter_a --> emitter_b : go / emit moved');
    expect(chart).toContain('emitter_a : entry / emit started');
    expect(chart).toContain('emitter_a : exit / emit moved');
  });

  it('is deterministic', () => {
    expect(toMermaid(sample)).toBe(toMermaid(sample));
  });

  it('names guards as auditors read them', () => {
    expect(describeGuard(undefined)).toBeUndefined();
    expect(describeGuard('hasStoredToken')).toBe('hasStoredToken');
    expect(describeGuard({ type: 'signInGone', params: {} })).toBe('signInGone');
    expect(describeGuard(() => true)).toBe('inline guard');
  });
});

describe('coverage files (written by the path tests, tests/machines)', () => {
  const COVERAGE_DIR = join(CHARTS_DIR, 'coverage');

  it.each(MACHINES.map((entry) => [entry.name, entry] as const))(
    'docs/statecharts/coverage/%s.json names exactly the states and transitions of its chart',
    (name, { machine }) => {
      const file = join(COVERAGE_DIR, `${name}.json`);
      if (!existsSync(file)) {
        throw new Error(
          `docs/statecharts/coverage/${name}.json is missing: its path tests write it (vitest -u).`,
        );
      }
      const coverage = JSON.parse(readFileSync(file, 'utf8')) as ChartCoverage;
      const chart = toChartData(name, machine);
      expect(coverage.machine).toBe(name);
      expect(Object.keys(coverage.states)).toEqual(chart.states.map((state) => state.path));
      expect(Object.keys(coverage.transitions)).toEqual(chart.transitions.map((t) => t.name));
    },
  );

  it('has no coverage file without a machine', () => {
    const names = new Set(MACHINES.map(({ name }) => `${name}.json`));
    expect(readdirSync(COVERAGE_DIR).filter((file) => !names.has(file))).toEqual([]);
  });
});

describe('chart data for /statecharts', () => {
  const statusToggle = toChartData(
    'statusToggle',
    MACHINES.find(({ name }) => name === 'statusToggle')!.machine,
  );

  it('lists states, transitions in words, events, guards and invoked actors', () => {
    expect(statusToggle.states.map((state) => state.path)).toEqual([
      'ready',
      'ready.saved',
      'ready.failed',
      'confirming',
      'updating',
    ]);
    const saved = statusToggle.transitions.find(
      (t) => t.name === 'updating --done: updateStatus--> ready.saved',
    );
    expect(saved).toMatchObject({
      source: 'updating',
      targets: ['ready.saved'],
      trigger: 'done: updateStatus',
      guard: null,
      anchor: statechartAnchor('statusToggle', 'updating --done: updateStatus--> ready.saved'),
    });
    expect(statusToggle.transitions.map((t) => t.name)).toContain(
      'ready --toggle.change [needsConfirmation]--> confirming',
    );
    expect(statusToggle.events).toEqual(['toggle.change', 'toggle.confirm', 'toggle.cancel']);
    expect(statusToggle.guards).toEqual(['isSame', 'needsConfirmation']);
    expect(statusToggle.actors).toEqual([{ state: 'updating', actor: 'updateStatus' }]);
  });

  it('names delays with their milliseconds', () => {
    const idle = toChartData('idle', MACHINES.find(({ name }) => name === 'idle')!.machine);
    expect(idle.delays).toEqual([{ name: 'idleTimeout', ms: 10_000 }]);
    expect(idle.transitions.map((t) => t.name)).toContain('active --after idleTimeout--> idle');
  });

  it('draws every state inside the drawing, no two apart overlapping, and an arrow for every target', () => {
    for (const { name, machine } of MACHINES) {
      const data = toChartData(name, machine);
      for (const { box } of data.states) {
        expect(box.x >= 0 && box.y >= 0 && box.x + box.w <= data.width && box.y + box.h <= data.height).toBe(
          true,
        );
      }
      // Boxes overlap only when one state holds the other.
      for (const a of data.states) {
        for (const b of data.states) {
          if (a === b || a.path.startsWith(`${b.path}.`) || b.path.startsWith(`${a.path}.`)) continue;
          const apart =
            a.box.x + a.box.w <= b.box.x ||
            b.box.x + b.box.w <= a.box.x ||
            a.box.y + a.box.h <= b.box.y ||
            b.box.y + b.box.h <= a.box.y;
          expect(apart, `${name}: ${a.path} and ${b.path} overlap`).toBe(true);
        }
      }
      for (const t of data.transitions) expect(t.arrows).toHaveLength(Math.max(1, t.targets.length));
      expect(new Set(data.transitions.map((t) => t.anchor)).size).toBe(data.transitions.length);
    }
  });

  it('links a transition to its anchor on /statecharts', () => {
    expect(statechartHref('statusToggle')).toBe('/statecharts#statusToggle');
    expect(statechartHref('statusToggle', 'updating --done: updateStatus--> ready.saved')).toBe(
      '/statecharts#statusToggle-updating-done-updateStatus-ready.saved',
    );
  });
});
