import { useEffect, useSyncExternalStore } from 'react';
import type { StateValue } from 'xstate';
import { Link } from 'wouter';
import { BOARD_NAME } from '../../contract/documents';
import { HOME_PATH } from '../../contract/paths';
import type { ChartCoverage, ChartData, ChartTransition } from '../../contract/statecharts';
import { useSession } from '../app/actors';
import { getLiveStates, subscribeLiveStates, type LiveActor } from '../app/liveStates';
import LiveStateList, { stateOf } from './LiveStateList';

/**
 * /statecharts, public (it holds no data): every machine of the portal as `npm run charts` laid it out
 * from the machine itself (docs/statecharts/<name>.json), its parts listed in words, and what the
 * model-based path tests cover (docs/statecharts/coverage/<name>.json, written by those tests). A signed-in
 * user also sees the live state of their own actors, from XState's inspection (LiveStateList.tsx, also
 * in the shell's "Live state" dialog), each outlined on its chart, and can copy it for a support request. Its own chunk: the charts' data is loaded with this page only.
 */

const charts = Object.values(
  import.meta.glob<ChartData>('../../docs/statecharts/*.json', { eager: true, import: 'default' }),
).sort((a, b) => a.name.localeCompare(b.name));
const coverages = new Map(
  Object.values(
    import.meta.glob<ChartCoverage>('../../docs/statecharts/coverage/*.json', {
      eager: true,
      import: 'default',
    }),
  ).map((coverage) => [coverage.machine, coverage]),
);

/** The anchor in the address (`#payment`, a transition's id): what a link from the audit trail points at. */
function useHash(): string {
  return useSyncExternalStore(
    (listener) => {
      window.addEventListener('hashchange', listener);
      return () => window.removeEventListener('hashchange', listener);
    },
    () => decodeURIComponent(window.location.hash.slice(1)),
  );
}

export default function StatechartsPage() {
  const signedIn = useSession((s) => s.hasTag('signedIn'));
  const live = useSyncExternalStore(subscribeLiveStates, getLiveStates);
  const hash = useHash();
  // Opened from a link (the audit trail's), the page arrives after the browser looked for the anchor.
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (id) document.getElementById(id)?.scrollIntoView();
  }, []);
  return (
    <main className="mx-auto max-w-6xl px-4 py-6">
      <p className="text-sm font-semibold uppercase tracking-wide text-slate-600">{BOARD_NAME}</p>
      <h1 className="mt-1 text-2xl font-bold">Statecharts</h1>
      <p className="mt-2 max-w-2xl text-slate-700">
        Every screen that takes more than one step is run by a statechart. Each is drawn here from the code
        that runs it, so the drawing cannot differ from what the portal does. Arrows are numbered; each number
        leads to its transition in words below, with whether the automated path tests take it.
      </p>
      {signedIn && <LiveStatePanel />}
      <nav aria-label="Machines" className="mt-4">
        <ul className="flex flex-wrap gap-x-4 gap-y-1">
          {charts.map((chart) => (
            <li key={chart.name}>
              <a className="text-brand-700 underline" href={`#${chart.name}`}>
                {chart.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {charts.map((chart) => (
        <Machine
          key={chart.name}
          chart={chart}
          coverage={coverages.get(chart.name)}
          live={signedIn ? live.actors.filter((actor) => actor.machine === chart.name) : []}
          target={hash}
        />
      ))}
      <p className="mt-8">
        <Link className="text-brand-700 underline" href={HOME_PATH}>
          Back to the portal
        </Link>
      </p>
    </main>
  );
}

/** Every active state's path (`signedIn`, `signedIn.idle`), to outline them on the chart. */
function pathsOf(value: StateValue, prefix = ''): string[] {
  if (typeof value === 'string') return [`${prefix}${value}`];
  return Object.entries(value).flatMap(([key, child]) => [
    `${prefix}${key}`,
    ...(child === undefined ? [] : pathsOf(child, `${prefix}${key}.`)),
  ]);
}

function LiveStatePanel() {
  return (
    <section aria-labelledby="live-state" className="mt-6 rounded-lg border border-slate-300 bg-white p-4">
      <h2 id="live-state" className="text-lg font-semibold">
        Your portal, live
      </h2>
      <LiveStateList onPage />
    </section>
  );
}

function Machine({
  chart,
  coverage,
  live,
  target,
}: {
  chart: ChartData;
  coverage: ChartCoverage | undefined;
  live: LiveActor[];
  /** The anchor in the address: its transition is highlighted. */
  target: string;
}) {
  const covered = (t: ChartTransition) => coverage?.transitions[t.name] === true;
  const coveredCount = chart.transitions.filter(covered).length;
  const stateCount = chart.states.filter((state) => coverage?.states[state.path]).length;
  const active = new Set(live.flatMap((actor) => pathsOf(actor.value)));
  const heading = `${chart.name}-heading`;
  return (
    <section id={chart.name} aria-labelledby={heading} className="mt-8">
      <h2 id={heading} className="text-xl font-bold">
        {chart.name}
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        The path tests cover {stateCount} of {chart.states.length} states and {coveredCount} of{' '}
        {chart.transitions.length} transitions.
      </p>
      {live.map((actor) => (
        <p key={actor.id} className="mt-1 text-sm font-semibold text-emerald-800">
          Your {actor.actor} is now in <span className="font-mono">{stateOf(actor.value)}</span>.
        </p>
      ))}
      <div
        role="region"
        aria-label={`Diagram of ${chart.name}`}
        tabIndex={0}
        className="mt-3 max-w-full overflow-auto rounded border border-slate-200 bg-white"
      >
        <Diagram
          chart={chart}
          covered={covered}
          coveredState={(path) => coverage?.states[path] === true}
          active={active}
        />
      </div>
      <details className="mt-3">
        <summary className="cursor-pointer font-semibold">
          States, events, guards, delays and actors of {chart.name}
        </summary>
        <Words chart={chart} coverage={coverage} />
      </details>
      <h3 className="mt-3 font-semibold">Transitions</h3>
      <ol className="mt-1 space-y-1 text-sm">
        {chart.transitions.map((t) => (
          <li
            key={t.anchor}
            id={t.anchor}
            aria-current={t.anchor === target ? 'location' : undefined}
            className={`break-words ${t.anchor === target ? 'bg-amber-100' : ''}`}
          >
            <span className="font-mono">{t.n}.</span> <span className="font-mono">{t.source}</span> →{' '}
            <span className="font-mono">{t.targets.join(', ') || '(stays)'}</span> on{' '}
            <strong>{t.trigger}</strong>
            {t.guard && <> if {t.guard}</>}
            {t.effects.length > 0 && <> then {t.effects.join('; ')}</>} <CoverageBadge covered={covered(t)} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function CoverageBadge({ covered }: { covered: boolean }) {
  return covered ? (
    <span className="rounded bg-green-100 px-1 text-green-900">covered</span>
  ) : (
    <span className="rounded bg-red-100 px-1 text-red-900">not covered</span>
  );
}

function Words({ chart, coverage }: { chart: ChartData; coverage: ChartCoverage | undefined }) {
  const list = (title: string, items: string[]) => (
    <>
      <h4 className="mt-2 font-semibold">{title}</h4>
      {items.length ? (
        <ul className="list-disc pl-5">
          {items.map((item) => (
            <li key={item} className="break-words">
              {item}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-slate-600">None.</p>
      )}
    </>
  );
  return (
    <div className="text-sm">
      <h4 className="mt-2 font-semibold">States</h4>
      <ul className="list-disc pl-5">
        {chart.states.map((state) => (
          <li key={state.path} className="break-words">
            <span className="font-mono">{state.path}</span>
            {state.type !== 'atomic' && <> ({state.type})</>}
            {state.initial && <>, starts in {state.initial}</>}
            {state.notes.length > 0 && <>: {state.notes.join('; ')}</>}{' '}
            <CoverageBadge covered={coverage?.states[state.path] === true} />
          </li>
        ))}
      </ul>
      {list('Events', chart.events)}
      {list('Guards', chart.guards)}
      {list(
        'Delays',
        chart.delays.map((delay) =>
          delay.ms === null
            ? `${delay.name} (computed)`
            : `${delay.name}: ${delay.ms.toLocaleString('en')} ms`,
        ),
      )}
      {list(
        'Invoked actors',
        chart.actors.map((actor) => `${actor.actor}, while in ${actor.state}`),
      )}
    </div>
  );
}

function Diagram({
  chart,
  covered,
  coveredState,
  active,
}: {
  chart: ChartData;
  covered: (t: ChartTransition) => boolean;
  coveredState: (path: string) => boolean;
  active: Set<string>;
}) {
  const marker = `${chart.name}-arrow`;
  return (
    <svg
      width={chart.width}
      height={chart.height}
      viewBox={`0 0 ${chart.width} ${chart.height}`}
      role="img"
      aria-label={`${chart.name}: ${chart.states.length} states, ${chart.transitions.length} transitions`}
      className="block"
    >
      <defs>
        <marker
          id={marker}
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto"
        >
          <path d="M0 0 L10 5 L0 10 z" fill="currentColor" />
        </marker>
      </defs>
      {chart.states.map((state) => (
        <g
          key={state.path}
          data-state={state.path}
          data-active={active.has(state.path) || undefined}
          data-covered={coveredState(state.path)}
        >
          <rect
            x={state.box.x}
            y={state.box.y}
            width={state.box.w}
            height={state.box.h}
            rx={8}
            fill={
              active.has(state.path)
                ? '#ecfdf5'
                : state.type === 'atomic' || state.type === 'final'
                  ? '#f8fafc'
                  : 'none'
            }
            stroke={
              active.has(state.path)
                ? '#047857'
                : !coveredState(state.path)
                  ? '#b91c1c'
                  : state.type === 'atomic' || state.type === 'final'
                    ? '#64748b'
                    : '#94a3b8'
            }
            strokeWidth={active.has(state.path) ? 3 : 1}
            strokeDasharray={coveredState(state.path) ? undefined : '5 3'}
          >
            {!coveredState(state.path) && <title>{`${state.path} (not covered)`}</title>}
          </rect>
          <text x={state.box.x + 10} y={state.box.y + 18} fill="#0f172a" fontSize={12} fontWeight={600}>
            {state.key}
          </text>
          {state.notes.map((note, i) => (
            <text key={note} x={state.box.x + 10} y={state.box.y + 32 + 14 * i} fill="#475569" fontSize={11}>
              {note}
            </text>
          ))}
        </g>
      ))}
      {chart.marks.map((mark) =>
        mark.kind === 'initial' ? (
          <g key={`initial-${mark.state}`}>
            <circle cx={mark.box.x + mark.box.w / 2} cy={mark.box.y + mark.box.h / 2} r={6} fill="#1e293b" />
            {mark.d && <path d={mark.d} stroke="#1e293b" fill="none" markerEnd={`url(#${marker})`} />}
          </g>
        ) : (
          <g key={`any-${mark.state}`}>
            <rect
              x={mark.box.x}
              y={mark.box.y}
              width={mark.box.w}
              height={mark.box.h}
              rx={8}
              fill="#fff"
              stroke="#94a3b8"
              strokeDasharray="4 3"
            />
            <text x={mark.box.x + 10} y={mark.box.y + 18} fill="#475569" fontSize={11}>
              any state
            </text>
          </g>
        ),
      )}
      {chart.transitions.map((t) => {
        const tone = covered(t) ? '#075985' : '#b91c1c';
        return (
          <g key={t.anchor} color={tone} data-covered={covered(t)}>
            {t.arrows.map((arrow, i) => (
              <path
                key={i}
                d={arrow.d}
                fill="none"
                stroke="currentColor"
                strokeWidth={1.2}
                strokeDasharray={covered(t) ? undefined : '5 3'}
                markerEnd={`url(#${marker})`}
              />
            ))}
            {t.arrows.map((arrow, i) => (
              <a key={`n${i}`} href={`#${t.anchor}`} aria-label={`${t.n}: ${t.name}`}>
                <title>{`${t.n}: ${t.name}${covered(t) ? '' : ' (not covered)'}`}</title>
                <circle cx={arrow.x} cy={arrow.y} r={9} fill="#fff" stroke="currentColor" />
                <text x={arrow.x} y={arrow.y + 3.5} textAnchor="middle" fill="currentColor" fontSize={10}>
                  {t.n}
                </text>
              </a>
            ))}
          </g>
        );
      })}
    </svg>
  );
}
