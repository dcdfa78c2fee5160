import { useState, useSyncExternalStore } from 'react';
import type { StateValue } from 'xstate';
import { Link } from 'wouter';
import { statechartAnchor, statechartHref } from '../../contract/statecharts';
import { getLiveStates, subscribeLiveStates, type LiveActor } from '../app/liveStates';
import { Button } from '../ui/controls';

/** `signedIn.idle`, or for a parallel machine `account: admin; activity: active`. */
export function stateOf(value: StateValue): string {
  if (typeof value === 'string') return value;
  const entries = Object.entries(value).filter(
    (entry): entry is [string, StateValue] => entry[1] !== undefined,
  );
  if (entries.length === 1) return `${entries[0][0]}.${stateOf(entries[0][1])}`;
  return entries.map(([key, child]) => `${key}: ${stateOf(child)}`).join('; ');
}

/** What is copied for a support request: machine names and state values, nothing else. */
function supportText(actors: readonly LiveActor[], at: number): string {
  const lines = actors.map(
    (actor) => `${actor.actor} (${actor.machine}): ${stateOf(actor.value)} [${actor.status}]`,
  );
  return [`Portal state at ${new Date(at).toISOString()}`, ...lines].join('\n');
}

/**
 * The signed-in user's live state (src/app/liveStates.ts: the app's actors and those of the page they
 * are on), as it changes, with a Copy for a support request: on /statecharts, and in the shell's "Live
 * state" dialog without leaving the page (loaded only when that dialog opens). Each actor links to its
 * machine's chart: `onPage` on /statecharts itself (the section below), else the page, `onLeave` told.
 */
export default function LiveStateList({
  onPage = false,
  onLeave,
}: {
  onPage?: boolean;
  onLeave?: () => void;
}) {
  const { actors, at } = useSyncExternalStore(subscribeLiveStates, getLiveStates);
  const [copied, setCopied] = useState<string | null>(null);
  const copy = () => {
    navigator.clipboard.writeText(supportText(actors, at)).then(
      () => setCopied('Copied. Paste it into your message to the board.'),
      () => setCopied('Your browser did not allow copying; select the list and copy it instead.'),
    );
  };
  const linkClass = 'text-brand-700 underline';
  return (
    <>
      <p className="mt-1 text-sm text-slate-600">
        The state each of your portal's own machines is in now. Nothing personal is shown or copied.
      </p>
      <ul className="mt-2 space-y-1 text-sm" aria-live="polite">
        {actors.map((actor) => (
          <li key={actor.id} data-actor={actor.actor} className="break-words">
            {onPage ? (
              <a className={linkClass} href={`#${statechartAnchor(actor.machine)}`}>
                {actor.actor}
              </a>
            ) : (
              <Link className={linkClass} href={statechartHref(actor.machine)} onClick={onLeave}>
                {actor.actor}
              </Link>
            )}
            : <span className="font-mono">{stateOf(actor.value)}</span>
          </li>
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Button variant="secondary" onClick={copy}>
          Copy
        </Button>
        <span role="status" className="text-sm text-slate-700">
          {copied}
        </span>
      </div>
    </>
  );
}
