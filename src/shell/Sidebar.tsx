import { Link, useLocation } from 'wouter';
import { badgeText } from '../../contract/constants';
import { CANDIDATE_RECORD_PAGE, isEntryActive, sidebarFor } from '../../contract/navigation';
import type { Role } from '../../contract/roles';
import { useAppActor } from '../app/actors';
import { preloadFromShell } from './pageChunks';

/**
 * The path the sidebar marks: a candidate's record page is no entry of its own, so it marks the list
 * the record was opened from (in the history entry's state, src/pages/candidates/CandidateLink.tsx).
 */
function markedPath(location: string): string {
  if (!location.startsWith(`${CANDIDATE_RECORD_PAGE}/`)) return location;
  const from: unknown = (window.history.state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') ? from : location;
}

/** The Notifications entry carries the unread badge (spec section 2). */
const BADGED_PATH = '/notifications';

export function Sidebar({ role, onNavigate }: { role: Role; onNavigate?: () => void }) {
  const [location] = useLocation();
  const badge = badgeText(useAppActor('unreadCount', (s) => s.context.unread));
  return (
    <nav aria-label="Main" className="flex flex-col gap-1 p-3">
      {sidebarFor(role).map((entry) => {
        const active = isEntryActive(entry.path, markedPath(location));
        return (
          <Link
            key={entry.path}
            href={entry.path}
            onClick={() => {
              // The page shown already took its answers: asking again would leave one for a later visit.
              if (!active) preloadFromShell(entry.path, role);
              onNavigate?.();
            }}
            aria-current={active ? 'page' : undefined}
            className={`flex items-center justify-between rounded-md px-3 py-2 text-sm font-medium ${
              active ? 'bg-brand-700 text-white' : 'text-slate-200 hover:bg-brand-800 hover:text-white'
            }`}
          >
            <span>{entry.label}</span>
            {entry.path === BADGED_PATH && badge && (
              <span
                data-testid="sidebar-badge"
                aria-label={`${badge} unread`}
                className="rounded-full bg-red-600 px-2 py-0.5 text-xs font-semibold text-white"
              >
                {badge}
              </span>
            )}
          </Link>
        );
      })}
    </nav>
  );
}
