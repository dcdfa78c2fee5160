import { StrictMode, useCallback, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { LOGIN_PATH } from '../contract/paths';
import { App } from './App';
import { ActorsProvider } from './app/actors';
import type { AppActors } from './app/appActors';
import { loadActors, loadFullStyles } from './app/loadActors';

/**
 * The app, with its actors once they are loaded: at once, except on a /login rendered at build time
 * (src/main.tsx, vite.config.ts), where they load when the form is first used.
 */
export function Root({ initial }: { initial: AppActors | null }) {
  const [actors, setActors] = useState(initial);
  const load = useCallback(
    () =>
      loadActors().then((loaded) => {
        setActors(loaded);
        return loaded;
      }),
    [],
  );
  const [location] = useLocation();
  useEffect(() => {
    if (location !== LOGIN_PATH) loadFullStyles();
  }, [location]);
  return (
    <StrictMode>
      <ActorsProvider actors={actors} load={load}>
        <App />
      </ActorsProvider>
    </StrictMode>
  );
}
