import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { CONFIRM_CODE_PATH, LOGIN_PATH } from '../contract/paths';
import { useLazyActors } from './app/actors';
import { loadPages } from './app/pagesChunk';
import { ConfirmCodePage } from './pages/ConfirmCodePage';
import { LoginPage } from './pages/LoginPage';
import { Splash } from './ui/controls';

// Every other page: its own chunk, so /login's entry carries only the sign-in's two steps (the code
// step is small, and shown the moment the password is accepted).
const Pages = lazy(loadPages);

export function App() {
  return (
    <Switch>
      <Route path={LOGIN_PATH} component={LoginPage} />
      <Route path={CONFIRM_CODE_PATH}>
        <WithActors>
          <ConfirmCodePage />
        </WithActors>
      </Route>
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
