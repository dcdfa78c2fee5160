import type { ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { useActors, useSession } from './actors';
import { loginPathFor } from './redirect';
import { Button, Splash } from '../ui/controls';

/** Renders its children only for a signed-in user; otherwise what the session is doing, or the way to
 * /login (with redirect-to, unless the user logged out on purpose). */
export function RequireSession({ children }: { children: ReactNode }) {
  const { session } = useActors();
  const [location] = useLocation();
  const search = useSearch();
  const view = useSession((s) => ({
    signedIn: s.hasTag('signedIn'),
    restoring: s.matches('starting') || s.matches('loadingProfile'),
    signingOut: s.matches('signingOut'),
    unavailable: s.matches('profileUnavailable'),
    error: s.context.error,
    loggedOut: s.context.endedBecause === 'loggedOut',
  }));

  if (view.signedIn) return <>{children}</>;
  if (view.restoring) return <Splash message="Loading your portal…" />;
  if (view.signingOut) return <Splash message="Logging out…" />;
  if (view.unavailable) {
    return (
      <main
        className="flex min-h-screen flex-col items-center justify-center gap-4 px-4 text-center"
        role="alert"
      >
        <p className="max-w-md text-slate-700">{view.error}</p>
        <div className="flex gap-3">
          <Button onClick={() => session.send({ type: 'session.retry' })}>Try again</Button>
          <Button variant="secondary" onClick={() => session.send({ type: 'session.signOut' })}>
            Log out
          </Button>
        </div>
      </main>
    );
  }
  return <Redirect to={loginPathFor(search ? `${location}?${search}` : location, !view.loggedOut)} replace />;
}
