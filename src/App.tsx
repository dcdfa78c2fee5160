import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { LOGIN_PATH } from '../contract/navigation';
import { useLazyActors } from './app/actors';
import { loadPages } from './app/chunks';
import { LoginPage } from './pages/LoginPage';
import { Splash } from './ui/controls';

// Every other page, the code step included: its own chunk, so /login's entry carries only the login.
const Pages = lazy(loadPages);

export function App() {
  return (
    <Switch>
      <Route path={LOGIN_PATH} component={LoginPage} />
      <Route>
        <WithActors>
          <Suspense fallback={<Splash message="Loading…" />}>
            <Pages />
          </Suspense>
        </WithActors>
      </Route>
    </Switch>
  );
}

/**
 * Every page but /login reads the app's actors: after a /login rendered at build time they may not be
 * loaded yet (a link followed before the form was used), so they are loaded first.
 */
function WithActors({ children }: { children: ReactNode }) {
  const { actors, load } = useLazyActors();
  useEffect(() => {
    if (!actors) void load();
  }, [actors, load]);
  return actors ? children : <Splash message="Loading…" />;
}
